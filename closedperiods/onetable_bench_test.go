package closedperiods

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// oneTablePlayers is the size of BenchmarkOneTable's month, that of db's
// BenchmarkOneTable period: the two kinds of closed table read side by side.
const oneTablePlayers = 1_000_000

// oneTableMonth builds the table of a month of oneTablePlayers players named
// and ranked as db's BenchmarkOneTable period is, and returns its ids and the
// heap it holds a player.
func oneTableMonth(b *testing.B) ([]string, *table, float64) {
	ids, ranks := benchMonth(oneTablePlayers)
	m, _ := leaderboard.NewMonth(2026, time.November)
	before := heapInUse()
	f, err := Build(m, len(ids), ranks)
	if err != nil {
		b.Fatal(err)
	}
	perPlayer := float64(heapInUse()-before) / oneTablePlayers
	runtime.KeepAlive(ranks) // its ids are not the table's
	return ids, f.table, perPlayer
}

// heapInUse is the heap's live bytes after a collection.
func heapInUse() int64 {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return int64(s.HeapAlloc)
}

// BenchmarkOneTable reads a closed month's table as db's BenchmarkOneTable
// reads a closed period of the same players: the standing of a random
// player with ten neighbours above and below, and a page of 20 entries from
// a random rank (a month's page is read from PostgreSQL today: this is the
// table's own read of those rows, without cursors), each copied as an
// answer's writer does. B/player is the heap the table holds a player.
func BenchmarkOneTable(b *testing.B) {
	ids, t, perPlayer := oneTableMonth(b)
	b.Run("kind=month/read=standing", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		answer := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			s := t.standing(ids[rng.IntN(len(ids))], 10, 10)
			if s == nil {
				b.Fatal("no standing")
			}
			answer = answer[:0]
			for _, e := range slices.Concat(s.Above, []leaderboard.RankEntry{s.RankEntry}, s.Below) {
				answer = append(append(answer, e.Player.ID...), *e.Player.Name...)
			}
		}
		b.ReportMetric(perPlayer, "B/player")
	})
	b.Run("kind=month/read=page", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		answer := make([]byte, 0, 8192)
		b.ReportAllocs()
		for b.Loop() {
			from := rng.IntN(t.players()) + 1
			to := min(from+20, t.players()+1)
			entries, names := make([]leaderboard.RankEntry, to-from), make([]string, to-from)
			for r := from; r < to; r++ {
				entries[r-from] = t.entry(r, &names[r-from])
			}
			answer = answer[:0]
			for _, e := range entries {
				answer = append(append(answer, e.Player.ID...), *e.Player.Name...)
			}
		}
		b.ReportMetric(perPlayer, "B/player")
	})
}
