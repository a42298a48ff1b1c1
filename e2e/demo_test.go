package e2e_test

import (
	"testing"

	"github.com/gamebackend/leaderboard/app"
)

// The demo's two months, seeded at start as `make run` does, hold the same
// players with other scores: the top of one table is not the top of the other.
func TestDemo_MonthsRankTheirPlayersDifferently(t *testing.T) {
	const players, top = 2_000, 100
	s := startServer(t, func(c *app.Config) { c.DemoPlayers = players })
	before := s.leaderboard(t, previousMonth(t).month, top, nil)
	now := s.leaderboard(t, currentMonth(t).month, top, nil)
	if before.Total != players || now.Total != players {
		t.Fatalf("the demo months have %d and %d players, want %d each", before.Total, now.Total, players)
	}
	scoreBefore := map[string]int{}
	for _, e := range before.Edges {
		scoreBefore[e.Node.Player.ID] = e.Node.Score
	}
	sameRank, sameScore := 0, 0
	for i, e := range now.Edges {
		if e.Node.Player.ID == before.Edges[i].Node.Player.ID {
			sameRank++
		}
		if score, ok := scoreBefore[e.Node.Player.ID]; ok && score == e.Node.Score {
			sameScore++
		}
	}
	// Two independent draws share a few players at the top, by chance.
	if sameRank > top/10 || sameScore > top/10 {
		t.Errorf("of the top %d, %d players hold the same rank in both demo months and %d the same score", top, sameRank, sameScore)
	}
}
