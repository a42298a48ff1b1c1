package closedperiods

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// benchPlayers is the size of the benchmarks' month: its index and columns
// are far larger than the CPU's caches, as a real month's are.
const benchPlayers = 4_000_000

// benchMonth returns the ids of a month of players players and a rank
// stream handing them over as a close does: the ranks in rank order, then
// every player's name in the players table's order, which is not the ranks'.
func benchMonth(players int) ([]string, leaderboard.RankStream) {
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("player-%08d", i)
	}
	ranked := append([]string(nil), ids...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ranked), func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	at := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	return ids, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
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
}

// BenchmarkBuild builds the table of a month of benchPlayers players.
func BenchmarkBuild(b *testing.B) {
	m, _ := leaderboard.NewMonth(2026, time.November)
	_, ranks := benchMonth(benchPlayers)
	for b.Loop() {
		if _, err := Build(m, benchPlayers, ranks); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStanding reads the standings of random players of a month of
// benchPlayers players with their ten neighbours above and below, and copies
// their ids and names as an answer's writer does: the in-memory part of a
// closed month's read.
func BenchmarkStanding(b *testing.B) {
	m, _ := leaderboard.NewMonth(2026, time.November)
	ids, ranks := benchMonth(benchPlayers)
	f, err := Build(m, benchPlayers, ranks)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	answer := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		s := f.table.standing(ids[rng.IntN(len(ids))], 10, 10)
		if s == nil {
			b.Fatal("no standing")
		}
		answer = answer[:0]
		for _, e := range slices.Concat(s.Above, []leaderboard.RankEntry{s.RankEntry}, s.Below) {
			answer = append(append(answer, e.Player.ID...), *e.Player.Name...)
		}
	}
}
