package closedmonths

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// BenchmarkBuild builds the table of a month of 4 million players, as a
// close hands it over: the ranks in rank order, then every player's name in
// the players table's order, which is not the ranks'. Its index and columns
// are far larger than the CPU's caches, as a real month's are.
func BenchmarkBuild(b *testing.B) {
	const players = 4_000_000
	m, _ := leaderboard.NewMonth(2026, time.November)
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("player-%08d", i)
	}
	ranked := append([]string(nil), ids...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ranked), func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	at := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	ranks := func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		for i, id := range ranked {
			if err := entry(leaderboard.RankEntry{Rank: i + 1, Score: 10000 - i/1000, ReachedAt: at, Player: leaderboard.Player{ID: id}}); err != nil {
				return err
			}
		}
		for _, id := range ids {
			if err := name(id, "Name of "+id[7:]); err != nil {
				return err
			}
		}
		return nil
	}
	for b.Loop() {
		if _, err := Build(m, players, ranks); err != nil {
			b.Fatal(err)
		}
	}
}
