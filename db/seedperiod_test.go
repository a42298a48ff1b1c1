package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func TestSeedPeriod_FillsAnOpenPeriodInTheBoardsOrderAndBounds(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	asc := leaderboard.OrderAsc
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay, Order: &asc,
		MinScore: new(150), MaxScore: new(2000), TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	// A seeded player's row of main's month stays apart.
	mustSubmit(t, store, event("m1", db.SeedPlayerID(3), leaderboard.ModeSet, 5, at(10)))

	var reported []int
	stats, err := store.SeedPeriod(ctx, "laps", "2026-11-20", 1000, db.SeedOptions{RandomSeed: 7,
		Progress: func(done int) { reported = append(reported, done) }})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Players != 1000 || stats.NewPlayers != 999 || len(reported) != 1 || reported[0] != 1000 {
		t.Fatalf("stats %+v, progress %v", stats, reported)
	}
	got := mustQuery(t, `SELECT count(*), bool_and(score BETWEEN 150 AND 2000), count(DISTINCT seq),
		bool_and(reached_at >= '2026-11-20' AND reached_at <= $1) FROM board_scores
		WHERE period_id = (SELECT id FROM periods WHERE board_id = 'laps')`, now)
	if r := got[0]; r[0] != "1000" || r[1] != "true" || r[2] != "1000" || r[3] != "true" {
		t.Fatalf("seeded rows (count, within bounds, seqs, times in the day) %v", r)
	}
	if r := mustQuery(t, `SELECT count(*) FROM board_scores WHERE subscore IS NOT NULL`); r[0][0] != "0" {
		t.Fatalf("%s subscores seeded on a board without a tie-break", r[0][0])
	}
	// Ranked lowest first, and a later event counts as on any period.
	page, err := store.PeriodLeaderboard(ctx, mustBoard(t, store, "laps"), "2026-11-20", 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1000 || len(page.Edges) != 1000 {
		t.Fatalf("page of %d rows, total %d", len(page.Edges), page.Total)
	}
	for i := 1; i < len(page.Edges); i++ {
		if page.Edges[i].Entry.Score < page.Edges[i-1].Entry.Score || page.Edges[i].Entry.Rank != i+1 {
			t.Fatalf("rank %d: %+v after %+v", i+1, page.Edges[i].Entry, page.Edges[i-1].Entry)
		}
	}
	results := mustSubmit(t, store, boardEvent("laps", "e1", db.SeedPlayerID(1), leaderboard.ModeSet, 151, utc(11, 20, 11)))
	if results[0].Status != leaderboard.StatusApplied && results[0].Status != leaderboard.StatusUnchanged {
		t.Fatalf("an event of a seeded player: %+v", results[0])
	}

	// The same seed in another period gives the same scores to the same players.
	now = *utc(11, 21, 12)
	if _, err := store.SeedPeriod(ctx, "laps", "2026-11-21", 1000, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	same := mustQuery(t, `SELECT count(*) FROM board_scores a JOIN board_scores b USING (player_id)
		JOIN periods pa ON pa.id = a.period_id AND pa.key = '2026-11-20'
		JOIN periods pb ON pb.id = b.period_id AND pb.key = '2026-11-21'
		WHERE a.score = b.score AND a.player_id <> $1`, db.SeedPlayerID(1))
	if same[0][0] != "999" {
		t.Fatalf("%s players of 999 got the same score from the same seed", same[0][0])
	}

	for _, c := range []struct {
		name, board, key string
		code             string
	}{
		{"HasScores", "laps", "2026-11-21", leaderboard.EBADINPUT},
		{"PastItsClose", "laps", "2026-11-19", leaderboard.ECONFLICT},
		{"NotStarted", "laps", "2026-11-22", leaderboard.ECONFLICT},
		{"MainNotAMonth", leaderboard.MainBoard, "2026-11-21", leaderboard.EBADINPUT},
		{"UnknownBoard", "nope", "2026-11-21", leaderboard.ENOTFOUND},
		{"BadKey", "laps", "2026-W47", leaderboard.EBADINPUT},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := store.SeedPeriod(ctx, c.board, c.key, 10, db.SeedOptions{})
			assertCode(t, err, c.code)
		})
	}
	t.Run("Closed", func(t *testing.T) {
		if _, err := store.ClosePeriod(ctx, "laps", "2026-11-20"); err != nil {
			t.Fatal(err)
		}
		if _, err := store.ClearPeriod(ctx, "laps", "2026-11-21", "reseed"); err != nil {
			t.Fatal(err)
		}
		if _, err := store.ClosePeriod(ctx, "laps", "2026-11-21"); err != nil {
			t.Fatal(err)
		}
		_, err := store.SeedPeriod(ctx, "laps", "2026-11-21", 10, db.SeedOptions{})
		assertCode(t, err, leaderboard.EBADINPUT)
		if n := mustQuery(t, `SELECT count(*) FROM board_scores s JOIN periods p ON p.id = s.period_id
			WHERE p.key = '2026-11-21'`); n[0][0] != "0" {
			t.Fatalf("the refused seed wrote %s rows", n[0][0])
		}
	})
}

// A time trial's seed spreads over its whole range with subscores, ranked
// by both as the board orders them.
func TestSeedPeriod_ATimeTrialGetsScoresOverItsRangeAndSubscores(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	asc, tiebreak := leaderboard.OrderAsc, leaderboard.TieBreakSubscoreAsc
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "trial", Name: "Trial", Reset: leaderboard.ResetDay, Order: &asc,
		TieBreak: &tiebreak, MinScore: new(0), MaxScore: new(2_000_000_000), TimeZone: new("UTC"), CloseGrace: new(60),
		StartsAt: utc(11, 1, 0)})
	if _, err := store.SeedPeriod(ctx, "trial", "2026-11-20", 2000, db.SeedOptions{RandomSeed: 3}); err != nil {
		t.Fatal(err)
	}
	got := mustQuery(t, `SELECT count(DISTINCT score) > 1900, bool_and(subscore BETWEEN 0 AND 999999), max(score) > 10000
		FROM board_scores`)
	if r := got[0]; r[0] != "true" || r[1] != "true" || r[2] != "true" {
		t.Fatalf("seeded rows (distinct scores, subscores, beyond main's range) %v", r)
	}
	page, err := store.PeriodLeaderboard(ctx, mustBoard(t, store, "trial"), "2026-11-20", 2000, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(page.Edges); i++ {
		a, b := page.Edges[i-1].Entry, page.Edges[i].Entry
		if a.Score > b.Score || a.Score == b.Score && *a.Subscore > *b.Subscore || b.Rank != i+1 {
			t.Fatalf("rank %d: %+v after %+v", i+1, b, a)
		}
	}
}

// After a seed, VacuumSeeded leaves the seeded tables vacuumed and
// analyzed, as autovacuum would have while the period filled, and the pool's
// connections with the requests' statement timeout.
func TestVacuumSeeded_VacuumsTheSeededTablesAndKeepsTheTimeouts(t *testing.T) {
	store := mustOpenDB(t, db.WithLimits(db.Limits{MaxConns: 2, StatementTimeout: 7 * time.Second}))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "trial", Name: "Trial", Reset: leaderboard.ResetDay,
		Order: new(leaderboard.OrderAsc), TieBreak: new(leaderboard.TieBreakSubscoreAsc), MinScore: new(0),
		MaxScore: new(2_000_000_000), TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	if _, err := store.SeedPeriod(ctx, "trial", "2026-11-20", 500, db.SeedOptions{RandomSeed: 3}); err != nil {
		t.Fatal(err)
	}
	const vacuumed = `SELECT relname FROM pg_stat_user_tables
		WHERE relname IN ('board_scores', 'period_rank_counts', 'players')
			AND last_vacuum IS NOT NULL AND last_analyze IS NOT NULL ORDER BY relname`
	if got := mustQuery(t, vacuumed); len(got) != 0 {
		t.Fatalf("tables vacuumed before VacuumSeeded: %v", got)
	}
	if err := store.VacuumSeeded(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(mustQuery(t, vacuumed)); got != "[[board_scores] [period_rank_counts] [players]]" {
		t.Fatalf("tables vacuumed and analyzed: %s", got)
	}
	timeouts, err := store.StatementTimeouts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(timeouts) != "[7s 7s]" {
		t.Fatalf("statement timeouts of the pool's connections: %v", timeouts)
	}
}
