package lifecycle

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// dueMonths answers MonthsToClose with a fixed list, noting what it was asked.
type dueMonths struct {
	due  []leaderboard.MonthInfo
	auto []bool
}

func (d *dueMonths) MonthsToClose(_ context.Context, auto bool) ([]leaderboard.MonthInfo, error) {
	d.auto = append(d.auto, auto)
	return d.due, nil
}

func TestScheduler_StartsDueClosesResumesClosingAndRunsTasks(t *testing.T) {
	store := newFakeStore()
	closer := newTestCloser(store, time.Second)
	defer closer.Close()
	periods := newFakePeriods(1)
	c := NewPeriodCloser(periods, slog.New(slog.DiscardHandler), PeriodCloserOptions{Months: closer})
	defer c.Close()
	due := &dueMonths{due: []leaderboard.MonthInfo{{Month: november, Status: leaderboard.MonthClosing}}}
	ran := 0
	s := &Scheduler{Store: due, Closer: c, AutoClose: true, Interval: time.Second,
		Logger: slog.New(slog.DiscardHandler),
		Tasks:  []Task{{Name: "count", Run: func(context.Context) error { ran++; return nil }}}}
	s.Tick(context.Background())
	if !closer.Running(november) || ran != 1 || len(due.auto) != 1 || !due.auto[0] {
		t.Fatalf("after a tick: running %t, tasks %d, asked %v", closer.Running(november), ran, due.auto)
	}
	s.Tick(context.Background())
	close(store.release)
	for closer.Running(november) {
		time.Sleep(time.Millisecond)
	}
	waitDrained(t, c)
	if store.runs != 1 || ran != 2 {
		t.Fatalf("%d closes for two ticks, %d task runs", store.runs, ran)
	}
	if p, _ := periods.Period(context.Background(), "b000", "all"); p.Status != leaderboard.PeriodClosed {
		t.Fatalf("the due period of another board after two ticks: %+v", p)
	}
}
