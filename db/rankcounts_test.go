package db_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// assertRankCountsInStep checks that every period's rank counters hold what
// counting its rows afresh gives (db.FillRankCounts into emptied counters, in
// a transaction rolled back): no writer of board_scores left them behind.
func assertRankCountsInStep(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const counters = `SELECT period_id, level, bucket, sub, players FROM period_rank_counts WHERE players <> 0
		ORDER BY 1, 2, 3, 4`
	read := func(q pgx.Tx) []string {
		rows, err := q.Query(ctx, counters)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
			var (
				period, players int32
				level           int16
				bucket, sub     int64
			)
			err := row.Scan(&period, &level, &bucket, &sub, &players)
			return fmt.Sprintf("period %d level %d bucket %d sub %d: %d", period, level, bucket, sub, players), err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	kept := read(tx)
	var periods []int32
	if err := tx.QueryRow(ctx, `SELECT COALESCE(array_agg(id), '{}') FROM periods`).Scan(&periods); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM period_rank_counts`); err != nil {
		t.Fatal(err)
	}
	if err := db.FillRankCounts(ctx, tx, periods); err != nil {
		t.Fatal(err)
	}
	if fresh := read(tx); !slices.Equal(kept, fresh) {
		t.Fatalf("rank counters out of step with the rows: kept only %q; counted afresh only %q",
			missing(kept, fresh), missing(fresh, kept))
	}
	if len(kept) == 0 {
		t.Fatal("no counters at all: the check checked nothing")
	}
}

// missing returns the elements of a that b lacks.
func missing(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func TestRankCounts_EveryWriterKeepsThemInStep(t *testing.T) {
	ctx := context.Background()
	store := mustOpenDB(t)
	specs := []leaderboard.BoardSpec{
		{ID: "week", Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderDesc),
			MinScore: new(0), MaxScore: new(10_000), TieBreak: new(leaderboard.TieBreakNone)},
		{ID: "laps", Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderAsc),
			MinScore: new(0), MaxScore: new(2_000_000_000), TieBreak: new(leaderboard.TieBreakSubscoreAsc)},
		{ID: "wide", Reset: leaderboard.ResetNone, Order: new(leaderboard.OrderDesc),
			MinScore: new(-2_000_000_000), MaxScore: new(2_000_000_000), TieBreak: new(leaderboard.TieBreakNone)},
	}
	rng := rand.New(rand.NewPCG(37, 1))
	keys := map[string]string{}
	for _, s := range specs {
		s.Name, s.TimeZone, s.CloseGrace, s.StartsAt = s.ID, new("UTC"), new(600), utc(11, 1, 0)
		b := mustCreateBoard(t, store, s)
		key, _, err := b.PeriodOf(testNow)
		if err != nil {
			t.Fatal(err)
		}
		keys[b.ID] = key
		// Merged, concurrent calls: first events, raises, lowers and
		// unchanged totals, at instants across the period's hours.
		calls := make([][][]leaderboard.ScoreEvent, 4)
		for c := range calls {
			for range 5 {
				var events []leaderboard.ScoreEvent
				for range 20 {
					player := fmt.Sprintf("p%02d", rng.IntN(40))
					mode := []leaderboard.ScoreMode{leaderboard.ModeAdd, leaderboard.ModeSet, leaderboard.ModeBest}[rng.IntN(3)]
					value := rng.IntN(2000)
					if b.MaxScore > 100_000 && rng.IntN(2) == 0 {
						value = rng.IntN(b.MaxScore)
					}
					if mode != leaderboard.ModeAdd && b.MinScore < 0 && rng.IntN(2) == 0 {
						value = -value
					}
					e := boardEvent(b.ID, fmt.Sprintf("e%d-%d", c, rng.Uint64()), player, mode, value,
						new(testNow.Add(-time.Duration(rng.Int64N(int64(11*time.Hour))))))
					if b.TieBreak != leaderboard.TieBreakNone && rng.IntN(3) > 0 {
						e.Subscore = new(rng.IntN(50))
					}
					events = append(events, e)
				}
				calls[c] = append(calls[c], events)
			}
		}
		submitConcurrently(t, store, calls)
	}
	assertRankCountsInStep(t)

	// Corrections: a new total, a removal, a score given back.
	for id, key := range keys {
		for _, c := range []struct {
			player string
			score  *int
		}{{"p01", new(5)}, {"p02", nil}, {"p02", new(7)}, {"p03", new(5)}} {
			if _, err := store.CorrectScore(ctx, id, key, c.player, c.score, "audit"); err != nil {
				t.Fatalf("correct %s of %s: %v", c.player, id, err)
			}
		}
	}
	assertRankCountsInStep(t)

	// A clear, then a seed of the emptied period, then new events on top.
	if _, err := store.ClearPeriod(ctx, "week", keys["week"], "reset"); err != nil {
		t.Fatal(err)
	}
	assertRankCountsInStep(t)
	if _, err := store.SeedPeriod(ctx, "week", keys["week"], 500, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	mustSubmit(t, store, boardEvent("week", "late", "player-00000001", leaderboard.ModeAdd, 3, new(testNow.Add(-time.Minute))))
	assertRankCountsInStep(t)

	// The upgrade to the counters (migration 20) counts the rows there are
	// as the writers would have.
	store.Close()
	const beforeRankCounts = 19
	migrateDownTo(t, beforeRankCounts)
	migrateUp(t)
	assertRankCountsInStep(t)
}

// migrateDownTo migrates the test database down, one migration at a time,
// to version.
func migrateDownTo(t *testing.T, version uint) {
	t.Helper()
	for {
		at, _, err := db.SchemaVersion(pg.URL)
		if err != nil {
			t.Fatal(err)
		}
		if at == version {
			return
		}
		if _, dirty, err := db.Migrate(pg.URL, db.MigrateDownOne); err != nil || dirty {
			t.Fatalf("migrate down from %d: dirty %t, %v", at, dirty, err)
		}
	}
}

// migrateUp migrates the test database up to the newest version.
func migrateUp(t *testing.T) {
	t.Helper()
	if _, dirty, err := db.Migrate(pg.URL, db.MigrateUp); err != nil || dirty {
		t.Fatalf("migrate up: dirty %t, %v", dirty, err)
	}
}

// sparseTrial is a time trial's board of wide range (ASC, a subscore
// tie-break, 0..2,000,000,000) and the rows its players hold, for tests of
// what its counters keep.
type sparseTrial struct {
	t     *testing.T
	store *db.DB
	board *leaderboard.Board
	key   string
	rows  map[string]sparseRow
	n     int
}

type sparseRow struct {
	score, subscore int
	at              time.Time
}

func newSparseTrial(t *testing.T) *sparseTrial {
	store := mustOpenDB(t)
	b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "trial", Name: "trial", Reset: leaderboard.ResetDay,
		Order: new(leaderboard.OrderAsc), MinScore: new(0), MaxScore: new(2_000_000_000),
		TieBreak: new(leaderboard.TieBreakSubscoreAsc), TimeZone: new("UTC"), CloseGrace: new(600), StartsAt: utc(11, 1, 0)})
	key, _, err := b.PeriodOf(testNow)
	if err != nil {
		t.Fatal(err)
	}
	return &sparseTrial{t: t, store: store, board: b, key: key, rows: map[string]sparseRow{}}
}

// set returns the event that sets player's score and subscore, a minute
// after the one before.
func (s *sparseTrial) set(player string, score, subscore int) leaderboard.ScoreEvent {
	s.n++
	at := testNow.Add(-time.Duration(600-s.n) * time.Minute)
	s.rows[player] = sparseRow{score, subscore, at}
	e := boardEvent(s.board.ID, fmt.Sprintf("e%d", s.n), player, leaderboard.ModeSet, score, new(at))
	e.Subscore = new(subscore)
	return e
}

// correct corrects player's score to score, or removes the row (nil).
func (s *sparseTrial) correct(player string, score *int) {
	s.t.Helper()
	if _, err := s.store.CorrectScore(context.Background(), s.board.ID, s.key, player, score, "audit"); err != nil {
		s.t.Fatal(err)
	}
	if score == nil {
		delete(s.rows, player)
		return
	}
	s.rows[player] = sparseRow{*score, 0, testNow}
}

// reopen migrates the database down to version and up again, then opens
// the store afresh.
func (s *sparseTrial) reopen(version uint) {
	s.t.Helper()
	s.store.Close()
	migrateDownTo(s.t, version)
	migrateUp(s.t)
	store, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return testNow }))
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(store.Close)
	s.store = store
}

// check asserts that the counters are in step with the rows, that some
// counters of the levels the SQL condition levels names hold players or
// none as want says, and that every standing reads as a plain sort does.
func (s *sparseTrial) check(step, levels string, want bool) {
	s.t.Helper()
	assertRankCountsInStep(s.t)
	var counters int
	if err := mustConn(s.t).QueryRow(context.Background(),
		`SELECT count(*) FROM period_rank_counts WHERE `+levels+` AND players <> 0`).Scan(&counters); err != nil {
		s.t.Fatal(err)
	}
	if (counters > 0) != want {
		s.t.Fatalf("%s: %d counters where %s, want some: %t", step, counters, levels, want)
	}
	players := slices.Collect(maps.Keys(s.rows))
	slices.SortFunc(players, func(x, y string) int {
		a, c := s.rows[x], s.rows[y]
		return cmp.Or(cmp.Compare(a.score, c.score), cmp.Compare(a.subscore, c.subscore), a.at.Compare(c.at))
	})
	for i, player := range players {
		st, err := s.store.PeriodStanding(context.Background(), s.board, s.key, player, 0, 0)
		if err != nil || st == nil || st.Rank != i+1 || st.Total != len(players) {
			s.t.Fatalf("%s: standing of %s: %+v, %v; want rank %d of %d", step, player, st, err, i+1, len(players))
		}
	}
}

// On a board of wide range a score keeps its tie cells and subscore levels
// only while more than 32 players hold it: the cells are built when a write
// crowds the score, moved while it stays crowded, and deleted when it no
// longer is, and every rank reads the same as a plain sort on both sides.
func TestRankCounts_ASparseBoardCountsTiesOnlyWhileAScoreIsCrowded(t *testing.T) {
	s := newSparseTrial(t)
	const cells = "level < 0"

	// 30 players at one score, with a neighbour score either side.
	var first []leaderboard.ScoreEvent
	for i := range 30 {
		first = append(first, s.set(fmt.Sprintf("p%02d", i), 1000, i%7))
	}
	first = append(first, s.set("below", 999, 3), s.set("above", 1001, 3))
	mustSubmit(t, s.store, first...)
	s.check("30 at one score", cells, false)
	for i := 30; i < 32; i++ {
		mustSubmit(t, s.store, s.set(fmt.Sprintf("p%02d", i), 1000, i%7))
	}
	s.check("32 at one score", cells, false)
	mustSubmit(t, s.store, s.set("p32", 1000, 2))
	s.check("33 at one score: crowded", cells, true)
	mustSubmit(t, s.store, s.set("p05", 1000, 6), s.set("p40", 1000, 0))
	s.check("a row moved within the crowded score, another joined", cells, true)
	s.correct("p00", new(5000))
	s.correct("p01", nil)
	s.check("32 again after a correction and a removal", cells, false)
	var back []leaderboard.ScoreEvent
	for i := 41; i < 50; i++ {
		back = append(back, s.set(fmt.Sprintf("p%02d", i), 1000, i%3))
	}
	mustSubmit(t, s.store, back...)
	s.check("41 at one score, crowded in one call", cells, true)

	// Migration 33 down counts every score's cells again; up drops those of
	// the scores that are not crowded.
	s.store.Close()
	migrateDownTo(t, sparseScores-1)
	for level := -5; level <= -1; level++ {
		var counted int
		if err := mustConn(t).QueryRow(context.Background(), `SELECT COALESCE(sum(players), 0) FROM period_rank_counts WHERE level = $1`,
			level).Scan(&counted); err != nil {
			t.Fatal(err)
		}
		if counted != len(s.rows) {
			t.Fatalf("after migration 33 down, level %d counts %d players, want all %d", level, counted, len(s.rows))
		}
	}
	s.reopen(sparseScores - 1)
	s.check("after migration 33 down and up", cells, true)
}

// On a board of wide range a level-8 bucket (256 scores) keeps the level-0
// counters of its scores only while more than 32 players are in it: they
// are built when a write crowds the bucket, moved while it stays crowded,
// and deleted when it no longer is, and every rank reads the same as a
// plain sort on both sides.
func TestRankCounts_ASparseBoardCountsScoresOnlyWhileABucketIsCrowded(t *testing.T) {
	s := newSparseTrial(t)
	const zeros = "level = 0"

	// 31 players at distinct scores of one bucket (768..1023), one in the
	// next bucket and one at the bucket's first score.
	var first []leaderboard.ScoreEvent
	for i := range 30 {
		first = append(first, s.set(fmt.Sprintf("p%02d", i), 800+3*i, i%5))
	}
	first = append(first, s.set("next", 1024, 1), s.set("edge", 768, 9))
	mustSubmit(t, s.store, first...)
	s.check("31 in a bucket", zeros, false)
	mustSubmit(t, s.store, s.set("p30", 990, 4))
	s.check("32 in a bucket", zeros, false)
	mustSubmit(t, s.store, s.set("p31", 800, 2))
	s.check("33 in a bucket: crowded", zeros, true)
	mustSubmit(t, s.store, s.set("p05", 1023, 0), s.set("p06", 768, 0), s.set("p40", 801, 3))
	s.check("rows moved within the crowded bucket, another joined", zeros, true)
	s.correct("p00", new(5000))
	s.correct("p01", nil)
	s.check("32 again after a correction and a removal", zeros, false)
	mustSubmit(t, s.store, s.set("next", 900, 1))
	s.check("33 again as a row moved in from the next bucket", zeros, true)
	mustSubmit(t, s.store, s.set("next", 1100, 1))
	s.check("32 again as it moved back", zeros, false)
	var back []leaderboard.ScoreEvent
	for i := 41; i < 60; i++ {
		back = append(back, s.set(fmt.Sprintf("p%02d", i), 900+i%4, i%3))
	}
	mustSubmit(t, s.store, back...)
	s.check("51 in the bucket, crowded in one call", zeros, true)

	// Migration 34 down counts every score again; up drops those of the
	// buckets that are not crowded.
	mustSubmit(t, s.store, s.set("far", 1_000_000, 0))
	s.store.Close()
	migrateDownTo(t, sparseBuckets-1)
	var counted int
	if err := mustConn(t).QueryRow(context.Background(), `SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE level = 0 AND bucket >= 1000000`).Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if counted != 1 {
		t.Fatalf("after migration 34 down, level 0 counts %d players at the lone score, want 1", counted)
	}
	s.reopen(sparseBuckets - 1)
	s.check("after migration 34 down and up", "level = 0 AND bucket >= 1000000", false)
	s.check("after migration 34 down and up", zeros, true)
}

// sparseScores is the migration that keeps the tie cells and subscore
// levels of a wide board's crowded scores only.
const sparseScores = 33

// sparseBuckets is the migration that keeps the level-0 counters of a wide
// board's crowded buckets only.
const sparseBuckets = 34
