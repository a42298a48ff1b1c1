package db

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// oneTablePlayers is the size of BenchmarkOneTable's closed period, that of
// closedperiods' BenchmarkOneTable month: the two kinds of closed table
// read side by side.
const oneTablePlayers = 1_000_000

// oneTablePeriod returns the ids of a closed DESC period of oneTablePlayers
// players named and ranked as closedperiods' BenchmarkOneTable month, built
// as LoadClosedPeriod builds one but from memory, and the heap it holds a
// player.
func oneTablePeriod() ([]string, *ClosedPeriod, float64) {
	ids := make([]string, oneTablePlayers)
	for i := range ids {
		ids[i] = fmt.Sprintf("player-%08d", i)
	}
	ranked := append([]string(nil), ids...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ranked), func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	at := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	before := heapInUse()
	rows := &rankedRows{columns: withBoardColumns | withKeyColumns}
	for i, id := range ranked {
		score := int64(10000 - i/1000)
		rows.ids = append(rows.ids, id...)
		rows.idEnds = append(rows.idEnds, uint32(len(rows.ids)))
		rows.scores = append(rows.scores, int32(score))
		rows.reachedAtMicros = append(rows.reachedAtMicros, at)
		rows.subscores = append(rows.subscores, 0)
		rows.hasSubscore = append(rows.hasSubscore, false)
		rows.metadataEnds = append(rows.metadataEnds, 0)
		rows.sortScores = append(rows.sortScores, -score)
		rows.sortSubscores = append(rows.sortSubscores, 0)
		rows.seqs = append(rows.seqs, int64(i))
	}
	p := &ClosedPeriod{key: "2026-11", id: 1, startsAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), version: 1,
		rows: periodTable(rows)}
	for _, id := range ids {
		if err := p.rows.SetName(id, "Name of "+id[7:]); err != nil {
			panic(err)
		}
	}
	if err := p.rows.Complete(); err != nil {
		panic(err)
	}
	perPlayer := float64(heapInUse()-before) / oneTablePlayers
	runtime.KeepAlive(ranked)
	return ids, p, perPlayer
}

// heapInUse is the heap's live bytes after a collection.
func heapInUse() int64 {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return int64(s.HeapAlloc)
}

// BenchmarkOneTable reads a closed period of a board as closedperiods'
// BenchmarkOneTable reads a closed month of the same players: the standing
// of a random player with ten neighbours above and below, and a page of 20
// entries after the cursor of a random rank, each copied as an answer's
// writer does. B/player is the heap the period holds a player.
func BenchmarkOneTable(b *testing.B) {
	ids, p, perPlayer := oneTablePeriod()
	board := &leaderboard.Board{ID: "weekly", Location: time.UTC}
	b.Run("kind=period/read=standing", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		answer := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			s := p.Standing(board, ids[rng.IntN(len(ids))], 10, 10)
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
	b.Run("kind=period/read=page", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		answer := make([]byte, 0, 8192)
		b.ReportAllocs()
		for b.Loop() {
			i := rng.IntN(p.Players())
			after := boardCursor{periodID: p.id, rank: i + 1, key: p.keyOf(i + 1)}.encode()
			page, ok := p.Leaderboard(20, after)
			if !ok || len(page.Edges) == 0 && i+1 < p.Players() {
				b.Fatal("no page")
			}
			answer = answer[:0]
			for _, e := range page.Edges {
				answer = append(append(append(answer, e.Cursor...), e.Entry.Player.ID...), *e.Entry.Player.Name...)
			}
		}
		b.ReportMetric(perPlayer, "B/player")
	})
}
