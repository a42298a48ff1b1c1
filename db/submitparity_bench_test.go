package db_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/bench"
	"github.com/gamebackend/leaderboard/internal/eventmix"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// The load of BenchmarkSubmitParity: main's issue-9 target's batches and
// callers, over a period seeded as the bench seeds a month.
const (
	parityPlayers = 1_000_000
	parityBatch   = 100
	parityClients = 8
	parityRounds  = 7
	parityRound   = 10 * time.Second
	parityPrime   = 5 * time.Second
	parityBoard   = "month-desc"
)

// paritySide is one of the two paths BenchmarkSubmitParity compares: the
// events it submits go to board ("" for main), their ids start with prefix
// and are stored in table.
type paritySide struct {
	name, board, prefix, table string
	// rates holds each round's events/s; work each round's statements'
	// cost per event.
	rates        []float64
	work         []parityWork
	acknowledged atomic.Int64
	// statements sums, over the measured rounds, each statement's
	// execution ms and calls; events the events of those rounds.
	statements map[string]*statementTime
	events     int64
}

// statementTime is a statement's execution ms and calls.
type statementTime struct {
	ms    float64
	calls int64
}

// parityWork is what a round's statements cost PostgreSQL per event, from
// pg_stat_statements: less noisy on a shared machine than the rate.
type parityWork struct {
	execMs, buffers, walBytes, statements float64
}

// BenchmarkSubmitParity compares main's submit path with the boards' path
// (boardsubmit.go) for a board with main's rules: MONTH, DESC, 0..10000, no
// tie-break. Main's November and the board's are seeded with the same
// million players (SeedPeriod, same RandomSeed); then, in rounds that
// alternate which goes first, 8 callers submit batches of 100 events of the
// bench's mix (eventmix: ADD, BEST and SET for random seeded players, a
// tenth first events of new players) for parityRound each. The database
// is a container of its own with the bench's settings (bench.Tuning:
// shared_buffers a quarter of the memory, at most 4 GB, commits flushed),
// not the tests' small one. It reports the medians of the rounds' events/s
// and their ratio, and of the work per event (execution time, shared
// buffers touched, WAL bytes, statements) of each side, logs every round,
// and fails if an acknowledged event was not stored or an event was
// refused. Run with
// go test -run '^$' -bench SubmitParity -benchtime 1x -timeout 30m ./db/
func BenchmarkSubmitParity(b *testing.B) {
	p := startTunedPostgres(b)
	// A machine shared with other benchmarks can hold a batch's row locks
	// past the requests' 3 s lock timeout: this measures throughput, so a
	// wait that long is slow, not a failure.
	store := p.OpenDB(b, db.WithClock(func() time.Time { return testNow }), db.WithLimits(db.Limits{LockTimeout: time.Minute}))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE EXTENSION pg_stat_statements`); err != nil {
		b.Fatal(err)
	}
	mustCreateBoard(b, store, leaderboard.BoardSpec{ID: parityBoard, Name: parityBoard, Reset: leaderboard.ResetMonth,
		TimeZone: new("UTC"), StartsAt: new(november.Start(time.UTC))})
	for _, board := range []string{leaderboard.MainBoard, parityBoard} {
		if _, err := store.SeedPeriod(ctx, board, november.String(), parityPlayers, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	// Main's seed builds its indexes after the rows, each in one sort; a
	// board's seed inserts its rows into board_scores' indexes one by one.
	// Rebuilt, and both tables vacuumed, the two sides start from the same
	// layout: what differs then is the path, not the seed.
	for _, q := range []string{`REINDEX TABLE board_scores`, `VACUUM (ANALYZE) scores, board_scores`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	noAdd := parityNoAdd(b, conn)
	sides := []*paritySide{
		{name: "main", prefix: "parity-main-", table: "score_events"},
		{name: "board", board: parityBoard, prefix: "parity-board-", table: "board_score_events"},
	}
	// The seeds write no events: prime both paths, then analyze what they
	// write, as the bench's submits suite does. The priming events count
	// in neither side's figures.
	for _, s := range sides {
		runParity(b, store, s, "prime", parityRounds, noAdd, parityPrime)
	}
	if _, err := conn.Exec(ctx, `ANALYZE score_events, board_score_events, players, period_rank_counts`); err != nil {
		b.Fatal(err)
	}
	for _, s := range sides {
		s.acknowledged.Store(0)
	}
	b.ResetTimer()
	for round := range parityRounds {
		order := sides
		if round%2 == 1 {
			order = []*paritySide{sides[1], sides[0]}
		}
		for _, s := range order {
			resetStatements(b, conn)
			rate, events := runParity(b, store, s, fmt.Sprintf("r%d", round), round, noAdd, parityRound)
			s.rates, s.work = append(s.rates, rate), append(s.work, readWork(b, conn, events))
			s.addStatements(b, conn, events)
		}
		b.Logf("round %d (%s first): main %.0f, board %.0f events/s", round, order[0].name, sides[0].rates[round],
			sides[1].rates[round])
	}
	b.StopTimer()
	for _, s := range sides {
		checkParityStored(b, conn, s)
		w := s.medianWork()
		b.ReportMetric(median(s.rates), s.name+"-events/s")
		b.ReportMetric(w.execMs*1000, s.name+"-exec-µs/event")
		b.ReportMetric(w.buffers, s.name+"-buffers/event")
		b.ReportMetric(w.walBytes, s.name+"-WAL-B/event")
		b.Logf("%s: median %.0f events/s, range %.0f..%.0f; per event %.1f µs executing, %.1f buffers, %.0f WAL bytes, "+
			"%.3f statements", s.name, median(s.rates), slices.Min(s.rates), slices.Max(s.rates), w.execMs*1000,
			w.buffers, w.walBytes, w.statements)
		s.logStatements(b)
	}
	b.ReportMetric(median(sides[1].rates)/median(sides[0].rates), "board/main")
}

// medianWork returns the median of each of s's work figures.
func (s *paritySide) medianWork() parityWork {
	of := func(f func(parityWork) float64) float64 {
		xs := make([]float64, len(s.work))
		for i, w := range s.work {
			xs[i] = f(w)
		}
		return median(xs)
	}
	return parityWork{execMs: of(func(w parityWork) float64 { return w.execMs }),
		buffers:    of(func(w parityWork) float64 { return w.buffers }),
		walBytes:   of(func(w parityWork) float64 { return w.walBytes }),
		statements: of(func(w parityWork) float64 { return w.statements })}
}

// addStatements adds the statements' times since resetStatements, but
// the benchmark's own, to s's, and events to its events.
func (s *paritySide) addStatements(b *testing.B, conn *pgx.Conn, events int64) {
	b.Helper()
	const q = `SELECT left(regexp_replace(query, '\s+', ' ', 'g'), 60), total_exec_time, calls
		FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'`
	if s.statements == nil {
		s.statements = map[string]*statementTime{}
	}
	rows, _ := conn.Query(context.Background(), q)
	var (
		text  string
		ms    float64
		calls int64
	)
	_, err := pgx.ForEachRow(rows, []any{&text, &ms, &calls}, func() error {
		t := s.statements[text]
		if t == nil {
			t = &statementTime{}
			s.statements[text] = t
		}
		t.ms, t.calls = t.ms+ms, t.calls+calls
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	s.events += events
}

// logStatements logs s's statements that took the most time, in µs per
// event of the measured rounds.
func (s *paritySide) logStatements(b *testing.B) {
	b.Helper()
	texts := slices.SortedFunc(maps.Keys(s.statements), func(x, y string) int {
		return cmp.Compare(s.statements[y].ms, s.statements[x].ms)
	})
	for _, text := range texts[:min(8, len(texts))] {
		t := s.statements[text]
		b.Logf("  %s %6.1f µs/event, %5.2f ms a call: %s", s.name, t.ms*1000/float64(s.events), t.ms/float64(t.calls), text)
	}
}

// resetStatements empties pg_stat_statements.
func resetStatements(b *testing.B, conn *pgx.Conn) {
	b.Helper()
	if _, err := conn.Exec(context.Background(), `SELECT pg_stat_statements_reset()`); err != nil {
		b.Fatal(err)
	}
}

// readWork returns the work of the statements run since resetStatements,
// but the benchmark's own, per event of events.
func readWork(b *testing.B, conn *pgx.Conn, events int64) parityWork {
	b.Helper()
	const q = `SELECT sum(total_exec_time), sum(shared_blks_hit + shared_blks_read), sum(wal_bytes), sum(calls)
		FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'`
	var w parityWork
	if err := conn.QueryRow(context.Background(), q).Scan(&w.execMs, &w.buffers, &w.walBytes, &w.statements); err != nil {
		b.Fatal(err)
	}
	n := float64(events)
	return parityWork{execMs: w.execMs / n, buffers: w.buffers / n, walBytes: w.walBytes / n, statements: w.statements / n}
}

// startTunedPostgres starts a database of the benchmark's own, tuned as
// the bench tunes its PostgreSQL on this machine, with pg_stat_statements
// loaded, and returns it migrated.
func startTunedPostgres(b *testing.B) *pgtest.Postgres {
	b.Helper()
	p := pgtest.StartStoppable(b)
	settings := append(bench.Tuning(bench.ReadMachine().RAM), bench.Setting{Name: "shared_preload_libraries",
		Value: "pg_stat_statements"})
	if err := bench.AlterSystem(context.Background(), p.URL, settings); err != nil {
		b.Fatal(err)
	}
	// shared_buffers changes only at a start.
	p.Stop(b)
	p.Resume(b)
	return p
}

// parityNoAdd returns the seeded players whose score an ADD of the mix
// could push past 10000: the same on both sides, seeded alike.
func parityNoAdd(b *testing.B, conn *pgx.Conn) map[string]bool {
	b.Helper()
	rows, _ := conn.Query(context.Background(), `SELECT player_id FROM scores WHERE month = $1 AND score > $2`,
		november.Date(), eventmix.MaxScoreForAdd)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	noAdd := make(map[string]bool, len(ids))
	for _, id := range ids {
		noAdd[id] = true
	}
	return noAdd
}

// runParity has parityClients callers submit batches of side s for d, and
// returns the events acknowledged per second, and how many. Both sides draw the same
// events in a round: their random choices follow the round and the caller.
func runParity(b *testing.B, store *db.DB, s *paritySide, run string, round int, noAdd map[string]bool,
	d time.Duration) (float64, int64) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	var (
		events atomic.Int64
		wg     sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for client := range parityClients {
		source := eventmix.New(fmt.Sprintf("%s%s-%d-", s.prefix, run, client), uint64(round)<<32|uint64(client), parityPlayers, noAdd)
		wg.Go(func() {
			for time.Now().Before(deadline) {
				batch := source.Batch(parityBatch)
				for i := range batch {
					batch[i].Board = s.board
				}
				results, err := store.SubmitScores(ctx, batch)
				if err != nil {
					b.Errorf("%s: %v", s.name, err)
					return
				}
				for _, r := range results {
					if r.Status != leaderboard.StatusApplied && r.Status != leaderboard.StatusUnchanged {
						b.Errorf("%s: event %s: %s", s.name, r.EventID, r.Status)
						return
					}
				}
				events.Add(int64(len(results)))
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	s.acknowledged.Add(events.Load())
	return float64(events.Load()) / time.Since(start).Seconds(), events.Load()
}

// checkParityStored fails unless every event of s acknowledged in the
// measured rounds is stored.
func checkParityStored(b *testing.B, conn *pgx.Conn, s *paritySide) {
	b.Helper()
	q := fmt.Sprintf(`SELECT count(*) FROM %s WHERE starts_with(event_id, $1) AND NOT starts_with(event_id, $2)`,
		pgx.Identifier{s.table}.Sanitize())
	var stored int64
	if err := conn.QueryRow(context.Background(), q, s.prefix, s.prefix+"prime").Scan(&stored); err != nil {
		b.Fatal(err)
	}
	if stored != s.acknowledged.Load() {
		b.Errorf("%s: %d events acknowledged, %d stored", s.name, s.acknowledged.Load(), stored)
	}
}

// median returns the median of xs.
func median(xs []float64) float64 {
	sorted := slices.Sorted(slices.Values(xs))
	n := len(sorted)
	if n%2 == 0 {
		return (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return sorted[n/2]
}
