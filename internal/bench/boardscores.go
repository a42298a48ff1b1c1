package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/eventmix"
)

// The boards suite's scores (issue 26, targets 1 to 3): the midnight storm
// of closes beside main's open month, events spread over many boards, and
// the ±10 read of a small board, open and closed.

// StormRun is one midnight storm: Boards DAY boards of Players players
// each, their periods all due at ClosesAt, closed by the period closers of
// two instances while clients read main's open month.
type StormRun struct {
	Boards, Players int
	// Seed is how long the SQL seed of the boards, periods and scores took,
	// ANALYZE included.
	Seed     time.Duration
	ClosesAt time.Time
	// FirstClosed and LastClosed are the first and last periods' closed_at
	// after ClosesAt; AllSeen is when polling first saw every period CLOSED
	// (every close committed), after ClosesAt.
	FirstClosed, LastClosed, AllSeen time.Duration
	// TimedOut is set when the periods were not all CLOSED within
	// stormTimeout; AllSeen is then that timeout.
	TimedOut bool
	// Closed counts the periods CLOSED with a digest and Players
	// participants; Messages those with exactly one period.closed message
	// in the outbox; FinalRanks the final ranks rows of the storm's periods.
	Closed, Messages, FinalRanks int
	// Delivered counts the messages the webhook had received when the
	// last close was seen.
	Delivered int64
	// AllDelivered is when the webhook had received every period.closed
	// message of the storm (distinct event ids), after ClosesAt;
	// DeliveryTimedOut is set when it had not within stormTimeout, and
	// AllDelivered is then that timeout.
	AllDelivered     time.Duration
	DeliveryTimedOut bool
	// Before are the big board's reads between the seed and ClosesAt,
	// During those from ClosesAt until every period was seen CLOSED.
	Before, During RunStats
}

// BoardScores is what the boards suite measured of scores on boards.
type BoardScores struct {
	// BigBoardPlayers are the players of main's open month, read during
	// the storms; BigBoardSeeded is set when the suite seeded it itself.
	BigBoardPlayers int
	BigBoardSeeded  bool
	// SchedulerInterval is the storm instances' LEADERBOARD_SCHEDULER_INTERVAL,
	// PeriodCloses their LEADERBOARD_PERIOD_CLOSES.
	SchedulerInterval time.Duration
	PeriodCloses      int
	Lead              time.Duration
	Storms            []StormRun
	// RelationsAfter counts pg_class after the storms, to set beside the
	// catalogue's.
	RelationsAfter int
	// Writes are submitScores batches of events for random boards among
	// WriteBoards; Acknowledged and Stored count their events.
	WriteBoards          int
	Writes               *Measurement
	Acknowledged, Stored int64
	// Open and Closed are the ±10 reads of one board of SmallPlayers
	// players, its current period and a closed one.
	SmallPlayers int
	Open, Closed *Measurement
}

// The cases of the boards' measurements.
const (
	CaseBoardWrites = "submitScores, batches of 100, random boards"
	CaseSmallOpen   = "±10, 100-player board, open period"
	CaseSmallClosed = "±10, 100-player board, closed period"
)

// stormTimeout bounds the wait for a storm's periods to close.
const stormTimeout = 3 * time.Minute

// boardScores runs targets 1 to 3 of the boards suite.
func (r *runner) boardScores(ctx context.Context, b *BoardsResult) error {
	s := &BoardScores{BigBoardPlayers: r.cfg.Players, SchedulerInterval: r.cfg.StormInterval,
		PeriodCloses: r.service.Config.PeriodCloses, Lead: r.cfg.StormLead, WriteBoards: r.cfg.WriteBoards,
		SmallPlayers: r.cfg.StormPlayers}
	b.Scores = s
	if r.cfg.Players < r.cfg.StormPlayers {
		return fmt.Errorf("--players (%d) must be at least --storm-players (%d): the boards' players are main's", r.cfg.Players, r.cfg.StormPlayers)
	}
	// The storm runs beside main's open month, which a boards-only run
	// has not seeded; its players are also the boards' players.
	seeded, err := r.seedOpenMonth(ctx, "for the storm's reads")
	if err != nil {
		return err
	}
	s.BigBoardSeeded = seeded
	if r.cfg.StormBoards > 0 {
		if err := r.storms(ctx, s); err != nil {
			return err
		}
	}
	if s.RelationsAfter, err = r.relations(ctx); err != nil {
		return err
	}
	if err := r.boardWrites(ctx, s); err != nil {
		return err
	}
	return r.smallReads(ctx, s)
}

// storms starts two instances that close due periods by themselves, with a
// webhook that takes every message, and runs Repeat storms on them.
func (r *runner) storms(ctx context.Context, s *BoardScores) (err error) {
	delivered := &webhookSink{}
	sink := httptest.NewServer(delivered)
	defer sink.Close()
	took := r.step("start two instances that close due periods by themselves (LEADERBOARD_AUTO_CLOSE, a webhook)")
	var instances []*GraphQL
	for range 2 {
		m, err := r.startStormInstance(ctx, sink.URL)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, m.Close()) }()
		c := NewGraphQL(m.Server.URL(), 2*r.cfg.StormReaders)
		defer c.Close()
		instances = append(instances, c)
	}
	took()
	for i := range r.cfg.Repeat {
		run, err := r.storm(ctx, instances, boardPrefix(r.report.Started, "s"+fmt.Sprint(i+1)), delivered)
		s.Storms = append(s.Storms, run)
		if err != nil {
			return err
		}
	}
	return nil
}

// webhookSink is the storms' settlement receiver: it answers every message
// at once and notes when each distinct event id first arrived.
type webhookSink struct {
	mu      sync.Mutex
	seen    map[string]bool
	arrived []time.Time // the first arrival of each distinct id, in order
}

func (s *webhookSink) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	io.Copy(io.Discard, req.Body)
	id := req.Header.Get("X-Leaderboard-Event-Id")
	s.mu.Lock()
	if !s.seen[id] {
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		s.seen[id] = true
		s.arrived = append(s.arrived, time.Now())
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// distinct returns how many distinct messages have arrived.
func (s *webhookSink) distinct() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.arrived))
}

// waitFor waits until n distinct messages have arrived and returns when the
// nth did, or deadline and true when they have not by then.
func (s *webhookSink) waitFor(ctx context.Context, n int64, deadline time.Time) (time.Time, bool) {
	for {
		s.mu.Lock()
		if int64(len(s.arrived)) >= n {
			at := s.arrived[n-1]
			s.mu.Unlock()
			return at, false
		}
		s.mu.Unlock()
		if time.Now().After(deadline) {
			return deadline, true
		}
		select {
		case <-ctx.Done():
			return deadline, true
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startStormInstance starts an instance configured as the first but for
// what the storm needs: it closes due periods by itself, looks for them
// every StormInterval, records settlement messages and delivers them to
// webhook, and holds no closed month in memory (its reads are of the open
// month; loading the closed one would only take the cores).
func (r *runner) startStormInstance(ctx context.Context, webhook string) (*app.Main, error) {
	config := r.service.Config
	config.ListenAddr = "127.0.0.1:0"
	config.AutoClose = true
	config.SchedulerInterval = r.cfg.StormInterval
	config.WebhookURL, config.WebhookSecret = webhook, randomToken()
	config.SnapshotPlayers = 0
	m := &app.Main{Config: config, Logger: r.cfg.ServiceLogger}
	if err := m.Run(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("start a storm instance: %w", err), m.Close())
	}
	return m, nil
}

// storm seeds StormBoards boards whose yesterday's period closes StormLead
// after the seed, waits for the closers to close them all while
// StormReaders clients read main's open month on both instances, and
// checks every period's close.
func (r *runner) storm(ctx context.Context, instances []*GraphQL, prefix string, delivered *webhookSink) (StormRun, error) {
	run := StormRun{Boards: r.cfg.StormBoards, Players: r.cfg.StormPlayers}
	deliveredBefore := delivered.distinct()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	yesterday := today.AddDate(0, 0, -1)
	took := r.step(fmt.Sprintf("seed %s DAY boards with %d players each in yesterday's period (SQL), closing %s after",
		thousands(float64(run.Boards)), run.Players, r.cfg.StormLead))
	start := time.Now()
	closesAt, err := seedBoards(ctx, r, prefix, run.Boards, run.Players, yesterday, r.cfg.StormLead)
	if err != nil {
		return run, err
	}
	run.Seed, run.ClosesAt = time.Since(start), closesAt
	took()
	if time.Now().After(closesAt) {
		r.fail("storm %s: the seed ended after closesAt; give it a longer --storm-lead", prefix)
	}
	r.log.Info("storm due", "boards", run.Boards, "closes_at", closesAt.Format(time.RFC3339), "in", time.Until(closesAt).Round(time.Millisecond))

	// The readers run from now until every period is seen CLOSED.
	readCtx, stopReading := context.WithCancel(ctx)
	samples := make([][]readSample, r.cfg.StormReaders)
	var readers sync.WaitGroup
	for client := range r.cfg.StormReaders {
		read := HTTPStanding(instances[client%len(instances)], r.open, AnySeeded(r.cfg.Players), ExpectLive)(0, client)
		readers.Go(func() {
			for readCtx.Err() == nil {
				began := time.Now()
				err := read(readCtx)
				if readCtx.Err() == nil {
					samples[client] = append(samples[client], readSample{began, time.Since(began), err})
				}
			}
		})
	}
	readsFrom := time.Now()
	left, seen, err := waitClosed(ctx, r, prefix, closesAt)
	stopReading()
	readers.Wait()
	run.Delivered = delivered.distinct() - deliveredBefore
	if err != nil {
		return run, err
	}
	run.AllSeen, run.TimedOut = seen.Sub(closesAt), left > 0
	last, timedOut := delivered.waitFor(ctx, deliveredBefore+int64(run.Boards), closesAt.Add(stormTimeout))
	run.AllDelivered, run.DeliveryTimedOut = last.Sub(closesAt), timedOut
	var before, during []readSample
	for _, own := range samples {
		for _, s := range own {
			if s.began.Before(closesAt) {
				before = append(before, s)
			} else {
				during = append(during, s)
			}
		}
	}
	run.Before = statsOf(r.cfg.StormReaders, before, closesAt.Sub(readsFrom))
	run.During = statsOf(r.cfg.StormReaders, during, seen.Sub(closesAt))
	if err := checkStorm(ctx, r, prefix, &run); err != nil {
		return run, err
	}
	r.log.Info("storm closed", "boards", run.Boards, "all_closed_after", run.AllSeen.Round(time.Millisecond),
		"first", run.FirstClosed.Round(time.Millisecond), "last", run.LastClosed.Round(time.Millisecond),
		"closed", run.Closed, "messages", run.Messages, "delivered", run.Delivered, "all_delivered_after", run.AllDelivered.Round(time.Millisecond),
		"reads_p50", run.During.P50, "reads_p99", run.During.P99, "reads_max", run.During.Max, "read_errors", run.Before.Errors+run.During.Errors)
	if run.TimedOut {
		r.fail("storm %s: %d periods not CLOSED %s after closesAt", prefix, left, stormTimeout)
	}
	if run.DeliveryTimedOut {
		r.fail("storm %s: %d of %d period.closed messages delivered %s after closesAt", prefix,
			delivered.distinct()-deliveredBefore, run.Boards, stormTimeout)
	}
	if run.Closed != run.Boards || run.Messages != run.Boards || run.FinalRanks != run.Boards*run.Players {
		r.fail("storm %s: of %d periods %d CLOSED with a digest and %d participants, %d with one period.closed message; %d final ranks",
			prefix, run.Boards, run.Closed, run.Players, run.Messages, run.FinalRanks)
	}
	if n := run.Before.Errors + run.During.Errors; n > 0 {
		r.fail("storm %s: %d reads of %s failed, first: %s", prefix, n, r.open, firstOf(run.Before.FirstError, run.During.FirstError))
	}
	return run, nil
}

// firstOf returns the first of messages that is not "".
func firstOf(messages ...string) string {
	for _, m := range messages {
		if m != "" {
			return m
		}
	}
	return ""
}

// waitClosed polls the periods of the boards with prefix until none is
// left open or stormTimeout after closesAt, and returns how many were left
// and when it looked last.
func waitClosed(ctx context.Context, r *runner, prefix string, closesAt time.Time) (left int, seen time.Time, err error) {
	// The partial index of the periods not CLOSED answers this without
	// reading the closed ones.
	const q = `SELECT count(*) FROM periods WHERE status <> 'CLOSED' AND starts_with(board_id, $1)`
	for {
		if err := r.pool.QueryRow(ctx, q, prefix).Scan(&left); err != nil {
			return 0, time.Time{}, fmt.Errorf("count the storm's open periods: %w", err)
		}
		seen = time.Now()
		if left == 0 || seen.After(closesAt.Add(stormTimeout)) {
			return left, seen, nil
		}
		select {
		case <-ctx.Done():
			return 0, time.Time{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkStorm counts the storm's periods closed as they should be, their
// messages and final ranks, and when the first and last closed.
func checkStorm(ctx context.Context, r *runner, prefix string, run *StormRun) error {
	const q = `SELECT count(*) FILTER (WHERE p.status = 'CLOSED' AND p.digest IS NOT NULL AND p.participants = $2),
			count(*) FILTER (WHERE m.n = 1), min(p.closed_at), max(p.closed_at),
			COALESCE(sum(p.participants) FILTER (WHERE p.status = 'CLOSED'), 0)
		FROM periods p CROSS JOIN LATERAL (SELECT count(*) AS n FROM outbox o
			WHERE o.period_id = p.id AND o.board_id = p.board_id AND o.type = 'period.closed') m
		WHERE starts_with(p.board_id, $1)`
	var first, last *time.Time
	var participants int64
	if err := r.pool.QueryRow(ctx, q, prefix, run.Players).Scan(&run.Closed, &run.Messages, &first, &last, &participants); err != nil {
		return fmt.Errorf("check the storm's periods: %w", err)
	}
	if first != nil && last != nil {
		run.FirstClosed, run.LastClosed = first.Sub(run.ClosesAt), last.Sub(run.ClosesAt)
	}
	const ranks = `SELECT count(*) FROM board_final_ranks f JOIN periods p ON p.id = f.period_id AND p.final_bucket = f.bucket
		WHERE starts_with(p.board_id, $1)`
	if err := r.pool.QueryRow(ctx, ranks, prefix).Scan(&run.FinalRanks); err != nil {
		return fmt.Errorf("count the storm's final ranks: %w", err)
	}
	return nil
}

// seedBoards inserts, in one transaction, n DAY boards named by prefix (in
// UTC, DESC, scores 0..1,000,000, no tie-break, started the day before
// day), each with its period day OPEN and players scores in it when players
// is positive. Board i's players are main's seeded players from
// i*players+1 on (modulo the seeded ones); their scores, of 0..1000 with
// ties, and the times they were reached are spread by fixed arithmetic.
// When lead is positive, the boards' close grace is set last, so that
// period day closes lead after the seed (a whole second), which it returns;
// otherwise the grace is a minute. The boards are rows as createBoard
// writes them; their periods and scores are those their events would
// leave (board_score_events gets no rows: nothing here reads them).
func seedBoards(ctx context.Context, r *runner, prefix string, n, players int, day time.Time, lead time.Duration) (time.Time, error) {
	var closesAt time.Time
	err := pgxBeginFunc(ctx, r, func(exec func(q string, args ...any) error, fillRankCounts func(prefix string) error) error {
		const boards = `INSERT INTO boards (id, name, reset, sort_order, min_score, max_score, tiebreak, time_zone,
				close_grace_seconds, starts_at)
			SELECT $1 || lpad(g::text, 6, '0'), 'Bench storm', 'DAY', 'DESC', 0, 1000000, 'NONE', 'UTC', 60, $3
			FROM generate_series(0, $2 - 1) AS g`
		if err := exec(boards, prefix, n, day.AddDate(0, 0, -1)); err != nil {
			return fmt.Errorf("insert the boards: %w", err)
		}
		if players <= 0 {
			return nil
		}
		const periods = `INSERT INTO periods (board_id, key, starts_at, ends_at)
			SELECT id, $2, $3, $4 FROM boards WHERE starts_with(id, $1)`
		if err := exec(periods, prefix, day.Format(time.DateOnly), day, day.AddDate(0, 0, 1)); err != nil {
			return fmt.Errorf("insert the periods: %w", err)
		}
		const scores = `INSERT INTO board_scores (period_id, player_id, score, sort_score, sort_subscore, reached_at, seq)
			SELECT p.id, 'player-' || lpad((1 + (p.n * $2 + j) % $3)::text, 8, '0'), s.score, -s.score, 0,
				p.starts_at + make_interval(secs => (j * 797 + p.n) % 86000), nextval('score_seq')
			FROM (SELECT id, starts_at, substr(board_id, length($1) + 1)::int AS n FROM periods WHERE starts_with(board_id, $1)) p
			CROSS JOIN generate_series(0, $2 - 1) AS j
			CROSS JOIN LATERAL (SELECT (p.n * 7919 + j * 104729) % 1001 AS score) s`
		if err := exec(scores, prefix, players, r.cfg.Players); err != nil {
			return fmt.Errorf("insert the scores: %w", err)
		}
		if err := fillRankCounts(prefix); err != nil {
			return fmt.Errorf("count the scores: %w", err)
		}
		if err := exec(`ANALYZE boards, periods, board_scores`); err != nil {
			return err
		}
		if lead <= 0 {
			return nil
		}
		closesAt = time.Now().Add(lead).Truncate(time.Second).Add(time.Second)
		grace := int(closesAt.Sub(day.AddDate(0, 0, 1)) / time.Second)
		return exec(`UPDATE boards SET close_grace_seconds = $2 WHERE starts_with(id, $1)`, prefix, grace)
	})
	return closesAt, err
}

// pgxBeginFunc runs f in one transaction of the runner's pool, its
// statements through exec, and commits; fillRankCounts counts the scores of
// the periods of the boards whose ids start with prefix into their rank
// counters, as a seed does (db.FillRankCounts).
func pgxBeginFunc(ctx context.Context, r *runner,
	f func(exec func(q string, args ...any) error, fillRankCounts func(prefix string) error) error) error {
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("seed boards: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	exec := func(q string, args ...any) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	}
	fillRankCounts := func(prefix string) error {
		var ids []int32
		if err := tx.QueryRow(ctx, `SELECT array_agg(id) FROM periods WHERE starts_with(board_id, $1)`, prefix).Scan(&ids); err != nil {
			return err
		}
		return db.FillRankCounts(ctx, tx, ids)
	}
	if err := f(exec, fillRankCounts); err != nil {
		return fmt.Errorf("seed boards: %w", err)
	}
	return tx.Commit(ctx)
}

// boardEvent is one ScoreEvent input of submitQuery on a board.
type boardEvent struct {
	EventID  string `json:"eventId"`
	PlayerID string `json:"playerId"`
	Board    string `json:"board"`
	Mode     string `json:"mode"`
	Value    int    `json:"value"`
}

// HTTPBoardSubmit returns, for each client of a load, an Op that sends a
// batch of size events, each for a random board among boards named by
// prefix and a random one of main's seeded players, ADD 1..10, BEST or SET
// 0..3000, and checks that every event came back APPLIED or UNCHANGED,
// counting them in ack.
func HTTPBoardSubmit(c *GraphQL, token, eventPrefix, boardPrefix string, boards, size, players int, ack *Acknowledged) Workload {
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 4))
		ids := fmt.Sprintf("%s%d-%d-", eventPrefix, run, client)
		next := 0
		return func(ctx context.Context) error {
			events := make([]boardEvent, size)
			for i := range events {
				next++
				e := boardEvent{EventID: fmt.Sprintf("%s%d", ids, next), PlayerID: db.SeedPlayerID(1 + rng.IntN(players)),
					Board: boardID(boardPrefix, rng.IntN(boards))}
				switch roll := rng.IntN(100); {
				case roll < eventmix.AddShare:
					e.Mode, e.Value = "ADD", 1+rng.IntN(10)
				case roll < eventmix.AddShare+eventmix.BestShare:
					e.Mode, e.Value = "BEST", rng.IntN(3001)
				default:
					e.Mode, e.Value = "SET", rng.IntN(3001)
				}
				events[i] = e
			}
			var data struct {
				SubmitScores []struct {
					EventID string `json:"eventId"`
					Status  string `json:"status"`
				} `json:"submitScores"`
			}
			if err := c.Do(ctx, token, submitQuery, map[string]any{"events": events}, &data); err != nil {
				return fmt.Errorf("submit %d events: %w", len(events), err)
			}
			if len(data.SubmitScores) != len(events) {
				return fmt.Errorf("submit %d events: %d results", len(events), len(data.SubmitScores))
			}
			var wrong error
			for i, res := range data.SubmitScores {
				switch {
				case res.EventID != events[i].EventID:
					wrong = errors.Join(wrong, fmt.Errorf("result %d is for %s, want %s", i, res.EventID, events[i].EventID))
				case res.Status == "APPLIED":
					ack.Applied.Add(1)
				case res.Status == "UNCHANGED":
					ack.Unchanged.Add(1)
				default:
					wrong = errors.Join(wrong, fmt.Errorf("event %s (%s %d on %s): %s", res.EventID, events[i].Mode, events[i].Value, events[i].Board, res.Status))
				}
			}
			return wrong
		}
	}
}

// boardWrites measures events spread over WriteBoards new boards, after
// priming as the months' submits do, and checks that every acknowledged
// event was stored.
func (r *runner) boardWrites(ctx context.Context, s *BoardScores) error {
	if s.WriteBoards <= 0 {
		return nil
	}
	boards := boardPrefix(r.report.Started, "w")
	took := r.step(fmt.Sprintf("insert %s DAY boards for the writes (SQL, no periods: their events open them)", thousands(float64(s.WriteBoards))))
	if _, err := seedBoards(ctx, r, boards, s.WriteBoards, 0, time.Now().UTC().Truncate(24*time.Hour), 0); err != nil {
		return err
	}
	took()
	events := eventPrefix(r.report.Started) + "b-"
	var ack Acknowledged
	workload := HTTPBoardSubmit(r.gql, r.serverToken, events, boards, s.WriteBoards, r.cfg.BatchSize, r.cfg.Players, &ack)
	took = r.step("prime submitScores on the boards (unmeasured), then ANALYZE the tables it writes")
	r.runs++
	prime := r.runs
	stats := Load{Clients: r.cfg.WriteClients, Duration: primeDuration}.Run(ctx, func(client int) Op { return workload(prime, client) })
	if err := ctx.Err(); err != nil {
		return err
	}
	if stats.Errors > 0 {
		r.fail("priming submitScores on boards: %d errors, first: %s", stats.Errors, stats.FirstError)
	}
	if _, err := r.pool.Exec(ctx, `ANALYZE board_score_events, board_scores, periods, players`); err != nil {
		return fmt.Errorf("analyze after priming: %w", err)
	}
	took()
	m, err := r.measureBoards(ctx, CaseBoardWrites, r.cfg.WriteClients, r.cfg.BatchSize, "events/s", workload)
	s.Writes = m
	if err != nil {
		return err
	}
	s.Acknowledged = ack.Total()
	const q = `SELECT count(*) FROM board_score_events WHERE starts_with(event_id, $1)`
	if err := r.pool.QueryRow(ctx, q, events).Scan(&s.Stored); err != nil {
		return fmt.Errorf("count stored board events: %w", err)
	}
	r.log.Info("board events checked", "acknowledged", s.Acknowledged, "stored", s.Stored)
	if s.Stored != s.Acknowledged {
		r.fail("submitScores on boards: %d events acknowledged, %d stored", s.Acknowledged, s.Stored)
	}
	return nil
}

// smallStandingQuery is standingQuery on a board's period: the current one
// when period is null.
var smallStandingQuery = fmt.Sprintf(`query Standing($board: ID!, $period: String, $playerId: ID!) {
  standing(board: $board, period: $period, playerId: $playerId) {
    rank score total final
    player { name }
    neighbours(above: %d, below: %d) { rank score player { name } }
  }
}`, Neighbours, Neighbours)

// HTTPBoardStanding returns, for each client of a load, an Op that reads
// over HTTP the standing of a player drawn by pick in period of board (its
// current one when period is ""), a board of order, and checks the answer.
func HTTPBoardStanding(c *GraphQL, board, period string, order leaderboard.SortOrder, pick Picker, finality Finality) Workload {
	vars := func(player string) map[string]any {
		v := map[string]any{"board": board, "playerId": player}
		if period != "" {
			v["period"] = period
		}
		return v
	}
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 5))
		return func(ctx context.Context) error {
			player := pick(rng)
			var answer standingAnswer
			if err := c.Do(ctx, "", smallStandingQuery, vars(player), &answer); err != nil {
				return fmt.Errorf("standing of %s on %s: %w", player, board, err)
			}
			if err := answer.check(finality, order); err != nil {
				return fmt.Errorf("standing of %s on %s: %w", player, board, err)
			}
			return nil
		}
	}
}

// smallReads measures the ±10 read of a board of StormPlayers players:
// the current period of a board seeded for it, and the closed period of
// the first storm's first board (one seeded the same way when no storm
// ran).
func (r *runner) smallReads(ctx context.Context, s *BoardScores) error {
	if r.cfg.SmallClients <= 0 {
		return nil
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	yesterday := today.AddDate(0, 0, -1)
	open := boardPrefix(r.report.Started, "so")
	took := r.step(fmt.Sprintf("seed a board of %d players in today's period (SQL)", s.SmallPlayers))
	if _, err := seedBoards(ctx, r, open, 1, s.SmallPlayers, today, 0); err != nil {
		return err
	}
	took()
	closed := boardPrefix(r.report.Started, "s1")
	if len(s.Storms) == 0 {
		closed = boardPrefix(r.report.Started, "sc")
		took := r.step(fmt.Sprintf("seed a board of %d players in yesterday's period (SQL) and close it", s.SmallPlayers))
		if _, err := seedBoards(ctx, r, closed, 1, s.SmallPlayers, yesterday, 0); err != nil {
			return err
		}
		if _, err := r.service.DB.ClosePeriod(ctx, boardID(closed, 0), yesterday.Format(time.DateOnly)); err != nil {
			return err
		}
		took()
	}
	// Both boards are board 0 of their set: main's players 1..SmallPlayers.
	ids := make([]string, s.SmallPlayers)
	for i := range ids {
		ids[i] = db.SeedPlayerID(1 + i%r.cfg.Players)
	}
	var err error
	s.Open, err = r.measureBoards(ctx, CaseSmallOpen, r.cfg.SmallClients, 1, "req/s",
		HTTPBoardStanding(r.gql, boardID(open, 0), "", leaderboard.OrderDesc, OneOf(ids), ExpectLive))
	if err != nil {
		return err
	}
	s.Closed, err = r.measureBoards(ctx, CaseSmallClosed, r.cfg.SmallClients, 1, "req/s",
		HTTPBoardStanding(r.gql, boardID(closed, 0), yesterday.Format(time.DateOnly), leaderboard.OrderDesc, OneOf(ids), ExpectFinal))
	return err
}

// measureBoards runs a workload Repeat times at clients, as measure does,
// and returns the measurement without adding it to the months' tables.
func (r *runner) measureBoards(ctx context.Context, kase string, clients, perOp int, unit string, w Workload) (*Measurement, error) {
	m := &Measurement{System: SystemHTTP, Case: kase, Clients: clients, PerOp: perOp, Unit: unit}
	load := Load{Clients: clients, Warmup: r.cfg.Warmup, Duration: r.cfg.Duration}
	for range r.cfg.Repeat {
		r.runs++
		run := r.runs
		before := r.meter.Read()
		stats := load.Run(ctx, func(client int) Op { return w(run, client) })
		stats.CPU = r.meter.Read().Sub(before)
		if err := ctx.Err(); err != nil {
			return m, err
		}
		m.Runs = append(m.Runs, stats)
		r.log.Info("measured", "case", kase, "clients", clients, "rate", fmt.Sprintf("%.0f %s", stats.Throughput()*float64(perOp), unit),
			"p50", stats.P50, "p99", stats.P99, "max", stats.Max, "errors", stats.Errors)
	}
	if n := m.Errors(); n > 0 {
		r.fail("%s, %d clients: %d errors, first: %s", kase, clients, n, m.FirstError())
	}
	return m, nil
}
