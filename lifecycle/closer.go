// Package lifecycle runs the months of the event unattended: the close of a
// month as a background job that no request owns, and the scheduler that
// starts due closes, resumes interrupted ones and runs the other periodic
// duties of every instance.
package lifecycle

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// CloseStore is what a close job needs of the database.
type CloseStore interface {
	// Month returns the month's info, or nil when it never opened.
	Month(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error)
	// TryCloseMonth runs month m's close unless another instance runs it,
	// in which case ran is false and nothing was done.
	TryCloseMonth(ctx context.Context, m leaderboard.Month, hooks leaderboard.CloseHooks) (info *leaderboard.MonthInfo, ran bool, err error)
}

// LockWatcher tells whether a month's close lock is held on the server that
// takes writes; a CloseStore that implements it lets a MonthCloser notice that
// its close runs on a server that is no longer the primary.
type LockWatcher interface {
	CloseLockHeld(ctx context.Context, m leaderboard.Month) (bool, error)
}

// errLostLock ends a try whose close lock the primary no longer shows.
var errLostLock = errors.New("the close's database session is gone")

// MonthCloserOptions tune a MonthCloser.
type MonthCloserOptions struct {
	// MaxWait is how long CloseMonth waits for the close before it answers
	// with the month CLOSING (default 10 s).
	MaxWait time.Duration
	// Poll is how often a job whose close runs on another instance looks
	// whether it finished or was abandoned (default 1 s).
	Poll time.Duration
	// Timeout bounds each try of a close run by this instance (default
	// 30 min): past it the try is cancelled, its transaction rolled back
	// with its session, and its turn given up; the job fails, and the
	// scheduler starts it again. A stalled database holds a close no longer.
	Timeout time.Duration
	// Hooks follow each close run by this instance.
	Hooks leaderboard.CloseHooks
	// Ended, when set, is called as each job of this instance ends, however
	// it ends, so that what followed the job (its metrics) lets it go.
	Ended func(m leaderboard.Month)
	// Retry is how long after a failed try (a lost database, a try past its
	// Timeout) the job starts again by itself (default 2 s), doubling with
	// each failure of the month in a row up to RetryMax (default 30 s): a
	// close cut off resumes within seconds of the database's return, not
	// at the scheduler's next look.
	Retry, RetryMax time.Duration
	// Watch is how often a running try asks the primary whether its close
	// lock is still held, when the store is a LockWatcher (default 5 s).
	// Twice in a row not held, and the try is cancelled and tried again: its
	// session is on a server that is no longer the primary, lost without a
	// reset (its host down or hung, its standby promoted), where it would
	// otherwise wait until TCP gives up or Timeout.
	Watch time.Duration
}

// MonthCloser runs month closes as background jobs, at most one per month in
// this instance; a database lock makes it one across instances. The closes of
// several months (an instance back after an outage finds them due) take
// turns: each holds two connections and, at ten million players, about
// 600 MB while it runs, and four at once ran each at a fraction of its
// speed and left requests few connections (docs/design.md). It closes
// main's periods for the PeriodCloser and is safe for concurrent use.
type MonthCloser struct {
	store  CloseStore
	opts   MonthCloserOptions
	logger *slog.Logger

	// ctx is the jobs' context: it ends with Close, not with any request.
	ctx    context.Context
	cancel context.CancelFunc
	jobs   sync.WaitGroup

	// turn is held by the close this instance runs; one at a time.
	turn chan struct{}

	mu      sync.Mutex
	running map[leaderboard.Month]*closeJob
	// failures counts each month's failed jobs in a row, for the wait
	// before the next try.
	failures map[leaderboard.Month]int
}

// closeJob is one month's close in this instance; done is closed when it
// ends, with err set when it failed.
type closeJob struct {
	done chan struct{}
	err  error
}

// NewMonthCloser returns a MonthCloser that closes months in store.
func NewMonthCloser(store CloseStore, logger *slog.Logger, opts MonthCloserOptions) *MonthCloser {
	if opts.MaxWait <= 0 {
		opts.MaxWait = 10 * time.Second
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Minute
	}
	if opts.Retry <= 0 {
		opts.Retry = 2 * time.Second
	}
	if opts.RetryMax <= 0 {
		opts.RetryMax = 30 * time.Second
	}
	if opts.Watch <= 0 {
		opts.Watch = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &MonthCloser{store: store, opts: opts, logger: logger, ctx: ctx, cancel: cancel,
		turn: make(chan struct{}, 1), running: map[leaderboard.Month]*closeJob{},
		failures: map[leaderboard.Month]int{}}
}

// CloseMonth starts month m's close, or joins the one running, and returns
// the month once it is CLOSED or, after MaxWait or when ctx ends, as it
// stands. A CLOSED month is returned as it is, and a month that never
// opened is ENOTFOUND, both without a job; the close's own error when it
// failed before the wait ended.
func (c *MonthCloser) CloseMonth(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	// Nothing starts for a month with nothing to close: no job, no log line
	// saying one started, no metrics of it.
	info, err := c.store.Month(ctx, m)
	switch {
	case err != nil:
		return nil, err
	case info == nil:
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
	case info.Status == leaderboard.MonthClosed:
		return info, nil
	}
	// The job starts before anything waits on ctx, so that a caller who
	// leaves now still leaves a close running.
	job := c.start(m, "requested")
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
	// The caller may have gone: read the month on a context of its own.
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return c.store.Month(readCtx, m)
}

// start starts month m's close job unless one is running in this instance,
// and returns the job. why is logged: requested, due, resumed, retry.
func (c *MonthCloser) start(m leaderboard.Month, why string) *closeJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	if job := c.running[m]; job != nil {
		return job
	}
	job := &closeJob{done: make(chan struct{})}
	if c.ctx.Err() != nil {
		job.err = leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down; the close of %s resumes at its next start", m)
		close(job.done)
		return job
	}
	c.running[m] = job
	c.logger.Info("close job started", "month", m.String(), "why", why)
	c.jobs.Go(func() {
		job.err = c.run(m)
		c.mu.Lock()
		delete(c.running, m)
		retry := c.retryAfter(m, job.err)
		c.mu.Unlock()
		if c.opts.Ended != nil {
			c.opts.Ended(m)
		}
		close(job.done)
		if retry > 0 {
			c.retryLater(m, retry)
		}
	})
	return job
}

// retryAfter counts a job of month m that ended with err, and returns how
// long to wait before trying the month again; 0 when the month needs no
// other try. Held with c.mu.
func (c *MonthCloser) retryAfter(m leaderboard.Month, err error) time.Duration {
	if err == nil || leaderboard.ErrorCode(err) == leaderboard.ENOTFOUND || c.ctx.Err() != nil {
		delete(c.failures, m)
		return 0
	}
	c.failures[m]++
	wait := c.opts.Retry
	for range c.failures[m] - 1 {
		if wait >= c.opts.RetryMax {
			break
		}
		wait *= 2
	}
	return min(wait, c.opts.RetryMax)
}

// retryLater starts month m's close again after wait, unless the MonthCloser is
// closed first or a job of m runs by then (the scheduler's).
func (c *MonthCloser) retryLater(m leaderboard.Month, wait time.Duration) {
	c.logger.Info("close job tried again soon", "month", m.String(), "in", wait)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-c.ctx.Done():
	case <-timer.C:
		c.start(m, "retry")
	}
}

// Running reports whether month m's close job runs in this instance.
func (c *MonthCloser) Running(m leaderboard.Month) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running[m] != nil
}

// run closes month m, or waits while another instance does, until the
// month is CLOSED or the MonthCloser is closed.
func (c *MonthCloser) run(m leaderboard.Month) error {
	start := time.Now()
	for attempt := 1; ; attempt++ {
		// Once the instance running the close ends, either way, the lock is
		// free: this call then finds the month CLOSED, or closes it itself.
		try, err := c.tryClose(m)
		switch {
		case err != nil && errors.Is(err, context.Canceled) && c.ctx.Err() != nil:
			c.logger.Warn("close job cancelled by shutdown; it resumes at the next start", "month", m.String())
			return leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down; the close of %s resumes at its next start", m)
		case leaderboard.ErrorCode(err) == leaderboard.ENOTFOUND:
			return err
		case err != nil:
			c.logger.Error("close job failed; it is tried again", "month", m.String(), "err", err)
			return err
		case try.closed:
			c.logger.Info("close job finished", "month", m.String(), "status", string(try.info.Status),
				"participants", try.info.Participants, "digest", try.info.Digest, "took", time.Since(start).Round(time.Millisecond))
			return nil
		case try.ran:
			// The lock was free and the month CLOSED: another instance
			// closed it. Counting "close job finished" lines counts closes.
			c.logger.Info("close job ended: the month was closed by another instance", "month", m.String(),
				"status", string(try.info.Status), "waited", time.Since(start).Round(time.Millisecond))
			return nil
		case attempt == 1:
			c.logger.Info("close runs on another instance; waiting for it", "month", m.String())
		}
		select {
		case <-c.ctx.Done():
			return leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the service is shutting down")
		case <-time.After(c.opts.Poll):
		}
	}
}

// closeTry is what one try of a close found.
type closeTry struct {
	info   *leaderboard.MonthInfo
	ran    bool // this instance held the month's close lock
	closed bool // and committed the close
}

// tryClose tries month m's close once its turn comes; waiting on another
// instance's close holds no turn.
func (c *MonthCloser) tryClose(m leaderboard.Month) (closeTry, error) {
	select {
	case c.turn <- struct{}{}:
	case <-c.ctx.Done():
		return closeTry{}, c.ctx.Err()
	}
	defer func() { <-c.turn }()
	timed, cancel := context.WithTimeout(c.ctx, c.opts.Timeout)
	defer cancel()
	ctx, lose := context.WithCancelCause(timed)
	defer lose(nil)
	if watcher, ok := c.store.(LockWatcher); ok {
		go c.watchLock(ctx, watcher, m, lose)
	}
	var try closeTry
	hooks := c.opts.Hooks
	hooks.Closed = func(m leaderboard.Month, version int) {
		try.closed = true
		if c.opts.Hooks.Closed != nil {
			c.opts.Hooks.Closed(m, version)
		}
	}
	info, ran, err := c.store.TryCloseMonth(ctx, m, hooks)
	try.info, try.ran = info, ran
	if err != nil && errors.Is(context.Cause(ctx), errLostLock) {
		return try, leaderboard.Errorf(leaderboard.EUNAVAILABLE,
			"the close of %s lost its database session (the primary it ran on is gone): it is tried again", m)
	}
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return try, leaderboard.Errorf(leaderboard.EUNAVAILABLE,
			"the close of %s took longer than %s: it was rolled back, and is tried again", m, c.opts.Timeout)
	}
	return try, err
}

// watchLock asks, every Watch until ctx ends, whether month m's close lock
// is held on the primary, and ends the try with errLostLock when it is not,
// twice in a row. A check that gets no answer counts neither way.
func (c *MonthCloser) watchLock(ctx context.Context, watcher LockWatcher, m leaderboard.Month, lose context.CancelCauseFunc) {
	ticker := time.NewTicker(c.opts.Watch)
	defer ticker.Stop()
	missing := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		checkCtx, cancel := context.WithTimeout(ctx, c.opts.Watch)
		held, err := watcher.CloseLockHeld(checkCtx, m)
		cancel()
		switch {
		case err != nil:
		case held:
			missing = 0
		default:
			missing++
		}
		if missing == 2 {
			c.logger.Warn("the primary no longer holds the lock of a running close: its session is on a lost server; cancelling it",
				"month", m.String())
			lose(errLostLock)
			return
		}
	}
}

// Close cancels the running close jobs and waits for them. A cancelled close
// leaves its month CLOSING; the scheduler of the next instance resumes it.
func (c *MonthCloser) Close() {
	c.cancel()
	c.jobs.Wait()
}
