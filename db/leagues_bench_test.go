package db_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
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

// BenchmarkLeagues_CloseAndCohortReadsAtScale seeds a period of
// LEADERBOARD_BENCH_PLAYERS players (default 200,000; at least 30,000) into a WEEK board with cohorts of 30 in five leagues (members
// placed by SQL as arrival order would place them, spread over the
// leagues) and into the same board without cohorts, reads 2,000 cohorts
// and standings' cohorts, then closes both and reports each close's time.
// Run with
// go test -run '^$' -bench Leagues_CloseAndCohortReads -benchtime 1x -timeout 60m ./db/
func BenchmarkLeagues_CloseAndCohortReadsAtScale(b *testing.B) {
	const reads = 2000
	players := 200_000
	if n, err := strconv.Atoi(os.Getenv("LEADERBOARD_BENCH_PLAYERS")); err == nil && n >= 30_000 {
		players = n
	}
	clock := &weekClock{}
	clock.set(testNow)
	store := mustOpenDB(b, db.WithClock(clock.get))
	ctx := context.Background()
	for _, id := range []string{"plain", "league"} {
		spec := leagueBoard(id, 30)
		spec.Leagues = []leaderboard.League{{Name: "l1", Promote: 10}, {Name: "l2", Promote: 7, Demote: 5},
			{Name: "l3", Promote: 7, Demote: 5}, {Name: "l4", Promote: 7, Demote: 5}, {Name: "l5", Demote: 5}}
		if id == "plain" {
			spec.CohortSize, spec.Leagues = nil, nil
		}
		if _, err := store.CreateBoard(ctx, spec); err != nil {
			b.Fatal(err)
		}
		if _, err := store.SeedPeriod(ctx, id, "2026-W47", players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	placeSeededPlayers(b, "league", 5)
	mustQuery(b, `ANALYZE cohort_members`)
	board := mustBoard(b, store, "league")
	ids := mustQuery(b, `SELECT player_id FROM cohort_members ORDER BY player_id LIMIT 2000`)
	b.ResetTimer()
	start := time.Now()
	for i := range reads {
		c, err := store.Cohort(ctx, board, "2026-W47", leaderboard.CohortID(i%5, i%(players/150)+1))
		if err != nil || c == nil || c.Size != 30 {
			b.Fatalf("cohort: %+v, %v", c, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/reads, "µs/cohort")
	start = time.Now()
	for i := range reads {
		if ref, err := store.CohortOf(ctx, board, "2026-W47", ids[i][0]); err != nil || ref == nil {
			b.Fatalf("cohort of %s: %+v, %v", ids[i][0], ref, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/reads, "µs/standing.cohort")
	clock.set(testNow.Add(7 * 24 * time.Hour))
	for _, id := range []string{"plain", "league"} {
		start = time.Now()
		if _, err := store.ClosePeriod(ctx, id, "2026-W47"); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/close-"+id)
	}
	b.ReportMetric(float64(len(mustQuery(b, `SELECT 1 FROM board_player_leagues`))), "moved")
}

// placeSeededPlayers places the seeded players of board (cohorts of 30)
// in cohorts as arrival order would, spread over leagues leagues.
func placeSeededPlayers(tb testing.TB, board string, leagues int) {
	tb.Helper()
	mustQuery(tb, `INSERT INTO cohort_members (period_id, player_id, league, cohort)
		SELECT period_id, player_id, n % $2, (n / $2) / 30 + 1
		FROM (SELECT s.period_id, s.player_id, ROW_NUMBER() OVER (ORDER BY s.seq) - 1 AS n
			FROM board_scores s JOIN periods p ON p.id = s.period_id WHERE p.board_id = $1) x`, board, leagues)
	mustQuery(tb, `INSERT INTO period_cohort_fill (period_id, league, cohort, size)
		SELECT DISTINCT ON (m.period_id, m.league) m.period_id, m.league, m.cohort, count(*)
		FROM cohort_members m JOIN periods p ON p.id = m.period_id WHERE p.board_id = $1
		GROUP BY m.period_id, m.league, m.cohort ORDER BY m.period_id, m.league, m.cohort DESC`, board)
}
