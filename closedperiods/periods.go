package closedperiods

import (
	"context"
	"time"

	"github.com/gamebackend/leaderboard"
)

// Closed periods of every board, main's months among them, served from
// memory within one budget: one count of players for all, the newest
// period (by its end) pushing out older ones. A period
// this instance closes is handed over by its close as it commits
// (PeriodClosed); a large one (final ranks in a partition of their own) is
// loaded at start (Preload); any other is loaded in the background after
// the first read that finds it CLOSED, one load at a time per period, while
// its readers go on reading the source. Both are admitted and held alike. A
// correction of a closed period, on any board, bumps its ranks version: the
// Watcher that hears of it or finds it has the cache forget the period and
// load it anew (Changed).

// FrozenPeriod is one closed period in memory, answering as the source
// does.
type FrozenPeriod interface {
	// Standing is the source's PeriodStanding of playerID in the period.
	Standing(b *leaderboard.Board, playerID string, above, below int) *leaderboard.Standing
	// Group is the source's PeriodGroup of playerIDs in the period.
	Group(b *leaderboard.Board, playerIDs []string) []leaderboard.Standing
	// Leaderboard is the source's PeriodLeaderboard of the period; ok is false
	// for a cursor only the source answers (a malformed one, another
	// period's).
	Leaderboard(first int, after string) (page *leaderboard.Page, ok bool)
	Players() int
	// Bytes is the memory the period's table holds.
	Bytes() int
	// Version is the ranks version the period was read at.
	Version() int
}

// periodKey names a period of a board.
type periodKey struct{ board, key string }

// periodTable is a loaded period and its place in the budget.
type periodTable struct {
	frozen FrozenPeriod
	end    time.Time
}

// periodLoad is the load of one period in progress; players and end are
// known, and held of the budget, once admitted. done is closed as it ends,
// with err set when it failed.
type periodLoad struct {
	players int
	end     time.Time
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
}

// newPeriodLoad returns a load in progress, cancelled by cancel.
func newPeriodLoad(cancel context.CancelFunc) *periodLoad {
	return &periodLoad{cancel: cancel, done: make(chan struct{})}
}

// periodsHeld is what the cache holds of periods, with its mutex: closing
// holds the periods this instance is closing, staged until their close
// commits (PeriodClosing).
type periodsHeld struct {
	tables   map[periodKey]*periodTable
	closing  map[periodKey]*periodTable
	loading  map[periodKey]*periodLoad
	tooLarge map[periodKey]bool
}

func newPeriodsHeld() periodsHeld {
	return periodsHeld{tables: map[periodKey]*periodTable{}, closing: map[periodKey]*periodTable{},
		loading: map[periodKey]*periodLoad{}, tooLarge: map[periodKey]bool{}}
}

// holdings returns what each period holds of c's budget, its table, its
// staged table or its admitted load. Held with c.mu.
func (h *periodsHeld) holdings(c *Cache) []holding {
	var out []holding
	for _, tables := range []map[periodKey]*periodTable{h.tables, h.closing} {
		for p, t := range tables {
			out = append(out, holding{end: t.end, players: t.frozen.Players(), name: p.board + " " + p.key,
				forget: func() { c.forgetPeriod(p) }})
		}
	}
	for p, job := range h.loading {
		if job.players > 0 {
			out = append(out, holding{end: job.end, players: job.players, name: p.board + " " + p.key,
				forget: func() { c.forgetPeriod(p) }})
		}
	}
	return out
}

// forgetPeriod forgets period p: its table, its staged table, its load, or
// that it did not fit. Held with c.mu.
func (c *Cache) forgetPeriod(p periodKey) {
	for _, tables := range []map[periodKey]*periodTable{c.periods.tables, c.periods.closing} {
		if t := tables[p]; t != nil {
			c.held -= t.frozen.Players()
			delete(tables, p)
		}
	}
	if job := c.periods.loading[p]; job != nil {
		job.cancel()
		c.held -= job.players
		delete(c.periods.loading, p)
	}
	delete(c.periods.tooLarge, p)
}

// PeriodStanding answers from memory when the period is loaded, and from
// the source otherwise; a final standing from the source starts loading its
// period.
func (c *Cache) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	if _, _, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, err
	}
	if f := c.period(periodKey{b.ID, key}); f != nil {
		return f.Standing(b, playerID, above, below), nil
	}
	if f := c.staged(periodKey{b.ID, key}); f != nil {
		return notFinal(f.Standing(b, playerID, above, below)), nil
	}
	s, err := c.source.PeriodStanding(ctx, b, key, playerID, above, below)
	if err == nil && s != nil && s.Final {
		c.startPeriodLoad(b, key, s.Total)
	}
	return s, err
}

// PeriodLeaderboard answers from memory when the period is loaded and the
// cursor one of its own, and from the source otherwise: main's months'
// pages always, whose cursors are the month contract's.
func (c *Cache) PeriodLeaderboard(ctx context.Context, b *leaderboard.Board, key string, first int, after string) (*leaderboard.Page, error) {
	if f := c.period(periodKey{b.ID, key}); f != nil && b.ID != leaderboard.MainBoard {
		if page, ok := f.Leaderboard(first, after); ok {
			return page, nil
		}
	}
	return c.source.PeriodLeaderboard(ctx, b, key, first, after)
}

// period returns period p's table, or nil when it is not loaded.
func (c *Cache) period(p periodKey) FrozenPeriod {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if t := c.periods.tables[p]; t != nil {
		return t.frozen
	}
	return nil
}

// staged returns period p's staged table, or nil when its close does not
// stage it here.
func (c *Cache) staged(p periodKey) FrozenPeriod {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if t := c.periods.closing[p]; t != nil {
		return t.frozen
	}
	return nil
}

// PeriodStaged reports whether period key of board is staged: answered from
// memory, as not final, while its close commits.
func (c *Cache) PeriodStaged(board, key string) bool { return c.staged(periodKey{board, key}) != nil }

// notFinal returns s, a standing of a staged period, as the source answers
// it while the period's close has not committed: live, without a tier.
func notFinal(s *leaderboard.Standing) *leaderboard.Standing {
	if s != nil {
		s.Final, s.Tier = false, nil
	}
	return s
}

// PeriodLoaded reports whether period key of board is answered from memory.
func (c *Cache) PeriodLoaded(board, key string) bool {
	return c.period(periodKey{board, key}) != nil
}

// startPeriodLoad loads period key of b in the background, unless it is
// loaded, loading, over the budget, or players alone exceed the budget, and
// returns the load, or the one already in progress; nil when none runs.
func (c *Cache) startPeriodLoad(b *leaderboard.Board, key string, players int) *periodLoad {
	p := periodKey{b.ID, key}
	c.mu.Lock()
	defer c.mu.Unlock()
	if job := c.periods.loading[p]; job != nil {
		return job
	}
	if c.periods.tables[p] != nil || c.periods.tooLarge[p] || c.ctx.Err() != nil {
		return nil
	}
	if players > c.maxPlayers {
		c.periods.tooLarge[p] = true
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	job := newPeriodLoad(cancel)
	c.periods.loading[p] = job
	c.loads.Go(func() {
		defer cancel()
		start := time.Now()
		f, err := c.source.LoadClosedPeriod(ctx, b, key, func(participants int, end time.Time) bool {
			return c.admit(p, job, participants, end)
		})
		c.loadsEnded.Add(1)
		c.loadNanos.Add(int64(time.Since(start)))
		if err != nil {
			c.failedLoads.Add(1)
			// A load cancelled (its period handed over by its close, or
			// the cache closed) is no error.
			if ctx.Err() == nil {
				c.logger.Error("load a closed period into memory", "board", p.board, "period", p.key, "err", err)
			}
		}
		job.err = err
		c.hold(p, job, f)
	})
	return job
}

// PeriodClosed holds period key of b, which a close of this instance built
// from its own rows and committed, as a load of it would (the one way into
// memory: admit, then hold), so that its first reads are answered from
// memory: admitted under the same budget, in place of a load of it in
// progress, which reads the same rows again. A period already held is kept.
func (c *Cache) PeriodClosed(b *leaderboard.Board, key string, f FrozenPeriod, end time.Time) {
	p := periodKey{b.ID, key}
	c.mu.Lock()
	if c.periods.tables[p] != nil || c.ctx.Err() != nil {
		c.mu.Unlock()
		return
	}
	c.forgetPeriod(p)
	job := newPeriodLoad(func() {})
	c.periods.loading[p] = job
	c.mu.Unlock()
	if !c.admit(p, job, f.Players(), end) {
		f = nil
	}
	c.hold(p, job, f)
	if f != nil && c.PeriodLoaded(b.ID, key) {
		c.logger.Info("closed period held in memory from its close", "board", b.ID, "period", key, "players", f.Players())
	}
}

// PeriodClosing stages period key of b, which a close of this instance
// built from its own rows and has yet to commit: its standings and groups
// are answered from f, as not final, until PeriodClosed holds the period or
// PeriodAbandoned drops it, so that its readers leave the database to the
// close. Its pages stay on the source. A period over the budget, or held
// already, is left as it is.
func (c *Cache) PeriodClosing(b *leaderboard.Board, key string, f FrozenPeriod, end time.Time) {
	p := periodKey{b.ID, key}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.periods.tables[p] != nil || c.ctx.Err() != nil {
		return
	}
	c.forgetPeriod(p)
	if !c.makeRoomBefore(end, f.Players(), p.board+" "+p.key) {
		return
	}
	c.held += f.Players()
	c.periods.closing[p] = &periodTable{frozen: f, end: end}
	c.logger.Debug("closing period answered from memory while its close commits", "board", b.ID, "period", key)
}

// PeriodAbandoned drops the staged table of period key of board, whose
// close did not commit.
func (c *Cache) PeriodAbandoned(board, key string) {
	p := periodKey{board, key}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.periods.closing[p]; t != nil {
		c.held -= t.frozen.Players()
		delete(c.periods.closing, p)
	}
}

// PeriodFits reports whether a closed period of participants players may be
// held at all: no more than the whole budget.
func (c *Cache) PeriodFits(participants int) bool { return participants <= c.maxPlayers }

// hold ends job, the load of period p, holding f, the period it loaded;
// nil when the load failed, was refused or found the period not CLOSED.
func (c *Cache) hold(p periodKey, job *periodLoad, f FrozenPeriod) {
	defer close(job.done)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.periods.loading[p] != job {
		return // forgotten while it loaded: its budget is released
	}
	delete(c.periods.loading, p)
	c.held -= job.players
	if f == nil {
		return
	}
	c.held += f.Players()
	c.periods.tables[p] = &periodTable{frozen: f, end: job.end}
}

// admit reserves the room of period p, loaded by job, for participants
// players ending at end, forgetting older periods to make it;
// false, and p left to the source, when it does not fit.
func (c *Cache) admit(p periodKey, job *periodLoad, participants int, end time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.periods.loading[p] != job {
		return false
	}
	if !c.makeRoomBefore(end, participants, p.board+" "+p.key) {
		c.periods.tooLarge[p] = true
		c.logger.Info("closed period too large for the snapshot budget; it is read from the database",
			"board", p.board, "period", p.key, "participants", participants, "budget", c.maxPlayers, "held", c.held)
		return false
	}
	job.players, job.end = participants, end
	c.held += participants
	return true
}

// ForgetPeriod forgets period key of board, dropped by retention.
func (c *Cache) ForgetPeriod(board, key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetPeriod(periodKey{board, key})
}

// Changed has the closed periods in memory follow period key of board to
// its ranks version, on any board, as the Watcher reports it: what is held
// of the period at another version is forgotten and the period loaded anew
// in the background at once, on every instance that hears of it, so that
// its next reads are answered from memory; version 0, a period no longer
// CLOSED, is only forgotten.
func (c *Cache) Changed(ctx context.Context, board, key string, version int) error {
	if _, _, err := leaderboard.MainMonth(&leaderboard.Board{ID: board}, key); err != nil {
		return err
	}
	p := periodKey{board, key}
	if c.holds(p, version) {
		return nil
	}
	c.mu.Lock()
	c.forgetPeriod(p)
	c.mu.Unlock()
	if version == 0 {
		return nil
	}
	// The load reads the period by its board's rules (order, cohorts).
	b, err := c.source.Board(ctx, board)
	if err != nil || b == nil {
		return err
	}
	c.startPeriodLoad(b, key, 0)
	return nil
}

// Follow has c follow, as Changed does, every period it holds that source
// shows at another ranks version or no longer CLOSED, before it returns.
// A correction or an erasure made through this instance calls it before
// its caller hears of the write, so that the caller's next read of this
// instance does not meet the version before it: the Watcher hears of the
// change too, but by a notification that may come after that read.
func (c *Cache) Follow(ctx context.Context, source VersionSource) error {
	boards, keys := c.Held()
	if len(boards) == 0 {
		return nil
	}
	current, err := closedVersions(ctx, source, boards, keys)
	if err != nil {
		return err
	}
	for i := range boards {
		if err := c.Changed(ctx, boards[i], keys[i], current[periodKey{boards[i], keys[i]}]); err != nil {
			return err
		}
	}
	return nil
}

// holds reports whether c holds period p at version.
func (c *Cache) holds(p periodKey, version int) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t := c.periods.tables[p]
	return t != nil && t.frozen.Version() == version
}

// Held returns the closed periods in memory, on every board, as boards[i]'s
// keys[i]: those whose versions the Watcher checks.
func (c *Cache) Held() (boards, keys []string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for p := range c.periods.tables {
		boards, keys = append(boards, p.board), append(keys, p.key)
	}
	return boards, keys
}
