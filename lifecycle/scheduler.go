package lifecycle

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// DueStore finds the months whose close should run.
type DueStore interface {
	// MonthsToClose returns the CLOSING months and, when auto is true, the
	// OPEN months whose closesAt has passed, with their Month and Status.
	MonthsToClose(ctx context.Context, auto bool) ([]leaderboard.MonthInfo, error)
}

// Task is a periodic duty of every instance, such as retention or checking
// the versions of the closed months held in memory. It returns an error to
// be logged; the next tick runs it again.
type Task struct {
	Name string
	Run  func(ctx context.Context) error
}

// Scheduler is the loop every instance runs: at start and then every
// Interval, it has Closer start the close of each period that is due
// (AutoClose) and resume each close found CLOSING with no job running here,
// then runs its Tasks.
type Scheduler struct {
	// Store finds main's due months, whose closes Closer's Months run.
	Store     DueStore
	Closer    *PeriodCloser
	AutoClose bool
	Interval  time.Duration
	Tasks     []Task
	Logger    *slog.Logger
}

// Run ticks until ctx ends. An Interval of 0 means 30 s.
func (s *Scheduler) Run(ctx context.Context) {
	if s.Interval <= 0 {
		s.Interval = 30 * time.Second
	}
	ticker := time.NewTicker(s.Interval)
	defer ticker.Stop()
	for {
		s.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// tickTimeout bounds one tick, however short the interval.
const tickTimeout = 30 * time.Second

// Tick runs one round of the scheduler's duties, within max(Interval, 30 s).
func (s *Scheduler) Tick(parent context.Context) {
	ctx, cancel := context.WithTimeout(parent, max(s.Interval, tickTimeout))
	defer cancel()
	if months := s.Closer.opts.Months; months != nil {
		s.startMonths(ctx, parent, months)
	}
	// In the background: a storm of due periods takes longer than a tick.
	s.Closer.Kick(s.AutoClose)
	var wg sync.WaitGroup
	for _, task := range s.Tasks {
		wg.Go(func() {
			if err := task.Run(ctx); err != nil && ctx.Err() == nil {
				s.Logger.Warn("scheduler: "+task.Name, "err", err)
			}
		})
	}
	wg.Wait()
}

// startMonths has months start the close of each of main's months that is
// due and resume each found CLOSING with no job running here.
func (s *Scheduler) startMonths(ctx, parent context.Context, months *MonthCloser) {
	due, err := s.Store.MonthsToClose(ctx, s.AutoClose)
	if err != nil && parent.Err() == nil {
		// A look cut short by a stop is no trouble of the database's.
		s.Logger.Warn("scheduler: find months to close", "err", err)
	}
	for _, info := range due {
		if months.Running(info.Month) {
			continue
		}
		why := "due"
		if info.Status == leaderboard.MonthClosing {
			// A close found CLOSING with no job here is running on another
			// instance (the job then waits for it) or was interrupted.
			why = "resumed"
			s.Logger.Warn("found a month CLOSING with no close job in this instance; resuming it", "month", info.Month.String())
		}
		months.start(info.Month, why)
	}
}
