package db_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// BenchmarkSubmit_LeagueBoardAgainstPlain submits one event per call from
// 16 concurrent callers (merged into shared transactions as in production)
// to a WEEK board with cohorts of 30 in five leagues and to the same board
// without cohorts: every player new (each pays its cohort's placement), and
// every player known (nothing to place). Run with
// go test -run '^$' -bench Submit_LeagueBoard -benchtime 20000x ./db/
func BenchmarkSubmit_LeagueBoardAgainstPlain(b *testing.B) {
	for _, kind := range []string{"league", "plain"} {
		for _, players := range []string{"new", "known"} {
			b.Run(kind+"/"+players, func(b *testing.B) {
				store := mustOpenDB(b)
				ctx := context.Background()
				spec := leagueBoard("board", 30)
				spec.Leagues = []leaderboard.League{{Name: "l1", Promote: 10}, {Name: "l2", Promote: 7, Demote: 5},
					{Name: "l3", Promote: 7, Demote: 5}, {Name: "l4", Promote: 7, Demote: 5}, {Name: "l5", Demote: 5}}
				if kind == "plain" {
					spec.CohortSize, spec.Leagues = nil, nil
				}
				if _, err := store.CreateBoard(ctx, spec); err != nil {
					b.Fatal(err)
				}
				const known = 2000
				if players == "known" {
					for i := range known {
						mustSubmit(b, store, boardEvent("board", fmt.Sprintf("seed-%d", i), fmt.Sprintf("p%d", i),
							leaderboard.ModeAdd, 1, nil))
					}
				}
				var next atomic.Int64
				b.SetParallelism(16)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						n := next.Add(1)
						player := fmt.Sprintf("p%d", n)
						if players == "known" {
							player = fmt.Sprintf("p%d", n%known)
						}
						if _, err := store.SubmitScores(ctx, []leaderboard.ScoreEvent{boardEvent("board",
							fmt.Sprintf("e-%d", n), player, leaderboard.ModeAdd, int(n%100)+1, nil)}); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
