package lifecycle

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/backoff"
)

// PeriodStore is what closing the periods of every board, main's months
// included, needs of the database.
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
	// StopPeriod accepts the period's close: an OPEN period turns CLOSING,
	// takes no more events and is closed by any instance's look should this
	// close be cut off. It returns the period as it stands.
	StopPeriod(ctx context.Context, board, key string) (*leaderboard.Period, error)
	// ClosePeriod closes the period, waiting for a close of it elsewhere.
	ClosePeriod(ctx context.Context, board, key string) (*leaderboard.Period, error)
	// ClearPeriod empties an OPEN period and records why.
	ClearPeriod(ctx context.Context, board, key, reason string) (*leaderboard.Period, error)
	// Period returns the period as it stands.
	Period(ctx context.Context, board, key string) (*leaderboard.Period, error)
}

// LockWatcher tells whether a period's close lock is held on the server
// that takes writes; a PeriodStore that implements it lets a PeriodCloser
// notice that a close's session is on a primary lost without a reset, and
// cancel it, so that it is tried again on the new primary.
type LockWatcher interface {
	CloseLockHeld(ctx context.Context, board, key string) (bool, error)
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
	// Retry is how long after a failed close (a lost database) it is tried
	// again (default 1 s), doubling with each failure in a row up to
	// RetryMax (default 10 s), each wait drawn from the upper half of that
	// (backoff.Jittered) so that instances do not try in step: a close cut off resumes within seconds of the
	// database's return, not at the scheduler's next tick. A close an admin
	// asked for is retried so for up to Timeout, then left to the looks.
	Retry, RetryMax time.Duration
	// Watch is how often a running close asks the primary whether the
	// close locks it took are still held, when the store is a LockWatcher
	// (default 5 s). Twice in a row not held, and the close is cancelled and
	// tried again.
	Watch time.Duration
	// Poll is how soon a look runs again when it found a CLOSING period
	// whose close another instance holds (default 1 s): should that
	// instance die, this one takes the close over within about Poll.
	Poll time.Duration
}

// PeriodCloser closes the periods of every board: those that the scheduler
// finds due, in groups, and those an admin asks to close (ClosePeriod) in
// the background, so that a request that gives up does not cut a close
// short. Any number of instances may close the same periods: the database
// closes each exactly once, and an instance skips a period another one is
// closing. It implements leaderboard.Closer.
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
	requested map[periodRef]*periodJob
	// draining is set while a look's closes run; again and againAuto ask
	// for another look once it ends.
	draining, again, againAuto bool
	// auto is the last look's: the retries' looks take it.
	auto bool
	// wake kicks a look at the next closesAt, sooner than the scheduler's
	// next tick may come.
	wake *time.Timer
	// retry kicks a look after a look whose closes failed (failures in a
	// row) or that left a CLOSING period to another instance.
	retry    *time.Timer
	failures int
}

// periodJob is a close an admin asked for, running in this instance:
// stopped is closed once its stop committed (stopErr nil) or failed, done
// once it ended, with err set when it failed.
type periodJob struct {
	stopped, done chan struct{}
	stopErr, err  error
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
	if opts.Retry <= 0 {
		opts.Retry = time.Second
	}
	if opts.RetryMax <= 0 {
		opts.RetryMax = 10 * time.Second
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Watch <= 0 {
		opts.Watch = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &PeriodCloser{store: store, opts: opts, logger: logger, ctx: ctx, cancel: cancel,
		slots: make(chan struct{}, opts.Concurrency), requested: map[periodRef]*periodJob{}}
}

// ClosePeriod starts the close of period key of board, or joins the one
// this instance runs, and returns the period once it is CLOSED or, after
// MaxWait or when ctx ends, as it stands. The close is accepted once the
// period is CLOSING in the database (StopPeriod), within MaxWait: from then
// on it takes no event and is closed by some instance whatever becomes of
// this one; an error before that (UNAVAILABLE for a lost database) means it
// was not accepted. The close goes on when ctx ends. The store's errors (ENOTFOUND, EBADINPUT,
// ECONFLICT) are returned as they are.
func (c *PeriodCloser) ClosePeriod(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	// A CLOSED period starts no close: no job, no log line saying one
	// started. Any other answer, an error too, is the close's to give.
	if p, err := c.store.Period(ctx, board, key); err == nil && p != nil && p.Status == leaderboard.PeriodClosed {
		return p, nil
	}
	job := c.request(periodRef{board, key})
	timer := time.NewTimer(c.opts.MaxWait)
	defer timer.Stop()
	// The stop ends within MaxWait, so that the answer says whether the
	// close was accepted.
	select {
	case <-job.stopped:
		if job.stopErr != nil {
			return nil, job.stopErr
		}
	case <-ctx.Done():
	}
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
// its reason; see leaderboard.Closer.
func (c *PeriodCloser) ClearPeriod(ctx context.Context, board, key, reason string) (*leaderboard.Period, error) {
	return c.store.ClearPeriod(ctx, board, key, reason)
}

// request starts an admin's close of ref unless one runs in this instance,
// and returns the job.
func (c *PeriodCloser) request(ref periodRef) *periodJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	if job := c.requested[ref]; job != nil {
		return job
	}
	job := &periodJob{stopped: make(chan struct{}), done: make(chan struct{})}
	if c.ctx.Err() != nil {
		job.stopErr = leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down: the close of %s of %s was not started", ref.key, ref.board)
		job.err = job.stopErr
		close(job.stopped)
		close(job.done)
		return job
	}
	c.requested[ref] = job
	c.jobs.Go(func() {
		job.err = c.runRequested(ref, job)
		c.mu.Lock()
		delete(c.requested, ref)
		c.mu.Unlock()
		close(job.done)
	})
	return job
}

// isRequested reports whether an admin's close of ref runs in this
// instance: looks leave the period to it.
func (c *PeriodCloser) isRequested(ref periodRef) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requested[ref] != nil
}

// runRequested runs job, an admin's close of ref: it stops the period
// (within MaxWait), then closes it, trying again after Retry, doubling up
// to RetryMax, while the close fails for any other reason than the
// request's (a lost database), for up to Timeout; the period, CLOSING, is
// then left to the looks of every instance.
func (c *PeriodCloser) runRequested(ref periodRef, job *periodJob) error {
	stopCtx, cancel := context.WithTimeout(c.ctx, c.opts.MaxWait)
	_, job.stopErr = c.store.StopPeriod(stopCtx, ref.board, ref.key)
	cancel()
	close(job.stopped)
	if job.stopErr != nil {
		return job.stopErr
	}
	start := time.Now()
	for failures := 1; ; failures++ {
		err := c.closeOne(ref)
		switch leaderboard.ErrorCode(err) {
		case "", leaderboard.ENOTFOUND, leaderboard.EBADINPUT, leaderboard.ECONFLICT:
			return err
		}
		if c.ctx.Err() != nil {
			return leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down; the close of %s of %s, CLOSING, is resumed by a look of any instance", ref.key, ref.board)
		}
		wait := backoff.Jittered(c.opts.Retry, c.opts.RetryMax, failures)
		if time.Since(start)+wait > c.opts.Timeout {
			c.logger.Warn("period close failed; it is left to a later look", "board", ref.board, "period", ref.key, "why", "requested", "err", err)
			return err
		}
		c.logger.Warn("period close failed; it is tried again soon", "board", ref.board, "period", ref.key, "why", "requested", "in", wait, "err", err)
		select {
		case <-c.ctx.Done():
		case <-time.After(wait):
		}
	}
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
	ctx, stopWatch := c.watch(ctx, []leaderboard.Period{{Board: ref.board, Key: ref.key}})
	p, err := c.store.ClosePeriod(ctx, ref.board, ref.key)
	stopWatch()
	if err != nil {
		return err
	}
	c.logger.Info("period closed", "board", ref.board, "period", ref.key, "why", "requested", "status", string(p.Status),
		"participants", p.Participants, "digest", p.Digest, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// closeGroup closes the due periods of group, but those another instance is
// closing, once a slot is free, within Timeout, and returns those it closed
// and why some failed. Those left are tried again at a later look.
func (c *PeriodCloser) closeGroup(group []leaderboard.Period) ([]leaderboard.Period, error) {
	if !c.takeSlot() {
		return nil, nil
	}
	defer func() { <-c.slots }()
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.Timeout)
	defer cancel()
	start := time.Now()
	// One line a period at its start and at CLOSED; a period
	// of the group another instance is closing has no CLOSED line here.
	for _, p := range group {
		c.logger.Info("period close started", "board", p.Board, "period", p.Key, "why", "due", "group", len(group))
	}
	ctx, stopWatch := c.watch(ctx, group)
	closed, err := c.store.TryClosePeriods(ctx, group)
	stopWatch()
	took := time.Since(start).Round(time.Millisecond)
	if err != nil && c.ctx.Err() == nil {
		c.logger.Warn("period closes failed; they are tried again soon", "periods", len(group), "closed", len(closed), "err", err)
	}
	for _, p := range closed {
		c.logger.Info("period closed", "board", p.Board, "period", p.Key, "why", "due", "status", string(p.Status),
			"participants", p.Participants, "digest", p.Digest, "took", took)
	}
	if left := len(group) - len(closed); left > 0 && err == nil {
		c.logger.Info("period closes skipped: another instance is closing or has closed them", "periods", left)
	}
	if c.ctx.Err() != nil {
		err = nil
	}
	return closed, err
}

// Kick starts a look for due periods and their closes in the background,
// or, while one runs, another once it ends: the scheduler calls it every
// tick, and a storm of due periods takes as many looks as it needs.
func (c *PeriodCloser) Kick(auto bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.auto = auto
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
// another instance was closing is left to a later look, which the retry
// timer kicks soon (setRetry). Periods an admin's close in this instance
// holds are left to it. When auto, it then sets the wake for the next
// closesAt.
func (c *PeriodCloser) drain(auto bool) {
	start := time.Now()
	tried := map[periodRef]bool{}
	var (
		closed, resumed     int
		failed, closingLeft bool
	)
	for c.ctx.Err() == nil {
		due, err := c.lookUp(auto, len(tried))
		if err != nil {
			if c.ctx.Err() == nil {
				c.logger.Warn("scheduler: find periods to close", "err", err)
				failed = true
			}
			break
		}
		var todo []leaderboard.Period
		for _, p := range due {
			if ref := (periodRef{p.Board, p.Key}); !tried[ref] {
				tried[ref] = true
				if !c.isRequested(ref) {
					todo = append(todo, p)
				}
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
				done, err := c.closeGroup(group)
				n, left := closingIn(group, done)
				mu.Lock()
				closed, resumed = closed+len(done), resumed+n
				failed = failed || err != nil
				closingLeft = closingLeft || left
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	if closed > 0 {
		c.logger.Info("periods closed", "closed", closed, "resumed", resumed, "took", time.Since(start).Round(time.Millisecond))
	}
	c.setRetry(failed, closingLeft)
	if auto {
		c.setWake()
	}
}

// closingIn returns how many CLOSING periods of group are among those
// closed (closes accepted elsewhere, resumed here), and whether one is not:
// another instance holds its close, or it failed.
func closingIn(group, closed []leaderboard.Period) (resumed int, left bool) {
	for _, p := range group {
		if p.Status != leaderboard.PeriodClosing {
			continue
		}
		if slices.ContainsFunc(closed, func(c leaderboard.Period) bool { return c.Board == p.Board && c.Key == p.Key }) {
			resumed++
		} else {
			left = true
		}
	}
	return resumed, left
}

// setRetry kicks another look after a look whose closes failed (a lost
// database), Retry after the first such look, doubling up to RetryMax;
// after one that left a CLOSING period to another instance, Poll after it,
// so that the close is taken over soon should that instance die.
// Otherwise the next look is the scheduler's.
func (c *PeriodCloser) setRetry(failed, closingLeft bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.retry != nil {
		c.retry.Stop()
		c.retry = nil
	}
	var in time.Duration
	switch {
	case failed:
		c.failures++
		in = backoff.Jittered(c.opts.Retry, c.opts.RetryMax, c.failures)
		c.logger.Info("period closes are tried again soon", "in", in)
	case closingLeft:
		c.failures = 0
		in = c.opts.Poll
	default:
		c.failures = 0
		return
	}
	if c.ctx.Err() == nil {
		c.retry = time.AfterFunc(in, func() {
			c.mu.Lock()
			auto := c.auto
			c.mu.Unlock()
			c.Kick(auto)
		})
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

// Close cancels the running closes and waits for them;
// each rolls back and is closed again at a later look.
func (c *PeriodCloser) Close() {
	c.cancel()
	c.mu.Lock()
	if c.wake != nil {
		c.wake.Stop()
	}
	if c.retry != nil {
		c.retry.Stop()
	}
	c.mu.Unlock()
	c.jobs.Wait()
}

// watch returns ctx cancelled once the close lock of one of periods is
// twice in a row not held on the primary (LockWatcher), Watch apart: the
// close's session is on a lost primary, where its query would wait for a
// server that never answers. A close takes its lock within its first
// moments; one cancelled before it did is tried again, no harm done. A
// check that gets no answer counts neither way. stop ends the watch.
func (c *PeriodCloser) watch(ctx context.Context, periods []leaderboard.Period) (watched context.Context, stop func()) {
	watcher, ok := c.store.(LockWatcher)
	if !ok {
		return ctx, func() {}
	}
	watched, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(c.opts.Watch)
		defer ticker.Stop()
		missing := map[periodRef]int{}
		for {
			select {
			case <-watched.Done():
				return
			case <-ticker.C:
			}
			for _, p := range periods {
				ref := periodRef{p.Board, p.Key}
				checkCtx, cancelCheck := context.WithTimeout(watched, c.opts.Watch)
				held, err := watcher.CloseLockHeld(checkCtx, p.Board, p.Key)
				cancelCheck()
				switch {
				case err != nil:
				case held:
					missing[ref] = 0
				default:
					missing[ref]++
				}
				if missing[ref] == 2 {
					c.logger.Warn("the primary no longer holds the lock of a running close: its session is on a lost server; cancelling it",
						"board", p.Board, "period", p.Key)
					cancel()
					return
				}
			}
		}
	}()
	return watched, func() { cancel(); <-done }
}
