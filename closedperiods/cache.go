// Package closedperiods serves the standings of closed periods from memory,
// on every board, main's months among them (a month of main is its period
// 'YYYY-MM'), within one memory budget: one kind of table, keyed by board
// and period. A closed period never changes unless an admin corrects it, so
// its final ranks are loaded once: at start when it is large (Preload), as
// its close commits (PeriodClosed, from the table the close built of its
// own rows), or in the background after the first read that finds it
// closed. The instance that closes a period answers its standings and
// groups from that table as soon as it is built (PeriodClosing), while the
// period is CLOSING: its scores are frozen then. Pages of main's months are
// answered by the source, because their cursors are the month contract's.
// Until a period is loaded, and for periods that do not fit the budget,
// reads go to the store's index range scans, which stay the source of
// truth.
package closedperiods

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/backoff"
)

// Source is the store the closed periods in memory stand in front of, for
// every board: the reads of periods not in memory, and the loads of closed
// ones.
type Source interface {
	leaderboard.StandingService
	leaderboard.GroupService
	// LoadClosedPeriod reads period key of b whole from one snapshot when
	// it is CLOSED: it calls admit with the period's participants and end
	// first, and reads the period's rows only when admit returns true.
	// nil, without an error, when the period is not CLOSED or admit
	// refused it.
	LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
		admit func(participants int, end time.Time) bool) (FrozenPeriod, error)
	// LargeClosedPeriods returns up to limit closed periods, on every
	// board, whose loads take seconds, the latest ended first, with their
	// Board, Key and Participants: Preload loads them.
	LargeClosedPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error)
	// Board returns the board with id, or nil when there is none.
	Board(ctx context.Context, id string) (*leaderboard.Board, error)
}

// Cache is the leaderboard.StandingService and leaderboard.GroupService of
// the closed periods in memory, for every board, main's months among them:
// it holds one kind of table per closed period, keyed by board and period,
// within one budget of players shared newest first, answers standings and
// groups of the periods it holds from memory, and the rest, main's pages
// included, from its source. It is safe for concurrent use.
type Cache struct {
	source     Source
	maxPlayers int
	logger     *slog.Logger
	ctx        context.Context
	cancel     context.CancelFunc
	loads      sync.WaitGroup
	ready      atomic.Bool

	mu      sync.RWMutex
	periods periodsHeld
	held    int // players in tables, staged tables and admitted loads

	loadsEnded, failedLoads atomic.Int64 // loads from the source that ended
	loadNanos               atomic.Int64 // time spent in them

	// preloadRetry and preloadRetryMax space Preload's tries after a
	// failure: the first wait, doubled up to the most.
	preloadRetry, preloadRetryMax time.Duration
}

// Stats is what the cache holds and what its loads cost, for /metrics.
type Stats struct {
	Periods     int           // closed periods in memory, on every board, staged ones included
	Players     int           // their players
	Bytes       int           // memory their tables hold
	Loads       int64         // loads from the database that ended
	FailedLoads int64         // of which failed
	LoadTime    time.Duration // spent in loads
}

// New returns a Cache in front of source that holds at most maxPlayers
// players across all closed periods, the newest first by their ends.
func New(source Source, maxPlayers int, logger *slog.Logger) *Cache {
	ctx, cancel := context.WithCancel(context.Background())
	return &Cache{
		source: source, maxPlayers: maxPlayers, logger: logger, ctx: ctx, cancel: cancel,
		periods:      newPeriodsHeld(),
		preloadRetry: time.Second, preloadRetryMax: 30 * time.Second,
	}
}

// Stats returns what the cache holds and what its loads cost so far.
func (c *Cache) Stats() Stats {
	s := Stats{Loads: c.loadsEnded.Load(), FailedLoads: c.failedLoads.Load(), LoadTime: time.Duration(c.loadNanos.Load())}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, tables := range []map[periodKey]*periodTable{c.periods.tables, c.periods.closing} {
		for _, t := range tables {
			s.Periods++
			s.Players += t.frozen.Players()
			s.Bytes += t.frozen.Bytes()
		}
	}
	return s
}

// preloadPeriods bounds how many of the large closed periods Preload
// loads.
const preloadPeriods = 120

// Preload loads the large closed periods of every board, main's months
// among them (Source.LargeClosedPeriods), that fit the budget, and returns
// once they are loaded; Ready reports true from then on. A server calls it
// at start before it says it is ready, so that no player's first read of a
// closed period whose load takes seconds waits for the source, nor competes
// with its load. A failed try (a lost database) is tried again after a wait
// that doubles from a second up to 30 s, until it succeeds or ctx ends: an
// instance whose first try failed still becomes ready.
func (c *Cache) Preload(ctx context.Context) error {
	for failures := 1; ; failures++ {
		err := c.preload(ctx)
		if err == nil {
			c.ready.Store(true)
			return nil
		}
		if ctx.Err() != nil || c.ctx.Err() != nil {
			return err
		}
		wait := backoff.Jittered(c.preloadRetry, c.preloadRetryMax, failures)
		c.logger.Warn("preload closed periods into memory failed; it is tried again soon", "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-c.ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// preload is one try of Preload: it loads the large closed periods that fit
// the budget, the latest ended first, one at a time.
func (c *Cache) preload(ctx context.Context) error {
	periods, err := c.source.LargeClosedPeriods(ctx, preloadPeriods)
	if err != nil {
		return fmt.Errorf("preload closed periods: %w", err)
	}
	for _, p := range periods {
		b, err := c.source.Board(ctx, p.Board)
		if err != nil {
			return fmt.Errorf("preload closed periods: %w", err)
		}
		if b == nil {
			continue
		}
		job := c.startPeriodLoad(b, p.Key, p.Participants)
		if job == nil {
			continue // loaded already, or over the budget
		}
		select {
		case <-job.done:
		case <-ctx.Done():
			return fmt.Errorf("preload closed periods: %w", ctx.Err())
		}
		if job.err != nil {
			return fmt.Errorf("preload closed period %s of %s: %w", p.Key, p.Board, job.err)
		}
		if c.PeriodLoaded(p.Board, p.Key) {
			c.logger.Info("closed period preloaded into memory", "board", p.Board, "period", p.Key, "players", p.Participants)
		}
	}
	return nil
}

// Ready reports whether Preload has loaded every large closed period that
// fits.
func (c *Cache) Ready() bool { return c.ready.Load() }

// holding is what one period holds of the budget.
type holding struct {
	end     time.Time
	players int
	name    string
	forget  func()
}

// makeRoomBefore reports whether players of a period ending at end fit the
// budget, forgetting the periods that end before end, on any board, oldest
// first, to make them fit: the newest are the ones players read. A period
// never takes the room of a newer one, so a read of an older period cannot
// push out the period just closed. name says what needs the room, for the
// log. Held with c.mu.
func (c *Cache) makeRoomBefore(end time.Time, players int, name string) bool {
	var older []holding
	olderPlayers := 0
	for _, h := range c.periods.holdings(c) {
		if h.end.Before(end) {
			older = append(older, h)
			olderPlayers += h.players
		}
	}
	if c.held-olderPlayers+players > c.maxPlayers {
		return false
	}
	slices.SortFunc(older, func(a, b holding) int { return a.end.Compare(b.end) })
	for _, h := range older {
		if c.held+players <= c.maxPlayers {
			break
		}
		c.logger.Info("closed period forgotten to make room for a newer one; it is read from the database",
			"period", h.name, "for", name)
		h.forget()
	}
	return true
}

// Close stops loads in progress and waits for them; no load starts after.
func (c *Cache) Close() {
	c.mu.Lock()
	c.cancel()
	c.mu.Unlock()
	c.loads.Wait()
}
