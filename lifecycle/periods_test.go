package lifecycle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// fakePeriods is a set of periods whose closes take delay each; those in
// busy are being closed by another instance, those in failing fail (their
// stops too), those in failTimes fail their next closes as many times. A
// period with a time in dueAt is due from then on, others at once.
type fakePeriods struct {
	mu        sync.Mutex
	status    map[string]leaderboard.PeriodStatus // by board
	busy      map[string]bool
	failing   map[string]bool
	failTimes map[string]int
	dueAt     map[string]time.Time
	delay     time.Duration
	running   int
	most      int // most closes at once
	largest   int // most periods in one group
	closes    map[string]int
	released  chan struct{} // closed: delays end
	nextLooks int           // calls of NextPeriodClose
}

func newFakePeriods(n int) *fakePeriods {
	s := &fakePeriods{status: map[string]leaderboard.PeriodStatus{}, busy: map[string]bool{}, failing: map[string]bool{},
		failTimes: map[string]int{}, dueAt: map[string]time.Time{}, closes: map[string]int{}, released: make(chan struct{})}
	close(s.released)
	for i := range n {
		s.status[fmt.Sprintf("b%03d", i)] = leaderboard.PeriodOpen
	}
	return s
}

func (s *fakePeriods) PeriodsToClose(_ context.Context, _ bool, limit int) ([]leaderboard.Period, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []leaderboard.Period
	for board, status := range s.status {
		if status != leaderboard.PeriodClosed && len(due) < limit && !time.Now().Before(s.dueAt[board]) {
			due = append(due, leaderboard.Period{Board: board, Key: "all", Status: status})
		}
	}
	return due, nil
}

func (s *fakePeriods) close(ctx context.Context, board string, try bool) (*leaderboard.Period, bool, error) {
	s.mu.Lock()
	if try && s.busy[board] {
		s.mu.Unlock()
		return nil, false, nil
	}
	if s.failing[board] || s.failTimes[board] > 0 {
		s.failTimes[board]--
		s.mu.Unlock()
		return nil, true, errors.New("lost the database")
	}
	s.running++
	s.most = max(s.most, s.running)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
	}()
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, true, ctx.Err()
	}
	select {
	case <-s.released:
	case <-ctx.Done():
		return nil, true, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status[board] != leaderboard.PeriodClosed {
		s.closes[board]++
		s.status[board] = leaderboard.PeriodClosed
	}
	return &leaderboard.Period{Board: board, Key: "all", Status: s.status[board], Participants: 3}, true, nil
}

func (s *fakePeriods) TryClosePeriods(ctx context.Context, periods []leaderboard.Period) ([]leaderboard.Period, error) {
	s.mu.Lock()
	s.largest = max(s.largest, len(periods))
	s.mu.Unlock()
	var (
		closed []leaderboard.Period
		errs   []error
	)
	for _, p := range periods {
		c, ran, err := s.close(ctx, p.Board, true)
		switch {
		case err != nil:
			errs = append(errs, err)
		case ran:
			closed = append(closed, *c)
		}
	}
	return closed, errors.Join(errs...)
}

func (s *fakePeriods) NextPeriodClose(context.Context) (time.Duration, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextLooks++
	var next time.Time
	for board, at := range s.dueAt {
		if s.status[board] == leaderboard.PeriodOpen && time.Now().Before(at) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return time.Until(next), !next.IsZero(), nil
}

func (s *fakePeriods) StopPeriod(_ context.Context, board, key string) (*leaderboard.Period, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failing[board] {
		return nil, errors.New("lost the database")
	}
	if s.status[board] == leaderboard.PeriodOpen {
		s.status[board] = leaderboard.PeriodClosing
	}
	return &leaderboard.Period{Board: board, Key: key, Status: s.status[board]}, nil
}

func (s *fakePeriods) ClosePeriod(ctx context.Context, board, _ string) (*leaderboard.Period, error) {
	p, _, err := s.close(ctx, board, false)
	return p, err
}

func (s *fakePeriods) ClearPeriod(context.Context, string, string, string) (*leaderboard.Period, error) {
	return nil, errors.New("not used")
}

func (s *fakePeriods) Period(_ context.Context, board, key string) (*leaderboard.Period, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	status, ok := s.status[board]
	if !ok {
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", board)
	}
	return &leaderboard.Period{Board: board, Key: key, Status: status}, nil
}

// waitDrained waits until c's look and its closes have ended.
func waitDrained(t *testing.T, c *PeriodCloser) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		draining := c.draining
		c.mu.Unlock()
		if !draining {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the closes did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestPeriodCloser_KickClosesEveryDuePeriodAFewGroupsAtATime(t *testing.T) {
	store := newFakePeriods(40)
	store.delay = 2 * time.Millisecond
	store.busy["b001"], store.failing["b002"] = true, true
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{Concurrency: 3, Batch: 7, Group: 2})
	defer c.Close()
	c.Kick(true)
	c.Kick(true) // while the first look runs: one more look after it
	waitDrained(t, c)
	store.mu.Lock()
	for board, status := range store.status {
		want := leaderboard.PeriodClosed
		if board == "b001" || board == "b002" {
			want = leaderboard.PeriodOpen
		}
		if status != want || store.closes[board] > 1 {
			t.Errorf("%s is %s after %d closes, want %s", board, status, store.closes[board], want)
		}
	}
	if store.most > 3 || store.largest > 2 {
		t.Errorf("%d closes ran at once, at most 3 may; a group had %d periods, at most 2 may", store.most, store.largest)
	}
	// The period another instance held and the one that failed are tried
	// again at the next look.
	store.busy["b001"], store.failing["b002"] = false, false
	store.mu.Unlock()
	c.Kick(true)
	waitDrained(t, c)
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.status["b001"] != leaderboard.PeriodClosed || store.status["b002"] != leaderboard.PeriodClosed {
		t.Fatalf("left open after the next look: %v", store.status)
	}
}

func TestPeriodCloser_ClosePeriodAnswersWithinTheWaitAndTheCloseGoesOn(t *testing.T) {
	store := newFakePeriods(1)
	store.released = make(chan struct{})
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{MaxWait: 50 * time.Millisecond})
	defer c.Close()
	start := time.Now()
	p, err := c.ClosePeriod(context.Background(), "b000", "all")
	if err != nil || p.Status != leaderboard.PeriodClosing {
		t.Fatalf("answered %+v, %v; want the period CLOSING: the close is accepted and runs", p, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("answered after %s", took)
	}
	// A caller who leaves does not stop the close.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.ClosePeriod(ctx, "b000", "all"); err != nil {
		t.Fatal(err)
	}
	close(store.released)
	p, err = c.ClosePeriod(context.Background(), "b000", "all")
	if err != nil || p.Status != leaderboard.PeriodClosed {
		t.Fatalf("answered %+v, %v; want the period CLOSED", p, err)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.closes["b000"] != 1 {
		t.Fatalf("closed %d times", store.closes["b000"])
	}
}

// A close that could not even be accepted (its stop failed) is the
// caller's error.
func TestPeriodCloser_ClosePeriodReturnsTheStoresError(t *testing.T) {
	store := newFakePeriods(1)
	store.failing["b000"] = true
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{})
	defer c.Close()
	if _, err := c.ClosePeriod(context.Background(), "b000", "all"); err == nil || err.Error() != "lost the database" {
		t.Fatalf("got %v, want the close's error", err)
	}
}

// TestPeriodCloser_WakesAtTheNextCloseWithoutATick is the midnight storm's
// start: periods due shortly after a look are closed then, without waiting
// for the scheduler's next tick (30 s by default).
func TestPeriodCloser_WakesAtTheNextCloseWithoutATick(t *testing.T) {
	store := newFakePeriods(5)
	due := time.Now().Add(200 * time.Millisecond)
	for board := range store.status {
		store.dueAt[board] = due
	}
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{})
	defer c.Close()
	c.Kick(true) // the scheduler's one tick, before the periods are due
	deadline := time.Now().Add(5 * time.Second)
	for {
		store.mu.Lock()
		open := 0
		for _, status := range store.status {
			if status != leaderboard.PeriodClosed {
				open++
			}
		}
		store.mu.Unlock()
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d periods still open 5 s after they were due, with no tick", open)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if late := time.Since(due); late > time.Second {
		t.Errorf("closed %s after they were due", late)
	}
	// A look without auto close (the scheduler's AutoClose off) sets no
	// wake: nothing closes by itself then.
	waitDrained(t, c)
	store.mu.Lock()
	looks := store.nextLooks
	store.mu.Unlock()
	c.Kick(false)
	waitDrained(t, c)
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.nextLooks != looks {
		t.Errorf("a look without auto close looked for the next close")
	}
}

// logRecords returns the JSON log lines in out whose msg is msg.
func logRecords(t *testing.T, out *bytes.Buffer, msg string) []map[string]any {
	t.Helper()
	var records []map[string]any
	for line := range strings.Lines(out.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if r["msg"] == msg {
			records = append(records, r)
		}
	}
	return records
}

func TestPeriodCloser_LogsEachCloseAtItsStartAndAtClosed(t *testing.T) {
	var (
		out    bytes.Buffer
		logger = slog.New(slog.NewJSONHandler(&out, nil))
	)
	t.Run("Requested", func(t *testing.T) {
		out.Reset()
		store := newFakePeriods(1)
		c := NewPeriodCloser(store, logger, PeriodCloserOptions{})
		defer c.Close()
		if _, err := c.ClosePeriod(context.Background(), "b000", "all"); err != nil {
			t.Fatal(err)
		}
		// A period CLOSED already starts no close and logs nothing.
		if _, err := c.ClosePeriod(context.Background(), "b000", "all"); err != nil {
			t.Fatal(err)
		}
		started, closed := logRecords(t, &out, "period close started"), logRecords(t, &out, "period closed")
		if len(started) != 1 || started[0]["board"] != "b000" || started[0]["period"] != "all" || started[0]["why"] != "requested" {
			t.Fatalf("start lines %v, want one of b000 all, requested\n%s", started, out.String())
		}
		if len(closed) != 1 || closed[0]["board"] != "b000" || closed[0]["period"] != "all" ||
			closed[0]["participants"] != 3.0 || closed[0]["status"] != "CLOSED" || closed[0]["took"] == nil {
			t.Fatalf("closed lines %v, want one of b000 all with participants 3 and took\n%s", closed, out.String())
		}
	})
	t.Run("Due", func(t *testing.T) {
		out.Reset()
		store := newFakePeriods(5)
		store.busy["b001"] = true
		c := NewPeriodCloser(store, logger, PeriodCloserOptions{Group: 2})
		defer c.Close()
		c.Kick(true)
		waitDrained(t, c)
		started, closed := logRecords(t, &out, "period close started"), logRecords(t, &out, "period closed")
		if len(started) != 5 {
			t.Errorf("%d start lines, want one for each of 5 due periods\n%s", len(started), out.String())
		}
		boards := map[any]bool{}
		for _, r := range closed {
			if r["why"] != "due" || r["period"] != "all" || r["participants"] != 3.0 || r["took"] == nil {
				t.Errorf("closed line %v", r)
			}
			boards[r["board"]] = true
		}
		if len(closed) != 4 || boards["b001"] {
			t.Errorf("closed lines for %v, want the 4 periods this instance closed, not b001\n%s", boards, out.String())
		}
	})
}

// waitClosed waits until every period of store is CLOSED, for up to
// within.
func waitClosed(t *testing.T, store *fakePeriods, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		store.mu.Lock()
		var open []string
		for board, status := range store.status {
			if status != leaderboard.PeriodClosed {
				open = append(open, board+" "+string(status))
			}
		}
		store.mu.Unlock()
		if len(open) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not closed within %s: %v", within, open)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An accepted close whose tries fail (a lost database) is tried again by
// its job, soon, and the caller hears CLOSED, not the failure.
func TestPeriodCloser_AcceptedCloseThatFailsIsTriedAgainSoon(t *testing.T) {
	store := newFakePeriods(1)
	store.failTimes["b000"] = 3
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{MaxWait: 5 * time.Second,
		Retry: 10 * time.Millisecond, RetryMax: 20 * time.Millisecond})
	defer c.Close()
	start := time.Now()
	p, err := c.ClosePeriod(context.Background(), "b000", "all")
	if err != nil || p.Status != leaderboard.PeriodClosed {
		t.Fatalf("answered %+v, %v; want the period CLOSED after the retries", p, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("closed after %s: the retries waited too long", took)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.closes["b000"] != 1 || store.failTimes["b000"] != 0 {
		t.Fatalf("closed %d times, %d failures left", store.closes["b000"], store.failTimes["b000"])
	}
}

// A look whose closes failed (a lost database) is followed by another soon,
// with no tick: the periods close within seconds of the database's return.
func TestPeriodCloser_LookWhoseClosesFailedIsFollowedByAnotherSoon(t *testing.T) {
	store := newFakePeriods(3)
	store.failTimes["b001"] = 2
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{
		Retry: 10 * time.Millisecond, RetryMax: 20 * time.Millisecond})
	defer c.Close()
	c.Kick(true) // the scheduler's one tick
	waitClosed(t, store, 2*time.Second)
}

// A CLOSING period whose close another instance holds is looked at again
// every Poll: once that instance is gone (killed mid-close), this one
// closes it, with no tick.
func TestPeriodCloser_ClosingPeriodOfAnInstanceThatDiedIsTakenOver(t *testing.T) {
	store := newFakePeriods(1)
	store.status["b000"], store.busy["b000"] = leaderboard.PeriodClosing, true
	c := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{Poll: 10 * time.Millisecond})
	defer c.Close()
	c.Kick(false) // auto close off: CLOSING periods are closed all the same
	time.Sleep(50 * time.Millisecond)
	store.mu.Lock()
	if store.status["b000"] != leaderboard.PeriodClosing {
		t.Fatalf("a close held elsewhere was taken: %s", store.status["b000"])
	}
	store.busy["b000"] = false // the other instance died: its lock is free
	store.mu.Unlock()
	waitClosed(t, store, 2*time.Second)
}

// A close cut off by shutdown leaves the period CLOSING; the next closer (a
// restarted or another instance) closes it at its first look.
func TestPeriodCloser_CloseCutOffByShutdownIsFinishedByTheNextCloser(t *testing.T) {
	store := newFakePeriods(1)
	store.released = make(chan struct{})
	first := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{MaxWait: 20 * time.Millisecond})
	p, err := first.ClosePeriod(context.Background(), "b000", "all")
	if err != nil || p.Status != leaderboard.PeriodClosing {
		t.Fatalf("answered %+v, %v; want the period CLOSING", p, err)
	}
	first.Close()
	store.mu.Lock()
	if store.status["b000"] != leaderboard.PeriodClosing {
		t.Fatalf("after the shutdown the period is %s, want CLOSING", store.status["b000"])
	}
	store.mu.Unlock()
	close(store.released)
	next := NewPeriodCloser(store, slog.New(slog.DiscardHandler), PeriodCloserOptions{})
	defer next.Close()
	next.Kick(false)
	waitClosed(t, store, 2*time.Second)
}

// lockWatchedPeriods is fakePeriods on a primary that answers CloseLockHeld:
// held tells whether the close lock is held; a check while unanswered
// fails as a check on an unreachable server does.
type lockWatchedPeriods struct {
	*fakePeriods
	held       atomic.Bool
	unanswered atomic.Bool
	checks     atomic.Int32
}

func (s *lockWatchedPeriods) CloseLockHeld(context.Context, string, string) (bool, error) {
	s.checks.Add(1)
	if s.unanswered.Load() {
		return false, errors.New("no answer")
	}
	return s.held.Load(), nil
}

// TestPeriodCloser_WatchCancelsACloseWhoseLockThePrimaryLost is a failover
// in the middle of a close: once the primary twice says the close's lock
// is not held, the close is cancelled (its session is on the lost server)
// and tried again; a lock held, or checks that get no answer, never cancel
// it.
func TestPeriodCloser_WatchCancelsACloseWhoseLockThePrimaryLost(t *testing.T) {
	const watch = 5 * time.Millisecond
	start := func(t *testing.T, held, unanswered bool) (*lockWatchedPeriods, *PeriodCloser, *bytes.Buffer) {
		store := &lockWatchedPeriods{fakePeriods: newFakePeriods(1)}
		store.released = make(chan struct{})
		store.held.Store(held)
		store.unanswered.Store(unanswered)
		var out bytes.Buffer
		c := NewPeriodCloser(store, slog.New(slog.NewJSONHandler(&syncWriter{w: &out}, nil)), PeriodCloserOptions{
			MaxWait: 10 * time.Millisecond, Watch: watch, Retry: time.Millisecond, RetryMax: time.Millisecond})
		t.Cleanup(c.Close)
		if p, err := c.ClosePeriod(context.Background(), "b000", "all"); err != nil || p.Status != leaderboard.PeriodClosing {
			t.Fatalf("answered %+v, %v; want the period CLOSING", p, err)
		}
		return store, c, &out
	}
	waitChecks := func(t *testing.T, store *lockWatchedPeriods, n int32) {
		deadline := time.Now().Add(5 * time.Second)
		for store.checks.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d checks of the lock, want %d", store.checks.Load(), n)
			}
			time.Sleep(watch)
		}
	}
	t.Run("Lost", func(t *testing.T) {
		store, _, out := start(t, false, false)
		waitChecks(t, store, 10)
		if got := strings.Count(out.String(), "no longer holds the lock"); got < 2 {
			t.Fatalf("%d cancels logged after %d checks, want the close cancelled and its retry too\n%s",
				got, store.checks.Load(), out.String())
		}
		store.held.Store(true) // the retry runs on the new primary
		close(store.released)
		waitClosed(t, store.fakePeriods, 5*time.Second)
	})
	for _, tc := range []struct {
		name             string
		held, unanswered bool
	}{{"Held", true, false}, {"Unanswered", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			store, _, out := start(t, tc.held, tc.unanswered)
			waitChecks(t, store, 10)
			if strings.Contains(out.String(), "no longer holds the lock") {
				t.Fatalf("the close was cancelled\n%s", out.String())
			}
			close(store.released)
			waitClosed(t, store.fakePeriods, 5*time.Second)
			store.mu.Lock()
			defer store.mu.Unlock()
			if store.closes["b000"] != 1 {
				t.Fatalf("closed %d times", store.closes["b000"])
			}
		})
	}
}

// syncWriter is w for writers on many goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
