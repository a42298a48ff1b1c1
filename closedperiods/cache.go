// Package closedperiods serves the standings of closed periods from memory:
// main's months (cache.go) and the periods of every other board (periods.go),
// within one memory budget. A closed period never changes unless an admin
// corrects it, so its final ranks are loaded once: at start (Preload), when
// the period closes (Install of a table the close built from its own output,
// or Load), or in the background after the first read that finds it closed.
// The instance that closes a month answers it from the table its close built
// as soon as it is built (Stage), while the month is CLOSING: its scores are
// frozen then. Until a period is loaded, and for periods that do not fit the
// budget, reads go to the store's index range scans, which stay the source
// of truth.
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
// ones, main's months by their final ranks.
type Source interface {
	leaderboard.StandingService
	leaderboard.GroupService
	// LoadClosedPeriod reads period key of b, a board other than main,
	// whole from one snapshot when it is CLOSED: it calls admit with the
	// period's participants and end first, and reads the period's rows
	// only when admit returns true. nil, without an error, when the period
	// is not CLOSED or admit refused it.
	LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
		admit func(participants int, end time.Time) bool) (FrozenPeriod, error)
	// Month returns main's month's info, or nil when it never opened.
	Month(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error)
	// Months returns up to first months of main, newest first.
	Months(ctx context.Context, first int) ([]leaderboard.MonthInfo, error)
	// FinalRanks reads closed month m's final ranks from one snapshot, as a
	// leaderboard.RankStream does with its entry and name, and returns their
	// ranks version.
	FinalRanks(ctx context.Context, m leaderboard.Month, entry func(leaderboard.RankEntry) error,
		name func(playerID, name string) error) (int, error)
	// LargeClosedPeriods returns up to limit closed periods of boards other
	// than main whose loads take seconds, the latest ended first, with
	// their Board, Key and Participants: Preload loads them too.
	LargeClosedPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error)
	// Board returns the board with id, or nil when there is none.
	Board(ctx context.Context, id string) (*leaderboard.Board, error)
}

// Cache is the leaderboard.StandingService of the closed periods in memory,
// for every board: it answers standings of closed periods from memory once
// they are loaded, main's months and the periods of other boards in one
// budget, and the rest from its source. It is safe for concurrent use.
type Cache struct {
	source     Source
	maxPlayers int
	logger     *slog.Logger
	ctx        context.Context
	cancel     context.CancelFunc
	loads      sync.WaitGroup
	ready      atomic.Bool

	mu      sync.RWMutex
	tables  map[leaderboard.Month]*table
	loading map[leaderboard.Month]*loadJob
	// closing holds the tables of months this instance is closing, staged
	// until their close commits.
	closing map[leaderboard.Month]*table
	// tooLarge holds the months that did not fit the budget: their reads
	// stay on the source.
	tooLarge map[leaderboard.Month]bool
	// loc is main's time zone, in which a month ends: months and periods
	// of other boards share the budget newest first (periods.go).
	loc     *time.Location
	periods periodsHeld
	held    int // players in tables and in tables being loaded, months' and periods'

	loadsEnded, failedLoads atomic.Int64 // loads from the source that ended
	loadNanos               atomic.Int64 // time spent in them

	// preloadRetry and preloadRetryMax space Preload's tries after a
	// failure: the first wait, doubled up to the most.
	preloadRetry, preloadRetryMax time.Duration
}

// Stats is what the cache holds and what its loads cost, for /metrics.
type Stats struct {
	Players int // players of the months in memory, staged ones included
	Bytes   int // memory their tables hold
	// Periods and PeriodPlayers are the closed periods of other boards in
	// memory and their players, in the same budget.
	Periods       int
	PeriodPlayers int
	Loads         int64         // loads from the database that ended, months' and periods'
	FailedLoads   int64         // of which failed
	LoadTime      time.Duration // spent in loads
}

// loadJob is the load of one month in progress.
type loadJob struct {
	participants int
	cancel       context.CancelFunc
	done         chan struct{} // closed when the load ended
	err          error         // why it failed, once done
}

// New returns a Cache in front of source that holds at most maxPlayers
// players across all closed periods, the newest first by their ends; main's
// months end in loc, main's time zone.
func New(source Source, maxPlayers int, loc *time.Location, logger *slog.Logger) *Cache {
	ctx, cancel := context.WithCancel(context.Background())
	return &Cache{
		source: source, maxPlayers: maxPlayers, logger: logger, ctx: ctx, cancel: cancel,
		tables: map[leaderboard.Month]*table{}, loading: map[leaderboard.Month]*loadJob{},
		closing:      map[leaderboard.Month]*table{},
		tooLarge:     map[leaderboard.Month]bool{},
		loc:          loc,
		periods:      newPeriodsHeld(),
		preloadRetry: time.Second, preloadRetryMax: 30 * time.Second,
	}
}

// monthStanding answers from memory when main's month m, period key of b,
// is loaded or staged, and from the source otherwise; a final standing from
// the source starts loading its month.
func (c *Cache) monthStanding(ctx context.Context, b *leaderboard.Board, key string, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	if t := c.month(m); t != nil {
		return t.standing(playerID, above, below), nil
	}
	s, err := c.source.PeriodStanding(ctx, b, key, playerID, above, below)
	if err == nil && s != nil && s.Final {
		c.startLoad(m, s.Total)
	}
	return s, err
}

// Players returns how many players the loaded months hold.
func (c *Cache) Players() int { return c.Stats().Players }

// Stats returns what the cache holds and what its loads cost so far.
func (c *Cache) Stats() Stats {
	s := Stats{Loads: c.loadsEnded.Load(), FailedLoads: c.failedLoads.Load(), LoadTime: time.Duration(c.loadNanos.Load())}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, tables := range []map[leaderboard.Month]*table{c.tables, c.closing} {
		for _, t := range tables {
			s.Players += t.players()
			s.Bytes += t.bytes()
		}
	}
	for _, t := range c.periods.tables {
		s.Periods++
		s.PeriodPlayers += t.frozen.Players()
	}
	return s
}

// Loaded reports whether closed month m is answered from memory; a month
// staged while it closes is not loaded yet.
func (c *Cache) Loaded(m leaderboard.Month) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tables[m] != nil
}

// Load loads closed month m into memory, unless it is loaded, and returns
// once it is, so that its first reads are answered from memory: the close
// job calls it, and so does whatever hears of a close made elsewhere. A
// month over the budget is left to the source, without an error. An error
// when m is not closed, when the load fails, or when ctx ends first (the
// load then goes on).
func (c *Cache) Load(ctx context.Context, m leaderboard.Month) error {
	info, err := c.source.Month(ctx, m)
	if err != nil {
		return fmt.Errorf("load %s into memory: %w", m, err)
	}
	if info == nil || info.Status != leaderboard.MonthClosed {
		return fmt.Errorf("load %s into memory: the month is not closed", m)
	}
	if c.ctx.Err() != nil {
		return fmt.Errorf("load %s into memory: the cache is closed", m)
	}
	return c.await(ctx, m, c.startLoad(m, info.Participants))
}

// preloadMonths bounds how many of the newest months Preload looks at, and
// preloadPeriods how many of the large closed periods of other boards.
const (
	preloadMonths  = 120
	preloadPeriods = 120
)

// Preload loads every closed month that fits the budget, newest first, one
// at a time, then the large closed periods of other boards
// (Source.LargeClosedPeriods) that fit, and returns once they are loaded;
// Ready reports true from then on. A server calls it at start before it
// says it is ready, so that no player's first read of a closed month, or of
// a period as large as one, waits for the source, nor competes with its
// load. A failed try (a lost database) is tried again after a wait that
// doubles from a second up to 30 s, until it succeeds or ctx ends: an
// instance whose first try failed still becomes ready. The room of a newer
// month still CLOSING is kept for it: its close takes the room of older
// months as soon as its table is built, and a month loaded into that room
// would be loaded for nothing (at ten million players, 50 s of CPU beside
// a close resumed at start).
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

// preload is one try of Preload.
func (c *Cache) preload(ctx context.Context) error {
	months, err := c.source.Months(ctx, preloadMonths)
	if err != nil {
		return fmt.Errorf("preload closed months: %w", err)
	}
	closing := 0 // players of newer months still closing
	for _, info := range months {
		if info.Status == leaderboard.MonthClosing {
			closing += info.Participants
		}
		if info.Status != leaderboard.MonthClosed {
			continue
		}
		c.mu.RLock()
		held := c.held
		c.mu.RUnlock()
		if held+closing+info.Participants > c.maxPlayers {
			continue // left to its first read, which loads it if there is room then
		}
		if err := c.await(ctx, info.Month, c.startLoad(info.Month, info.Participants)); err != nil {
			return fmt.Errorf("preload closed months: %w", err)
		}
	}
	return c.preloadPeriods(ctx)
}

// preloadPeriods loads the large closed periods of other boards that fit
// the budget, the latest ended first, one at a time.
func (c *Cache) preloadPeriods(ctx context.Context) error {
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

// Ready reports whether Preload has loaded every closed month and large
// closed period that fits.
func (c *Cache) Ready() bool { return c.ready.Load() }

// Invalidate forgets month m: its table, a load in progress, or that it did
// not fit; its budget is free again. The next read or Load loads it anew.
func (c *Cache) Invalidate(m leaderboard.Month) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget(m)
}

// forget is Invalidate with c.mu held.
func (c *Cache) forget(m leaderboard.Month) {
	for _, tables := range []map[leaderboard.Month]*table{c.tables, c.closing} {
		if t := tables[m]; t != nil {
			c.held -= t.players()
			delete(tables, m)
		}
	}
	if job := c.loading[m]; job != nil {
		job.cancel()
		c.held -= job.participants
		delete(c.loading, m)
	}
	delete(c.tooLarge, m)
}

// makeRoom reports whether players of month m fit the budget, forgetting
// months and periods older than m, oldest first, to make them fit: the
// newest are the ones players read. A month never takes the room of a newer
// one, so a read of an older month cannot push out the month just closed.
// Held with c.mu.
func (c *Cache) makeRoom(m leaderboard.Month, players int) bool {
	return c.makeRoomBefore(m.End(c.loc), players, "month", m.String())
}

// holding is what one month or period holds of the budget.
type holding struct {
	end     time.Time
	players int
	kind    string // "month" or "period"
	name    string
	forget  func()
}

// makeRoomBefore reports whether players of a month or period ending at end
// fit the budget, forgetting what ends before end, oldest first, to make
// them fit; kind and name say what needs the room, for the log. Held with
// c.mu.
func (c *Cache) makeRoomBefore(end time.Time, players int, kind, name string) bool {
	var older []holding
	olderPlayers := 0
	for month, n := range c.heldByMonth() {
		if e := month.End(c.loc); e.Before(end) {
			older = append(older, holding{end: e, players: n, kind: "month", name: month.String(),
				forget: func() { c.forget(month) }})
			olderPlayers += n
		}
	}
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
		c.logger.Info("closed "+h.kind+" forgotten to make room for a newer "+kind+"; it is read from the database",
			h.kind, h.name, "for", name)
		h.forget()
	}
	return true
}

// heldByMonth returns the players each month holds of the budget: its
// table, its staged table and its load in progress. Held with c.mu.
func (c *Cache) heldByMonth() map[leaderboard.Month]int {
	held := map[leaderboard.Month]int{}
	for _, tables := range []map[leaderboard.Month]*table{c.tables, c.closing} {
		for month, t := range tables {
			held[month] += t.players()
		}
	}
	for month, job := range c.loading {
		held[month] += job.participants
	}
	return held
}

// Close stops loads in progress and waits for them; no load starts after.
func (c *Cache) Close() {
	c.mu.Lock()
	c.cancel()
	c.mu.Unlock()
	c.loads.Wait()
}

// await waits for job, a load of month m (nil when none was needed), or
// for ctx.
func (c *Cache) await(ctx context.Context, m leaderboard.Month, job *loadJob) error {
	if job == nil {
		return nil
	}
	select {
	case <-job.done:
		if job.err != nil {
			return fmt.Errorf("load %s into memory: %w", m, job.err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("load %s into memory: %w", m, ctx.Err())
	}
}

// startLoad loads month m with its participants in the background and
// returns the load, or the one already in progress; nil when m is loaded
// or over the budget.
func (c *Cache) startLoad(m leaderboard.Month, participants int) *loadJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	if job := c.loading[m]; job != nil {
		return job
	}
	if c.tables[m] != nil || c.tooLarge[m] || c.ctx.Err() != nil {
		return nil
	}
	if !c.makeRoom(m, participants) {
		c.tooLarge[m] = true
		c.logger.Info("closed month too large for the snapshot budget; it is read from the database",
			"month", m.String(), "participants", participants, "budget", c.maxPlayers, "held", c.held)
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	job := &loadJob{participants: participants, cancel: cancel, done: make(chan struct{})}
	c.loading[m] = job
	c.held += participants
	c.loads.Go(func() {
		defer close(job.done)
		defer cancel()
		start := time.Now()
		t, err := c.load(ctx, m, participants)
		c.loadsEnded.Add(1)
		c.loadNanos.Add(int64(time.Since(start)))
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.loading[m] != job {
			// Invalidated, or replaced by a table its close installed
			// (the close's announcement can arrive first), while it
			// loaded: its budget is released, and nothing failed.
			return
		}
		job.err = err
		if err != nil {
			c.failedLoads.Add(1)
		}
		delete(c.loading, m)
		if err != nil {
			c.held -= participants // a later read tries again
			// A load cancelled by Close is no fault.
			if c.ctx.Err() == nil {
				c.logger.Error("load a closed month into memory", "month", m.String(), "err", err)
			}
			return
		}
		c.tables[m] = t
		c.logger.Info("closed month loaded into memory", "month", m.String(), "players", t.players(),
			"took", time.Since(start).Round(time.Millisecond))
	})
	return job
}

func (c *Cache) load(ctx context.Context, m leaderboard.Month, participants int) (*table, error) {
	var version int
	f, err := Build(m, participants, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		var err error
		version, err = c.source.FinalRanks(ctx, m, entry, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	f.table.version = version
	return f.table, nil
}

// Frozen is the in-memory table of one closed month, built outside the
// cache, for Install.
type Frozen struct {
	table *table
}

// Build builds the table of closed month m, of participants players, from
// ranks: the close job passes its own read of the month's new final ranks,
// made in its transaction, and Installs the table once the month is CLOSED,
// so that the month is in memory from its first read.
func Build(m leaderboard.Month, participants int, ranks leaderboard.RankStream) (*Frozen, error) {
	t := newTable(m, participants)
	if err := ranks(t.adder(participants), t.setName); err != nil {
		return nil, err
	}
	if err := t.complete(participants); err != nil {
		return nil, err
	}
	return &Frozen{table: t}, nil
}

// Install has the cache answer reads of f's month from f, whose ranks are
// of version, in place of a table or a load of the month it held. It
// reports false, and leaves the month to the source, when f does not fit
// the budget.
func (c *Cache) Install(f *Frozen, version int) bool {
	installed := *f.table
	installed.version = version
	return c.put(c.tables, &installed)
}

// Stage has the cache answer reads of f's month from f, not final, until
// the close that built f commits and Installs it, or the month is
// invalidated. The close calls it as soon as f is built: a CLOSING month
// takes no submissions and no corrections, so f holds its ranks already,
// and its readers stop competing with the close for the database. It
// reports false, and leaves the month to the source, when f does not fit
// the budget.
func (c *Cache) Stage(f *Frozen) bool {
	staged := *f.table
	staged.closing = true
	return c.put(c.closing, &staged)
}

// put puts t into tables in place of whatever the cache held of its month,
// if it fits the budget.
func (c *Cache) put(tables map[leaderboard.Month]*table, t *table) bool {
	m := t.month
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget(m)
	if !c.makeRoom(m, t.players()) {
		c.tooLarge[m] = true
		return false
	}
	c.held += t.players()
	tables[m] = t
	return true
}
