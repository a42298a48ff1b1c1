package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// answerFor builds the answer the service gives for rank of total players,
// scores falling by one per rank, with its full window.
func answerFor(rank, total int, final bool) standingAnswer {
	name := "SwiftFalcon1"
	entry := func(r int) string {
		return fmt.Sprintf(`{"rank": %d, "score": %d, "player": {"name": %q}}`, r, 10000-r, name)
	}
	var neighbours []string
	for r := max(1, rank-Neighbours); r <= min(total, rank+Neighbours); r++ {
		if r != rank {
			neighbours = append(neighbours, entry(r))
		}
	}
	raw := fmt.Sprintf(`{"standing": {"rank": %d, "score": %d, "total": %d, "final": %v, "player": {"name": %q}, "neighbours": [%s]}}`,
		rank, 10000-rank, total, final, name, strings.Join(neighbours, ","))
	var a standingAnswer
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		panic(err)
	}
	return a
}

func TestStandingAnswerCheck_OK(t *testing.T) {
	for _, tt := range []struct{ rank, total int }{{1, 1000}, {5, 1000}, {500, 1000}, {995, 1000}, {1000, 1000}, {1, 1}} {
		if err := answerFor(tt.rank, tt.total, true).check(ExpectFinal, leaderboard.OrderDesc); err != nil {
			t.Errorf("rank %d of %d: %v", tt.rank, tt.total, err)
		}
	}
}

func TestStandingAnswerCheck_Finality(t *testing.T) {
	final, live := answerFor(5, 100, true), answerFor(5, 100, false)
	for _, tt := range []struct {
		answer   standingAnswer
		finality Finality
		ok       bool
	}{
		{final, ExpectFinal, true}, {final, ExpectLive, false}, {final, ExpectEither, true},
		{live, ExpectLive, true}, {live, ExpectFinal, false}, {live, ExpectEither, true},
	} {
		if err := tt.answer.check(tt.finality, leaderboard.OrderDesc); (err == nil) != tt.ok {
			t.Errorf("final %v, finality %d: check = %v, want ok %v", tt.answer.Standing.Final, tt.finality, err, tt.ok)
		}
	}
}

func TestStandingAnswerCheck_FindsWrongAnswers(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spoil func(a *standingAnswer)
	}{
		{"ErrNull", func(a *standingAnswer) { a.Standing = nil }},
		{"ErrNotFinal", func(a *standingAnswer) { a.Standing.Final = false }},
		{"ErrRankPastTotal", func(a *standingAnswer) { a.Standing.Rank = a.Standing.Total + 1 }},
		{"ErrNoName", func(a *standingAnswer) { a.Standing.Player.Name = nil }},
		{"ErrShortWindow", func(a *standingAnswer) { a.Standing.Neighbours = a.Standing.Neighbours[1:] }},
		{"ErrRankGap", func(a *standingAnswer) { a.Standing.Neighbours[3].Rank++ }},
		{"ErrNeighbourWithoutName", func(a *standingAnswer) { a.Standing.Neighbours[15].Player.Name = nil }},
		{"ErrScoreRisesBelow", func(a *standingAnswer) { a.Standing.Neighbours[12].Score = 10000 }},
		{"ErrScoreFallsAbove", func(a *standingAnswer) { a.Standing.Neighbours[9].Score = 0 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := answerFor(500, 1000, true)
			tt.spoil(&a)
			if err := a.check(ExpectFinal, leaderboard.OrderDesc); err == nil {
				t.Error("check passed a wrong answer")
			}
		})
	}
}

// In an ASC table scores rise down the window; a DESC table's window is out
// of order there, and the other way round.
func TestStandingAnswerCheck_FollowsTheOrder(t *testing.T) {
	desc := answerFor(500, 1000, true)
	asc := answerFor(500, 1000, true)
	asc.Standing.Score = 500
	for i := range asc.Standing.Neighbours {
		asc.Standing.Neighbours[i].Score = asc.Standing.Neighbours[i].Rank
	}
	for _, tt := range []struct {
		name   string
		answer standingAnswer
		order  leaderboard.SortOrder
		ok     bool
	}{
		{"DescInDesc", desc, leaderboard.OrderDesc, true},
		{"AscInAsc", asc, leaderboard.OrderAsc, true},
		{"ErrDescInAsc", desc, leaderboard.OrderAsc, false},
		{"ErrAscInDesc", asc, leaderboard.OrderDesc, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.answer.check(ExpectFinal, tt.order); (err == nil) != tt.ok {
				t.Errorf("check = %v, want ok %v", err, tt.ok)
			}
		})
	}
}
