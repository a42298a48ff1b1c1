package lifecycle

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// A tick has the closer close the due periods, main's months among them,
// and runs the tasks; a second tick closes nothing twice.
func TestScheduler_StartsDueClosesAndRunsTasks(t *testing.T) {
	periods := newFakePeriods(1)
	c := NewPeriodCloser(periods, slog.New(slog.DiscardHandler), PeriodCloserOptions{})
	defer c.Close()
	ran := 0
	s := &Scheduler{Closer: c, AutoClose: true, Interval: time.Second,
		Logger: slog.New(slog.DiscardHandler),
		Tasks:  []Task{{Name: "count", Run: func(context.Context) error { ran++; return nil }}}}
	s.Tick(context.Background())
	waitDrained(t, c)
	s.Tick(context.Background())
	waitDrained(t, c)
	if ran != 2 {
		t.Fatalf("%d task runs for two ticks", ran)
	}
	if p, _ := periods.Period(context.Background(), "b000", "all"); p.Status != leaderboard.PeriodClosed {
		t.Fatalf("the due period after two ticks: %+v", p)
	}
}
