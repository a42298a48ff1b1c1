package lifecycle

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// PeriodStore is what closing the periods of boards other than main needs
// of the database.
type PeriodStore interface {
	// PeriodsToClose returns up to limit periods whose close should run:
	// the CLOSING ones and, when auto is true, the OPEN ones past their
	// closesAt, with their Board, Key and Status.
	PeriodsToClose(ctx context.Context, auto bool, limit int) ([]leaderboard.Period, error)
	// TryClosePeriods closes the periods, many at once, but those another
	// instance is closing, and returns those it closed; an error says which
	// failed.
	TryClosePeriods(ctx context.Context, periods []leaderboard.Period) ([]leaderboard.Period, error)
	// NextPeriodClose returns how long until the earliest closesAt still
	// to come of the OPEN periods; false when none has one.
	NextPeriodClose(ctx context.Context) (time.Duration, bool, error)
	// ClosePeriod closes the period, waiting for a close of it elsewhere.
	ClosePeriod(ctx context.Context, board, key string) (*leaderboard.Period, error)
	// ClearPeriod empties an OPEN period and records why.
	ClearPeriod(ctx context.Context, board, key, reason string) (*leaderboard.Period, error)
	// Period returns the period as it stands.
	Period(ctx context.Context, board, key string) (*leaderboard.Period, error)
}

// PeriodCloserOptions tune a PeriodCloser.
type PeriodCloserOptions struct {
	// MaxWait is how long ClosePeriod waits for the close before it answers
	// with the period as it stands (default 10 s).
	MaxWait time.Duration
	// Timeout bounds each close (default 30 min); a close past it is rolled
	// back and tried again at a later look.
	Timeout time.Duration
	// Concurrency is how many closes this instance runs at once (default
	// 4): a storm of due periods closes a few groups at a time, leaving the
	// pool's other connections to requests.
	Concurrency int
	// Group is how many due periods one close takes, in one transaction
	// (default 100): a storm's cost is its commits and round trips, not
	// its ranking.
	Group int
	// Batch is how many due periods one look reads (default 1000).
	Batch int
	// Months closes main's periods, its months, for ClosePeriod; nil
	// answers EBADINPUT for main.
	Months leaderboard.Closer
}

// PeriodCloser closes the periods of boards other than main: those that
// the scheduler finds due, in groups, and those an admin asks to
// close (ClosePeriod) in the background, so that a request that gives up
// does not cut a close short. Any number of instances may close the same
// periods: the database closes each exactly once, and an instance skips a
// period another one is closing. It implements leaderboard.PeriodCloser.
type PeriodCloser struct {
	store  PeriodStore
	opts   PeriodCloserOptions
	logger *slog.Logger

	// ctx is the closes' context: it ends with Close, not with a request.
	ctx    context.Context
	cancel context.CancelFunc
	jobs   sync.WaitGroup
	// slots holds a token per close running in this instance.
	slots chan struct{}

	mu sync.Mutex
	// requested are the closes that admins asked for, running.
	requested map[periodRef]*closeJob
	// draining is set while a look's closes run; again and againAuto ask
	// for another look once it ends.
	draining, again, againAuto bool
	// wake kicks a look at the next closesAt, sooner than the scheduler's
	// next tick may come.
	wake *time.Timer
}

// periodRef names a period of a board.
type periodRef struct{ board, key string }

// NewPeriodCloser returns a PeriodCloser over store.
func NewPeriodCloser(store PeriodStore, logger *slog.Logger, opts PeriodCloserOptions) *PeriodCloser {
	if opts.MaxWait <= 0 {
		opts.MaxWait = 10 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Minute
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.Batch <= 0 {
		opts.Batch = 1000
	}
	if opts.Group <= 0 {
		opts.Group = 100
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &PeriodCloser{store: store, opts: opts, logger: logger, ctx: ctx, cancel: cancel,
		slots: make(chan struct{}, opts.Concurrency), requested: map[periodRef]*closeJob{}}
}

// ClosePeriod starts the close of period key of board, or joins the one
// this instance runs, and returns the period once it is CLOSED or, after
// MaxWait or when ctx ends, as it stands. The close goes on when ctx ends.
// main's periods are its months, closed by Months. The store's errors
// (ENOTFOUND, EBADINPUT, ECONFLICT) are returned as they are.
func (c *PeriodCloser) ClosePeriod(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	if board == leaderboard.MainBoard && c.opts.Months != nil {
		m, err := leaderboard.ParseMonth(key)
		if err != nil {
			return nil, err
		}
		if _, err := c.opts.Months.CloseMonth(ctx, m); err != nil {
			return nil, err
		}
		return c.read(ctx, board, key)
	}
	// A CLOSED period starts no close: no job, no log line saying one
	// started. Any other answer, an error too, is the close's to give.
	if p, err := c.store.Period(ctx, board, key); err == nil && p != nil && p.Status == leaderboard.PeriodClosed {
		return p, nil
	}
	job := c.request(periodRef{board, key})
	timer := time.NewTimer(c.opts.MaxWait)
	defer timer.Stop()
	select {
	case <-job.done:
		if job.err != nil {
			return nil, job.err
		}
	case <-timer.C:
	case <-ctx.Done():
	}
	return c.read(ctx, board, key)
}

// read returns the period as it stands, on a context of its own: the
// caller's may have ended.
func (c *PeriodCloser) read(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return c.store.Period(readCtx, board, key)
}

// ClearPeriod empties OPEN period key of board and records the clear with
// its reason; see leaderboard.PeriodCloser.
func (c *PeriodCloser) ClearPeriod(ctx context.Context, board, key, reason string) (*leaderboard.Period, error) {
	return c.store.ClearPeriod(ctx, board, key, reason)
}

// request starts an admin's close of ref unless one runs in this instance,
// and returns the job.
func (c *PeriodCloser) request(ref periodRef) *closeJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	if job := c.requested[ref]; job != nil {
		return job
	}
	job := &closeJob{done: make(chan struct{})}
	if c.ctx.Err() != nil {
		job.err = leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down; the close of %s of %s runs at a later look", ref.key, ref.board)
		close(job.done)
		return job
	}
	c.requested[ref] = job
	c.jobs.Go(func() {
		job.err = c.closeOne(ref)
		c.mu.Lock()
		delete(c.requested, ref)
		c.mu.Unlock()
		close(job.done)
	})
	return job
}

// takeSlot waits for one of the slots of closes; false once the closer is
// closing.
func (c *PeriodCloser) takeSlot() bool {
	select {
	case c.slots <- struct{}{}:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// closeOne closes ref, an admin's request, once a slot is free, within
// Timeout, waiting for a close of it elsewhere.
func (c *PeriodCloser) closeOne(ref periodRef) error {
	if !c.takeSlot() {
		return leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down; the close of %s of %s runs at a later look", ref.key, ref.board)
	}
	defer func() { <-c.slots }()
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.Timeout)
	defer cancel()
	start := time.Now()
	c.logger.Info("period close started", "board", ref.board, "period", ref.key, "why", "requested")
	p, err := c.store.ClosePeriod(ctx, ref.board, ref.key)
	if err != nil {
		// A close the request should not have asked for (an unknown board,
		// a bad key, a period not started) is the caller's to hear of.
		switch leaderboard.ErrorCode(err) {
		case leaderboard.ENOTFOUND, leaderboard.EBADINPUT, leaderboard.ECONFLICT:
		default:
			c.logger.Warn("period close failed; it is tried again at a later look", "board", ref.board, "period", ref.key, "why", "requested", "err", err)
		}
		return err
	}
	c.logger.Info("period closed", "board", ref.board, "period", ref.key, "why", "requested", "status", string(p.Status),
		"participants", p.Participants, "digest", p.Digest, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// closeGroup closes the due periods of group, but those another instance is
// closing, once a slot is free, within Timeout, and returns how many it
// closed. Those left are tried again at a later look.
func (c *PeriodCloser) closeGroup(group []leaderboard.Period) int {
	if !c.takeSlot() {
		return 0
	}
	defer func() { <-c.slots }()
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.Timeout)
	defer cancel()
	start := time.Now()
	// One line a period at its start and at CLOSED, as for months; a period
	// of the group another instance is closing has no CLOSED line here.
	for _, p := range group {
		c.logger.Info("period close started", "board", p.Board, "period", p.Key, "why", "due", "group", len(group))
	}
	closed, err := c.store.TryClosePeriods(ctx, group)
	took := time.Since(start).Round(time.Millisecond)
	if err != nil && c.ctx.Err() == nil {
		c.logger.Warn("period closes failed; they are tried again at a later look", "periods", len(group), "closed", len(closed), "err", err)
	}
	for _, p := range closed {
		c.logger.Info("period closed", "board", p.Board, "period", p.Key, "why", "due", "status", string(p.Status),
			"participants", p.Participants, "digest", p.Digest, "took", took)
	}
	if left := len(group) - len(closed); left > 0 && err == nil {
		c.logger.Info("period closes skipped: another instance is closing or has closed them", "periods", left)
	}
	return len(closed)
}

// Kick starts a look for due periods and their closes in the background,
// or, while one runs, another once it ends: the scheduler calls it every
// tick, and a storm of due periods takes as many looks as it needs.
func (c *PeriodCloser) Kick(auto bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.draining {
		c.again, c.againAuto = true, c.againAuto || auto
		return
	}
	if c.ctx.Err() != nil {
		return
	}
	c.draining = true
	c.jobs.Go(func() {
		for {
			c.drain(auto)
			c.mu.Lock()
			if !c.again || c.ctx.Err() != nil {
				c.draining = false
				c.mu.Unlock()
				return
			}
			auto = c.againAuto
			c.again, c.againAuto = false, false
			c.mu.Unlock()
		}
	})
}

// drain closes due periods, Batch at a time in groups of Group, until a
// look finds none it has not tried: a period whose close failed or that
// another instance was closing is left to a later look. When auto, it then
// sets the wake for the next closesAt.
func (c *PeriodCloser) drain(auto bool) {
	start := time.Now()
	tried := map[periodRef]bool{}
	closed := 0
	for c.ctx.Err() == nil {
		due, err := c.lookUp(auto, len(tried))
		if err != nil {
			if c.ctx.Err() == nil {
				c.logger.Warn("scheduler: find periods to close", "err", err)
			}
			break
		}
		var todo []leaderboard.Period
		for _, p := range due {
			if ref := (periodRef{p.Board, p.Key}); !tried[ref] {
				tried[ref] = true
				todo = append(todo, p)
			}
		}
		if len(todo) == 0 {
			break
		}
		// Instances that find the same storm walk it in different orders,
		// so that their groups seldom reach for the same periods at once.
		rand.Shuffle(len(todo), func(i, j int) { todo[i], todo[j] = todo[j], todo[i] })
		var (
			wg sync.WaitGroup
			mu sync.Mutex
		)
		for group := range slices.Chunk(todo, c.opts.Group) {
			wg.Go(func() {
				n := c.closeGroup(group)
				mu.Lock()
				closed += n
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	if closed > 0 {
		c.logger.Info("periods closed", "closed", closed, "took", time.Since(start).Round(time.Millisecond))
	}
	if auto {
		c.setWake()
	}
}

// setWake sets the wake for the next closesAt of an OPEN period: a storm
// due at midnight starts then, not at the scheduler's next tick, up to an
// interval (30 s by default) later. A period opened since, due sooner, is
// found at the next tick, which sets the wake again.
func (c *PeriodCloser) setWake() {
	ctx, cancel := context.WithTimeout(c.ctx, tickTimeout)
	defer cancel()
	in, ok, err := c.store.NextPeriodClose(ctx)
	if err != nil {
		if c.ctx.Err() == nil {
			c.logger.Warn("scheduler: find the next period close", "err", err)
		}
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wake != nil {
		c.wake.Stop()
		c.wake = nil
	}
	if ok && c.ctx.Err() == nil {
		c.wake = time.AfterFunc(in, func() { c.Kick(true) })
	}
}

// lookUp reads the due periods: a Batch more than those already tried.
func (c *PeriodCloser) lookUp(auto bool, tried int) ([]leaderboard.Period, error) {
	ctx, cancel := context.WithTimeout(c.ctx, tickTimeout)
	defer cancel()
	return c.store.PeriodsToClose(ctx, auto, c.opts.Batch+tried)
}

// Close cancels the running closes and waits for them; each rolls back
// and is closed again at a later look.
func (c *PeriodCloser) Close() {
	c.cancel()
	c.mu.Lock()
	if c.wake != nil {
		c.wake.Stop()
	}
	c.mu.Unlock()
	c.jobs.Wait()
}
