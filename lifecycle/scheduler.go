package lifecycle

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Task is a periodic duty of every instance, such as retention or checking
// the versions of the closed periods held in memory. It returns an error to
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
