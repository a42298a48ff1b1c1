package db_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// BenchmarkSubmit_TieBreakBoard submits one event per call from 16
// concurrent callers to a DAY board ASC with SUBSCORE_ASC over
// 0..2,000,000,000 (whose writes keep the subscore counters too) and to the
// same board without a tie-break, each event a new total and subscore of
// one of 2,000 known players. The totals spread over the whole range (few
// players a level-8 bucket, which keeps no level-0 counters), or over its
// first 10,000 (about 50 players a bucket: every bucket crowded, so a write
// moves its level-0 counters too, one more round trip). Run with
// go test -run '^$' -bench Submit_TieBreakBoard -benchtime 20000x -count 6 ./db/
func BenchmarkSubmit_TieBreakBoard(b *testing.B) {
	for _, c := range []struct {
		tieBreak leaderboard.TieBreak
		spread   int64
	}{
		{leaderboard.TieBreakSubscoreAsc, 2_000_000_000}, {leaderboard.TieBreakNone, 2_000_000_000},
		{leaderboard.TieBreakSubscoreAsc, 10_000}, {leaderboard.TieBreakNone, 10_000},
	} {
		tieBreak := c.tieBreak
		b.Run(fmt.Sprintf("%s/spread=%d", tieBreak, c.spread), func(b *testing.B) {
			store := mustOpenDB(b)
			ctx := context.Background()
			mustCreateBoard(b, store, leaderboard.BoardSpec{ID: "day", Name: "day", Reset: leaderboard.ResetDay,
				Order: new(leaderboard.OrderAsc), MinScore: new(0), MaxScore: new(2_000_000_000), TieBreak: new(tieBreak),
				TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
			const known = 2000
			event := func(n int64) leaderboard.ScoreEvent {
				e := boardEvent("day", fmt.Sprintf("e-%d", n), fmt.Sprintf("p%d", n%known), leaderboard.ModeSet,
					int(n*7919%c.spread), nil)
				if tieBreak != leaderboard.TieBreakNone {
					e.Subscore = new(int(n * 104729 % 1_000_000))
				}
				return e
			}
			for i := range int64(known) {
				mustSubmit(b, store, event(-i-1))
			}
			var next atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := store.SubmitScores(ctx, []leaderboard.ScoreEvent{event(next.Add(1))}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
