package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The erasure suite (issue 38, target 3): erasePlayer of a player present
// in ErasureClosed closed periods (the days of one DAY board) and in the
// open periods of ErasureOpen other DAY boards, ErasurePlayers players in
// each, while ErasureReaders clients read standings of those periods.

// ErasureResult is what the erasure suite measured.
type ErasureResult struct {
	// Players are in every period: the seeded players 1..Players.
	Players int
	// Board holds the closed periods, the days before today; OpenBoards
	// boards have today's period open.
	Board                     string
	ClosedPeriods, OpenBoards int
	// Seed is the SQL setup of the periods; Close their closes.
	Seed, Close time.Duration
	// Held is how many closed periods the service held in memory before
	// the erasures.
	Held    int
	Readers int
	// Baseline are the readers' reads without an erasure.
	Baseline *Measurement
	// Runs are the erasures, one of a fresh player each.
	Runs []ErasureRun
}

// ErasureRun is one erasePlayer with the reads meanwhile.
type ErasureRun struct {
	Player string
	// Wall is from the call to its answer or, when the request's deadline
	// came first (UNAVAILABLE: the erasure goes on in the service; Polled),
	// to when polling first saw its audit rows DONE.
	Wall   time.Duration
	Polled bool
	// Held and Closed are the periods (of every board, main's months
	// too) that held the player before, and the CLOSED ones among them;
	// Periods and Corrected the audit rows' counts; Left the player's
	// score rows still found after it.
	Held, Closed, Periods, Corrected, Left int
	// Reads are the standings read while it ran.
	Reads RunStats
}

// erasureReason is the reason the suite gives erasePlayer.
const erasureReason = "benchmark"

// erasureWait bounds one erasure, polled after its request's deadline.
const erasureWait = 15 * time.Minute

// erasePlayerMutation erases one player.
const erasePlayerMutation = `mutation Erase($player: ID!, $reason: String!) {
  erasePlayer(playerId: $player, reason: $reason) { periods correctedPeriods }
}`

// erasure runs the erasure suite.
func (r *runner) erasure(ctx context.Context) error {
	if r.cfg.ErasurePlayers <= r.cfg.Repeat {
		return fmt.Errorf("the erasure suite erases %d players of --erasure-players %d: it needs more to read", r.cfg.Repeat, r.cfg.ErasurePlayers)
	}
	e := &ErasureResult{Players: r.cfg.ErasurePlayers, ClosedPeriods: r.cfg.ErasureClosed, OpenBoards: r.cfg.ErasureOpen,
		Readers: r.cfg.ErasureReaders}
	r.report.Erasure = e
	base := boardPrefix(r.report.Started, "er")
	e.Board = boardID(base+"c", 0)
	keys, err := r.seedErasure(ctx, e, base)
	if err != nil {
		return err
	}
	if err := r.closeErasure(ctx, e, keys); err != nil {
		return err
	}
	if err := r.settle(ctx); err != nil {
		return err
	}
	e.Held = r.holdErasure(ctx, e, keys)
	// Players 1..Repeat are erased, one a run; the readers read the others.
	readable := make([]string, 0, e.Players-r.cfg.Repeat)
	for i := r.cfg.Repeat + 1; i <= e.Players; i++ {
		readable = append(readable, db.SeedPlayerID(i))
	}
	reads := r.erasureReads(e, base, keys, OneOf(readable))
	if e.Baseline, err = r.measureBoards(ctx, "standing of those periods, no erasure", e.Readers, 1, "req/s", reads); err != nil {
		return err
	}
	for i := range r.cfg.Repeat {
		run, err := r.eraseWhileReading(ctx, db.SeedPlayerID(i+1), reads, e.Readers)
		e.Runs = append(e.Runs, run)
		if err != nil {
			return err
		}
		r.log.Info("erased", "player", run.Player, "took", run.Wall, "polled", run.Polled, "periods", run.Periods,
			"corrected", run.Corrected, "reads", run.Reads.Ops, "p99", run.Reads.P99, "errors", run.Reads.Errors)
		if !run.complete() {
			r.fail("erasePlayer of %s: %d periods, %d corrected, %d score rows left; want %d, %d, 0",
				run.Player, run.Periods, run.Corrected, run.Left, run.Held, run.Closed)
		}
		if run.Reads.Errors > 0 {
			r.fail("reads during erasePlayer of %s: %d errors, first: %s", run.Player, run.Reads.Errors, run.Reads.FirstError)
		}
	}
	return nil
}

// seedErasure inserts, in one transaction, the suite's boards: board
// base+"c" with the ClosedPeriods days before today OPEN, and ErasureOpen
// boards base+"o" with today's; each period with every one of the players
// 1..Players, a score row and the SET event that made it, as their events
// would leave them. It returns the closed board's period keys, oldest
// first.
func (r *runner) seedErasure(ctx context.Context, e *ErasureResult, base string) ([]string, error) {
	took := r.step(fmt.Sprintf("insert %d DAY periods of one board and today's of %d boards, %s players in each (SQL)",
		e.ClosedPeriods, e.OpenBoards, thousands(float64(e.Players))))
	start := time.Now()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	first := today.AddDate(0, 0, -e.ClosedPeriods)
	if _, err := seedBoards(ctx, r, base+"c", 1, 0, first, 0); err != nil {
		return nil, err
	}
	if _, err := seedBoards(ctx, r, base+"o", e.OpenBoards, 0, today, 0); err != nil {
		return nil, err
	}
	err := pgxBeginFunc(ctx, r, func(exec func(q string, args ...any) error, fillRankCounts func(prefix string) error) error {
		const players = `INSERT INTO players (id, name) SELECT 'player-' || lpad(g::text, 8, '0'), 'Bench' || g
			FROM generate_series(1, $1) AS g ON CONFLICT (id) DO NOTHING`
		if err := exec(players, e.Players); err != nil {
			return fmt.Errorf("insert the players: %w", err)
		}
		const periods = `INSERT INTO periods (board_id, key, starts_at, ends_at)
			SELECT $1, to_char(d.day, 'YYYY-MM-DD'), d.day::timestamp AT TIME ZONE 'UTC', (d.day + 1)::timestamp AT TIME ZONE 'UTC'
			FROM (SELECT $2::date + g AS day FROM generate_series(0, $3 - 1) AS g) d
			UNION ALL
			SELECT id, $4::date::text, $4::date::timestamp AT TIME ZONE 'UTC', ($4::date + 1)::timestamp AT TIME ZONE 'UTC'
			FROM boards WHERE starts_with(id, $5)`
		if err := exec(periods, e.Board, first.Format(time.DateOnly), e.ClosedPeriods, today.Format(time.DateOnly), base+"o"); err != nil {
			return fmt.Errorf("insert the periods: %w", err)
		}
		const scores = `INSERT INTO board_scores (period_id, player_id, score, sort_score, sort_subscore, reached_at, seq)
			SELECT p.id, 'player-' || lpad(j::text, 8, '0'), s.score, -s.score, 0,
				LEAST(p.starts_at + make_interval(secs => (j * 797 + p.id) % 86000), now()), nextval('score_seq')
			FROM periods p CROSS JOIN generate_series(1, $2) AS j
			CROSS JOIN LATERAL (SELECT (p.id * 7919 + j * 104729) % 1001 AS score) s
			WHERE starts_with(p.board_id, $1)`
		if err := exec(scores, base, e.Players); err != nil {
			return fmt.Errorf("insert the scores: %w", err)
		}
		const events = `INSERT INTO board_score_events (board_id, event_id, period_id, player_id, mode, value,
				occurred_at, received_at, status, new_score)
			SELECT p.board_id, p.key || '-' || s.player_id, p.id, s.player_id, 'SET', s.score, s.reached_at, s.reached_at,
				'APPLIED', s.score
			FROM periods p JOIN board_scores s ON s.period_id = p.id WHERE starts_with(p.board_id, $1)`
		if err := exec(events, base); err != nil {
			return fmt.Errorf("insert the events: %w", err)
		}
		if err := fillRankCounts(base); err != nil {
			return fmt.Errorf("count the scores: %w", err)
		}
		return exec(`ANALYZE players, periods, board_scores, board_score_events`)
	})
	if err != nil {
		return nil, err
	}
	e.Seed = time.Since(start)
	took()
	keys := make([]string, e.ClosedPeriods)
	for i := range keys {
		keys[i] = first.AddDate(0, 0, i).Format(time.DateOnly)
	}
	return keys, nil
}

// closeErasure closes the closed board's periods through the service's
// ClosePeriod, two at a time, as its scheduler closes due periods.
func (r *runner) closeErasure(ctx context.Context, e *ErasureResult, keys []string) error {
	took := r.step(fmt.Sprintf("close the %d days of %s (db.ClosePeriod, 2 at a time)", len(keys), e.Board))
	start := time.Now()
	stats := Each(ctx, len(keys), 2, func(ctx context.Context, _, item int) error {
		p, err := r.service.DB.ClosePeriod(ctx, e.Board, keys[item])
		if err == nil && (p.Status != leaderboard.PeriodClosed || p.Participants != e.Players) {
			err = fmt.Errorf("period %s: %s with %d participants", keys[item], p.Status, p.Participants)
		}
		return err
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if stats.Errors > 0 {
		return fmt.Errorf("close the erasure's periods: %d errors, first: %s", stats.Errors, stats.FirstError)
	}
	e.Close = time.Since(start)
	took()
	return nil
}

// holdErasure reads each closed period until the service holds it in
// memory, as players reading them would have it, for up to snapshotWait,
// and returns how many it holds.
func (r *runner) holdErasure(ctx context.Context, e *ErasureResult, keys []string) int {
	cp := r.service.ClosedPeriods
	if cp == nil {
		return 0
	}
	took := r.step(fmt.Sprintf("read the %d closed periods until the service holds them in memory", len(keys)))
	defer took()
	deadline := time.Now().Add(snapshotWait)
	for {
		var cold []string
		for _, k := range keys {
			if !cp.PeriodLoaded(e.Board, k) {
				cold = append(cold, k)
			}
		}
		if len(cold) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return len(keys) - len(cold)
		}
		Each(ctx, len(cold), 2, func(ctx context.Context, client, item int) error {
			return HTTPBoardStanding(r.gql, e.Board, cold[item], leaderboard.OrderDesc, AnySeeded(e.Players), ExpectFinal)(0, client)(ctx)
		})
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// erasureReads reads the standing of a player drawn by pick in a period
// drawn at random among the closed board's days keys and the open boards'
// current periods, and checks it.
func (r *runner) erasureReads(e *ErasureResult, base string, keys []string, pick Picker) Workload {
	return func(run, client int) Op {
		ops := make([]Op, 0, len(keys)+e.OpenBoards)
		for _, k := range keys {
			ops = append(ops, HTTPBoardStanding(r.gql, e.Board, k, leaderboard.OrderDesc, pick, ExpectFinal)(run, client))
		}
		for i := range e.OpenBoards {
			ops = append(ops, HTTPBoardStanding(r.gql, boardID(base+"o", i), "", leaderboard.OrderDesc, pick, ExpectLive)(run, client))
		}
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 40))
		return func(ctx context.Context) error { return ops[rng.IntN(len(ops))](ctx) }
	}
}

// eraseWhileReading erases player through erasePlayer with the admin
// token while readers clients read, after Warmup of reads, and counts
// what the erasure's audit rows say it erased.
func (r *runner) eraseWhileReading(ctx context.Context, player string, reads Workload, readers int) (ErasureRun, error) {
	run := ErasureRun{Player: player}
	var before int64
	if err := r.pool.QueryRow(ctx, `SELECT COALESCE(max(id), 0) FROM erasures`).Scan(&before); err != nil {
		return run, fmt.Errorf("read the erasures: %w", err)
	}
	// Other suites of the run may have seeded the player into main's months
	// or other boards (all in board_scores): the erasure must take them out
	// of those too.
	const held = `SELECT count(*), count(*) FILTER (WHERE p.status = 'CLOSED')
			FROM board_scores s JOIN periods p ON p.id = s.period_id WHERE s.player_id = $1`
	if err := r.pool.QueryRow(ctx, held, player).Scan(&run.Held, &run.Closed); err != nil {
		return run, fmt.Errorf("count the periods of %s: %w", player, err)
	}
	r.runs++
	number := r.runs
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	readersDone := make(chan RunStats, 1)
	go func() {
		// A read in flight when they stop is let finish.
		load := Load{Clients: readers, Warmup: r.cfg.Warmup, Duration: 24 * time.Hour}
		readersDone <- load.Run(readCtx, func(client int) Op {
			op := reads(number, client)
			return func(ctx context.Context) error { return op(context.WithoutCancel(ctx)) }
		})
	}()
	select {
	case <-ctx.Done():
		return run, ctx.Err()
	case <-time.After(r.cfg.Warmup):
	}
	start := time.Now()
	err := r.gql.Do(ctx, r.adminToken, erasePlayerMutation, map[string]any{"player": player, "reason": erasureReason}, nil)
	end := time.Now()
	if err != nil && ctx.Err() == nil && strings.Contains(err.Error(), "UNAVAILABLE") {
		// The request's deadline came first: the erasure goes on.
		run.Polled = true
		end, err = r.awaitErased(ctx, before)
	}
	run.Wall = end.Sub(start)
	stopReading()
	run.Reads = <-readersDone
	if err != nil {
		return run, fmt.Errorf("erasePlayer %s: %w", player, err)
	}
	const counts = `SELECT COALESCE(sum(periods), 0), COALESCE(sum(corrected_periods), 0) FROM erasures WHERE id > $1`
	if err := r.pool.QueryRow(ctx, counts, before).Scan(&run.Periods, &run.Corrected); err != nil {
		return run, fmt.Errorf("count the erasure of %s: %w", player, err)
	}
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM board_scores WHERE player_id = $1`, player).Scan(&run.Left); err != nil {
		return run, fmt.Errorf("look for %s after the erasure: %w", player, err)
	}
	return run, nil
}

// awaitErased polls the erasures recorded after audit row before until
// there is one and none is RUNNING, for up to erasureWait, and returns
// when it first saw them so.
func (r *runner) awaitErased(ctx context.Context, before int64) (time.Time, error) {
	const q = `SELECT count(*), count(*) FILTER (WHERE status = 'RUNNING') FROM erasures WHERE id > $1`
	deadline := time.Now().Add(erasureWait)
	for {
		var all, running int
		if err := r.pool.QueryRow(ctx, q, before).Scan(&all, &running); err != nil {
			return time.Time{}, fmt.Errorf("poll the erasure: %w", err)
		}
		if all > 0 && running == 0 {
			return time.Now(), nil
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("the erasure did not finish within %s", erasureWait)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}
