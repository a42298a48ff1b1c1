package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/eventmix"
)

// reads measures standings over HTTP, closed month then open, then the
// process's memory, then the database's share alone.
func (r *runner) reads(ctx context.Context) error {
	took := r.step("sample players at the top, middle, bottom and in the tie group")
	positions, err := SamplePositions(ctx, r.pool, r.open, r.cfg.Players)
	if err != nil {
		return err
	}
	took()
	anyone := AnySeeded(r.cfg.Players)
	cases := []struct {
		kase     string
		month    leaderboard.Month
		finality Finality
		pick     Picker
	}{
		{CaseClosed, r.closed, ExpectFinal, anyone},
		{CaseOpen, r.open, ExpectLive, anyone},
		{CaseOpenTop, r.open, ExpectLive, OneOf(positions.Top)},
		{CaseOpenMiddle, r.open, ExpectLive, OneOf(positions.Middle)},
		{CaseOpenBottom, r.open, ExpectLive, OneOf(positions.Bottom)},
		{CaseOpenTieGroup, r.open, ExpectLive, OneOf(positions.Tie)},
	}
	for _, c := range cases {
		for _, clients := range r.cfg.ReadClients {
			w := HTTPStanding(r.gql, c.month, c.pick, c.finality)
			if err := r.measure(ctx, SystemHTTP, c.kase, clients, 1, "req/s", w); err != nil {
				return err
			}
		}
	}
	if r.report.RSS, r.report.PeakRSS, err = ResidentMemory(); err != nil {
		return err
	}
	r.log.Info("resident memory after the reads", "rss_mib", r.report.RSS>>20, "peak_mib", r.report.PeakRSS>>20)

	// The database's share alone: for the closed month also at one client,
	// its latency without queueing.
	for _, c := range []struct {
		kase    string
		month   leaderboard.Month
		clients int
		pick    Picker
	}{
		{CaseClosed, r.closed, 1, anyone},
		{CaseClosed, r.closed, targetDBOnlyClients, anyone},
		{CaseOpen, r.open, targetDBOnlyClients, anyone},
		{CaseOpenTieGroup, r.open, targetDBOnlyClients, OneOf(positions.Tie)},
	} {
		if err := r.measure(ctx, SystemDB, c.kase, c.clients, 1, "req/s", DBStanding(r.service.DB, c.month, c.pick)); err != nil {
			return err
		}
	}
	return nil
}

// submits measures submitScores and checks that every acknowledged event
// was stored.
func (r *runner) submits(ctx context.Context) error {
	noAdd, err := PlayersAbove(ctx, r.pool, r.open, eventmix.MaxScoreForAdd)
	if err != nil {
		return err
	}
	prefix := eventPrefix(r.report.Started)
	var ack Acknowledged
	workload := HTTPSubmit(r.gql, r.serverToken, prefix, r.cfg.BatchSize, r.cfg.Players, noAdd, &ack)
	if err := r.primeSubmits(ctx, workload); err != nil {
		return err
	}
	for _, clients := range r.cfg.SubmitClients {
		if err := r.measure(ctx, SystemHTTP, CaseSubmit, clients, r.cfg.BatchSize, "events/s", workload); err != nil {
			return err
		}
	}
	r.report.Applied, r.report.Unchanged = ack.Applied.Load(), ack.Unchanged.Load()
	if r.report.Stored, err = StoredEvents(ctx, r.pool, prefix); err != nil {
		return err
	}
	if r.report.Stored != ack.Total() {
		r.fail("submitScores: %d events acknowledged, %d stored", ack.Total(), r.report.Stored)
	}
	r.log.Info("events checked", "acknowledged", ack.Total(), "stored", r.report.Stored)
	return nil
}

// primeDuration is how long submissions run, unmeasured, before the
// tables they write are analyzed.
const primeDuration = 5 * time.Second

// primeSubmits sends submissions, unmeasured, then analyzes the tables
// they write. The seed writes no board_score_events, and a statement that the
// service's connections prepared while that table was nearly empty keeps a
// plan made for an empty table (a sequential scan) until autoanalyze comes
// by, after a minute or so, while the table grows by thousands of rows a
// second. A service in production has long had its statistics.
func (r *runner) primeSubmits(ctx context.Context, workload Workload) error {
	took := r.step("prime submitScores (unmeasured), then ANALYZE the tables it writes")
	r.runs++
	run := r.runs
	load := Load{Clients: slices.Max(r.cfg.SubmitClients), Duration: primeDuration}
	stats := load.Run(ctx, func(client int) Op { return workload(run, client) })
	if err := ctx.Err(); err != nil {
		return err
	}
	if stats.Errors > 0 {
		r.fail("priming submitScores: %d errors, first: %s", stats.Errors, stats.FirstError)
	}
	const q = `ANALYZE board_score_events, board_scores, players, period_rank_counts`
	if _, err := r.pool.Exec(ctx, q); err != nil {
		return fmt.Errorf("analyze after priming: %w", err)
	}
	took()
	return nil
}

// redis measures the Redis design on the closed month's final ranks.
func (r *runner) redis(ctx context.Context) (err error) {
	server, err := StartRedis(ctx, filepath.Join(r.cfg.Dir, "redis"), r.log)
	if err != nil {
		return err
	}
	defer func() {
		if stopErr := server.Stop(); stopErr != nil && err == nil {
			err = stopErr
		}
	}()
	r.report.Machine.Redis = server.Version
	r.meter.Redis = server.PID()
	defer func() { r.meter.Redis = 0 }()
	maxClients := slices.Max(r.cfg.ReadClients)
	client := redis.NewClient(&redis.Options{Addr: server.Addr, PoolSize: 2 * maxClients, PipelinePoolSize: -1})
	defer client.Close()

	took := r.step(fmt.Sprintf("load %s into a Redis sorted set and a hash of names (pipelines)", r.closed))
	set, err := LoadSortedSet(ctx, r.pool, client, r.closed, eventTimeZone)
	if err != nil {
		return err
	}
	took()
	if r.report.RedisUsed, r.report.RedisRSS, err = server.Memory(ctx); err != nil {
		return err
	}
	for _, clients := range r.cfg.ReadClients {
		if err := r.measure(ctx, SystemRedis, CaseClosed, clients, 1, "req/s", set.RedisStanding(AnySeeded(r.cfg.Players))); err != nil {
			return err
		}
	}
	return nil
}

// afterClose measures standings reads right after a close, Repeat times:
// each run seeds a month of its own (the months before the closed one, so
// that the other measurements are untouched), and closes it while the most
// read clients of the benchmark read it, players drawn before the close.
// The service is given room for the month in its snapshot budget, as a
// service that holds last month's ranks has when this month closes (a newer
// month takes the room of older ones); these months close backwards, older
// than the one it holds, so the benchmark makes the room itself.
func (r *runner) afterClose(ctx context.Context) error {
	clients := slices.Max(r.cfg.ReadClients)
	m := r.closed
	if r.service.ClosedPeriods != nil {
		r.service.ClosedPeriods.ForgetPeriod(leaderboard.MainBoard, r.closed.String())
	}
	for range r.cfg.Repeat {
		m = m.Prev()
		took := r.step(fmt.Sprintf("seed %s with %s players for a close with readers waiting", m, thousands(float64(r.cfg.Players))))
		if _, err := r.service.DB.SeedPeriod(ctx, leaderboard.MainBoard, m.String(), r.cfg.Players,
			db.SeedOptions{RandomSeed: 1}); err != nil {
			return err
		}
		took()
		var loaded func() bool
		if r.service.ClosedPeriods != nil {
			loaded = func() bool { return r.service.ClosedPeriods.PeriodLoaded(leaderboard.MainBoard, m.String()) }
		}
		run, err := CloseAndRead(ctx, MonthClosable(r.gql, r.adminToken, m), r.cfg.Players, AnySeeded(r.cfg.Players), clients, AfterCloseWindow, loaded)
		r.report.AfterClose = append(r.report.AfterClose, run)
		if err != nil {
			return err
		}
		s := run.Reads
		r.log.Info("measured right after the close", "month", m.String(), "close", run.Close.Round(time.Millisecond),
			"reads", s.Ops, "p50", s.P50, "p99", s.P99, "max", s.Max, "errors", s.Errors, "loaded_after", run.Loaded)
		if n := s.Errors + run.During.Errors; n > 0 {
			first := s.FirstError
			if first == "" {
				first = run.During.FirstError
			}
			r.fail("reads around the close of %s: %d errors, first: %s", m, n, first)
		}
		if r.service.ClosedPeriods != nil {
			r.service.ClosedPeriods.ForgetPeriod(leaderboard.MainBoard, m.String())
		}
	}
	return nil
}
