package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The big-boards suite (issue 37, target 1): boards other than main at
// main's scale, a WEEK board and a DAY board with a period of Players
// players each, read, closed and read again through the contract as the
// months are.

// BigBoardKind is one of the suite's kinds of board.
type BigBoardKind struct {
	Name string // as the report names it
	// Tag names the kind's boards in their ids.
	Tag                string
	Reset              leaderboard.Reset
	Order              leaderboard.SortOrder
	TieBreak           leaderboard.TieBreak
	MinScore, MaxScore int
}

// BigBoardKinds are the kinds of board the suite measures, in order.
var BigBoardKinds = []BigBoardKind{
	{Name: "WEEK board, DESC", Tag: "bw", Reset: leaderboard.ResetWeek, Order: leaderboard.OrderDesc,
		TieBreak: leaderboard.TieBreakNone, MinScore: 0, MaxScore: 10_000},
	{Name: "DAY board, ASC, SUBSCORE_ASC, 0..2,000,000,000", Tag: "bd", Reset: leaderboard.ResetDay,
		Order: leaderboard.OrderAsc, TieBreak: leaderboard.TieBreakSubscoreAsc, MinScore: 0, MaxScore: 2_000_000_000},
}

// BigBoard is what the suite measured of one kind of board: Repeat boards
// of that kind, each with its current period seeded and then closed; the
// first board's period read open before its close and closed after.
type BigBoard struct {
	Kind    BigBoardKind
	Players int
	// Board and Key name the first board's period, the one read.
	Board, Key string
	// Seeds are how long SeedPeriod took for each board's period.
	Seeds []time.Duration
	// OpenOne and Open are the open period's reads at one client and at
	// the most read clients; Closed the closed period's at the most.
	OpenOne, Open, Closed *Measurement
	// Closes are the closes of each board's period, each with the reads
	// around it, as the months' after-close runs.
	Closes []AfterCloseRun
	// ClosedFrom says where the closed period's reads were served from.
	ClosedFrom string
}

// The cases of a big board's reads, after its kind's name.
const (
	caseBigOpen   = "open period"
	caseBigClosed = "closed period"
)

// bigBoardCloseGrace is the suite's boards' close grace: long enough that
// a period whose end passes during its seed still takes the seed.
const bigBoardCloseGrace = 6 * time.Hour

// bigBoards runs the big-boards suite, one kind of board after the other.
func (r *runner) bigBoards(ctx context.Context) error {
	for _, kind := range BigBoardKinds {
		b := &BigBoard{Kind: kind, Players: r.cfg.Players}
		r.report.BigBoards = append(r.report.BigBoards, b)
		if err := r.bigBoard(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// bigBoard measures Repeat boards of b's kind: each seeded and closed with
// the most read clients reading it; the first read open before its close,
// and, once the service holds it in memory, closed after. Each closed
// period is forgotten by the service's memory after its measurements, as
// the months' after-close runs forget theirs, so that the next one has
// room.
func (r *runner) bigBoard(ctx context.Context, b *BigBoard) error {
	clients := slices.Max(r.cfg.ReadClients)
	players := AnySeeded(r.cfg.Players)
	for i := range r.cfg.Repeat {
		id := boardID(boardPrefix(r.report.Started, b.Kind.Tag), i)
		key, err := r.seedBigBoard(ctx, b, id)
		if err != nil {
			return err
		}
		if i == 0 {
			b.Board, b.Key = id, key
			open := HTTPBoardStanding(r.gql, id, key, b.Kind.Order, players, ExpectLive)
			if b.OpenOne, err = r.measureBoards(ctx, b.Kind.Name+", "+caseBigOpen, 1, 1, "req/s", open); err != nil {
				return err
			}
			if b.Open, err = r.measureBoards(ctx, b.Kind.Name+", "+caseBigOpen, clients, 1, "req/s", open); err != nil {
				return err
			}
		}
		if err := r.closeBigBoard(ctx, b, id, key, clients); err != nil {
			return err
		}
		if i == 0 {
			b.ClosedFrom = r.waitPeriodInMemory(ctx, b, id, key)
			closed := HTTPBoardStanding(r.gql, id, key, b.Kind.Order, players, ExpectFinal)
			if b.Closed, err = r.measureBoards(ctx, b.Kind.Name+", "+caseBigClosed, clients, 1, "req/s", closed); err != nil {
				return err
			}
		}
		if r.service.ClosedPeriods != nil {
			r.service.ClosedPeriods.ForgetPeriod(id, key)
		}
	}
	return nil
}

// seedBigBoard creates board id of b's kind (UTC, started five weeks ago),
// seeds its current period with Players players (db.SeedPeriod), settles
// the database as the months' seeds do, and returns the period's key.
func (r *runner) seedBigBoard(ctx context.Context, b *BigBoard, id string) (string, error) {
	now := time.Now()
	k := b.Kind
	spec := leaderboard.BoardSpec{ID: id, Name: "Bench " + k.Name, Reset: k.Reset, Order: new(k.Order),
		MinScore: new(k.MinScore), MaxScore: new(k.MaxScore), TieBreak: new(k.TieBreak), TimeZone: new("UTC"),
		CloseGrace: new(int(bigBoardCloseGrace / time.Second)), StartsAt: new(now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -35))}
	created, err := r.service.DB.CreateBoard(ctx, spec)
	if err != nil {
		return "", err
	}
	key, _, err := created.Board.PeriodOf(now)
	if err != nil {
		return "", err
	}
	took := r.step(fmt.Sprintf("seed period %s of %s (%s) with %s players (SeedPeriod, COPY)", key, id, k.Name,
		thousands(float64(r.cfg.Players))))
	next := r.cfg.Players / 10
	progress := func(done int) {
		if done >= next {
			r.log.Info("seeding", "board", id, "period", key, "players", done)
			next += r.cfg.Players / 10
		}
	}
	start := time.Now()
	if _, err := r.service.DB.SeedPeriod(ctx, id, key, r.cfg.Players, db.SeedOptions{RandomSeed: 1, Progress: progress}); err != nil {
		return "", err
	}
	b.Seeds = append(b.Seeds, time.Since(start))
	took()
	// A period fills over days or a week, vacuumed by autovacuum and
	// flushed by checkpoints as it goes; the seed writes it in minutes. The
	// whole database, not board_scores alone: a wide board's seeded counters
	// (11.5M rows for a 10M DAY period) were otherwise vacuumed by
	// autovacuum during the reads measured next.
	if err := r.settle(ctx); err != nil {
		return "", fmt.Errorf("settle after the seed of %s: %w", id, err)
	}
	return key, nil
}

// closeBigBoard closes period key of board id through closePeriod while
// clients read it, as the months' after-close runs do, and adds the run.
func (r *runner) closeBigBoard(ctx context.Context, b *BigBoard, id, key string, clients int) error {
	var loaded func() bool
	if r.service.ClosedPeriods != nil {
		loaded = func() bool { return r.service.ClosedPeriods.PeriodLoaded(id, key) }
	}
	r.log.Info("closing", "board", id, "period", key)
	target := PeriodClosable(r.gql, r.pool, r.adminToken, id, key, b.Kind.Order)
	run, err := CloseAndRead(ctx, target, r.cfg.Players, AnySeeded(r.cfg.Players), clients, AfterCloseWindow, loaded)
	b.Closes = append(b.Closes, run)
	if err != nil {
		return err
	}
	s := run.Reads
	r.log.Info("measured right after the close", "board", id, "period", key, "close", run.Close.Round(time.Millisecond),
		"reads", s.Ops, "p50", s.P50, "p99", s.P99, "max", s.Max, "errors", s.Errors, "loaded_after", run.Loaded)
	if n := s.Errors + run.During.Errors; n > 0 {
		r.fail("reads around the close of period %s of %s: %d errors, first: %s", key, id, n, firstOf(s.FirstError, run.During.FirstError))
	}
	return nil
}

// waitPeriodInMemory waits, up to snapshotWait, for the service to hold
// period key of board id in memory, which the reads of its close started
// loading, reading it once a second meanwhile, and says where its reads
// are served from.
func (r *runner) waitPeriodInMemory(ctx context.Context, b *BigBoard, id, key string) string {
	budget := r.service.Config.SnapshotPlayers
	switch {
	case r.service.ClosedPeriods == nil:
		return "PostgreSQL (the service's in-memory snapshot of closed periods is off)"
	case budget < b.Players:
		return fmt.Sprintf("PostgreSQL (%s players are over the snapshot budget of %s)",
			thousands(float64(b.Players)), thousands(float64(budget)))
	}
	if loaded := b.Closes[0].Loaded; loaded > 0 {
		return fmt.Sprintf("the service's memory (held %s after CLOSED)", loaded.Round(100*time.Millisecond))
	}
	took := r.step(fmt.Sprintf("wait for the service to hold period %s of %s in memory", key, id))
	// A final read from the database starts the load, should the close's
	// readers not have.
	read := HTTPBoardStanding(r.gql, id, key, b.Kind.Order, AnySeeded(b.Players), ExpectFinal)(0, 0)
	start := time.Now()
	failed, first := 0, ""
	defer func() {
		if failed > 0 {
			r.fail("period %s of %s, read while it loaded: %d errors, first: %s", key, id, failed, first)
		}
	}()
	for !r.service.ClosedPeriods.PeriodLoaded(id, key) {
		if time.Since(start) > snapshotWait || ctx.Err() != nil {
			r.fail("the service did not hold period %s of %s in memory within %s of the reads after its close", key, id, snapshotWait)
			return fmt.Sprintf("PostgreSQL (not in memory %s after the reads after its close)", snapshotWait)
		}
		if err := read(ctx); err != nil && ctx.Err() == nil {
			failed++
			first = firstOf(first, err.Error())
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	took()
	// The reads after the close ran for AfterCloseWindow after CLOSED.
	return fmt.Sprintf("the service's memory (held about %s after CLOSED)", (AfterCloseWindow + time.Since(start)).Round(time.Second))
}
