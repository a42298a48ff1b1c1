package lifecycle

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// fakeStore is a month whose close takes until release is closed, and
// whose lock may be held by another instance until free is closed.
type fakeStore struct {
	mu      sync.Mutex
	status  leaderboard.MonthStatus
	release chan struct{}
	free    chan struct{}
	runs    int
	ctxErr  error // the close's context error when it ended
}

func newFakeStore() *fakeStore {
	free := make(chan struct{})
	close(free)
	return &fakeStore{status: leaderboard.MonthOpen, release: make(chan struct{}), free: free}
}

func (s *fakeStore) Month(_ context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &leaderboard.MonthInfo{Month: m, Status: s.status, Participants: 3, EndsAt: m.End(time.UTC)}, nil
}

func (s *fakeStore) TryCloseMonth(ctx context.Context, m leaderboard.Month, hooks leaderboard.CloseHooks) (*leaderboard.MonthInfo, bool, error) {
	select {
	case <-s.free:
	default:
		return nil, false, nil
	}
	s.mu.Lock()
	if s.status == leaderboard.MonthClosed {
		s.mu.Unlock()
		info, _ := s.Month(ctx, m)
		return info, true, nil
	}
	s.runs++
	s.status = leaderboard.MonthClosing
	s.mu.Unlock()
	select {
	case <-s.release:
	case <-ctx.Done():
		s.mu.Lock()
		s.ctxErr = ctx.Err()
		s.mu.Unlock()
		return nil, true, ctx.Err()
	}
	s.mu.Lock()
	s.status = leaderboard.MonthClosed
	s.mu.Unlock()
	if hooks.Closed != nil {
		hooks.Closed(m, 1)
	}
	info, _ := s.Month(ctx, m)
	return info, true, nil
}

var november, _ = leaderboard.ParseMonth("2026-11")

func newTestCloser(store CloseStore, wait time.Duration) *MonthCloser {
	return NewMonthCloser(store, slog.New(slog.DiscardHandler), MonthCloserOptions{MaxWait: wait, Poll: 5 * time.Millisecond})
}

func TestCloser_CallerLeavingCancelsNothing(t *testing.T) {
	store := newFakeStore()
	closer := newTestCloser(store, time.Minute)
	defer closer.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	info, err := closer.CloseMonth(ctx, november)
	if err != nil || info.Status != leaderboard.MonthClosing {
		t.Fatalf("caller gone: %+v, %v", info, err)
	}
	close(store.release)
	for closer.Running(november) {
		time.Sleep(time.Millisecond)
	}
	if info, _ := store.Month(context.Background(), november); info.Status != leaderboard.MonthClosed || store.ctxErr != nil {
		t.Fatalf("after the caller left: %+v, close context %v", info, store.ctxErr)
	}
}

func TestCloser_AnswersClosingAfterMaxWaitAndCallersJoinOneJob(t *testing.T) {
	store := newFakeStore()
	closer := newTestCloser(store, 50*time.Millisecond)
	defer closer.Close()
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if info, err := closer.CloseMonth(context.Background(), november); err != nil || info.Status != leaderboard.MonthClosing {
				t.Errorf("after MaxWait: %+v, %v", info, err)
			}
		})
	}
	wg.Wait()
	close(store.release)
	closer.opts.MaxWait = time.Second
	if info, err := closer.CloseMonth(context.Background(), november); err != nil || info.Status != leaderboard.MonthClosed {
		t.Fatalf("once done: %+v, %v", info, err)
	}
	if store.runs != 1 {
		t.Errorf("%d closes ran for one month", store.runs)
	}
}

func TestCloser_WaitsForAnotherInstanceThenFindsItClosed(t *testing.T) {
	store := newFakeStore()
	store.free = make(chan struct{})
	closer := newTestCloser(store, time.Second)
	defer closer.Close()
	done := make(chan *leaderboard.MonthInfo)
	go func() {
		info, _ := closer.CloseMonth(context.Background(), november)
		done <- info
	}()
	time.Sleep(20 * time.Millisecond)
	close(store.release)
	close(store.free) // the other instance ended; its lock is free
	if info := <-done; info.Status != leaderboard.MonthClosed {
		t.Fatalf("joined close: %+v", info)
	}
}

func TestCloser_ShutdownCancelsTheJobAndRefusesNewOnes(t *testing.T) {
	store := newFakeStore()
	closer := newTestCloser(store, 10*time.Millisecond)
	closer.CloseMonth(context.Background(), november)
	closer.Close()
	if !errors.Is(store.ctxErr, context.Canceled) {
		t.Fatalf("the running close saw %v", store.ctxErr)
	}
	if _, err := closer.CloseMonth(context.Background(), november); leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
		t.Fatalf("close after shutdown: %v", err)
	}
}

// concurrencyStore closes any month after a short while, and records how
// many of its closes ran at once.
type concurrencyStore struct {
	mu            sync.Mutex
	closed        map[leaderboard.Month]bool
	running, most int
}

func (s *concurrencyStore) Month(_ context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed[m] {
		return &leaderboard.MonthInfo{Month: m, Status: leaderboard.MonthClosed}, nil
	}
	return &leaderboard.MonthInfo{Month: m, Status: leaderboard.MonthClosing}, nil
}

func (s *concurrencyStore) TryCloseMonth(ctx context.Context, m leaderboard.Month, _ leaderboard.CloseHooks) (*leaderboard.MonthInfo, bool, error) {
	s.mu.Lock()
	s.running++
	s.most = max(s.most, s.running)
	s.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	s.mu.Lock()
	s.running--
	s.closed[m] = true
	s.mu.Unlock()
	info, err := s.Month(ctx, m)
	return info, true, err
}

// The closes of several months due at once run one after another.
func TestCloser_ClosesOneMonthAtATime(t *testing.T) {
	store := &concurrencyStore{closed: map[leaderboard.Month]bool{}}
	closer := newTestCloser(store, time.Minute)
	defer closer.Close()
	var wg sync.WaitGroup
	for _, m := range []leaderboard.Month{november, november.Prev(), november.Prev().Prev()} {
		wg.Go(func() {
			if info, err := closer.CloseMonth(context.Background(), m); err != nil || info.Status != leaderboard.MonthClosed {
				t.Errorf("close %s: %+v, %v", m, info, err)
			}
		})
	}
	wg.Wait()
	if store.most != 1 {
		t.Errorf("%d closes ran at once", store.most)
	}
}

// A close that outlasts its timeout (a stalled database) is cancelled and
// gives up its turn: the job fails, and the next try closes the month.
func TestCloser_CloseOutlastingItsTimeoutIsCancelled(t *testing.T) {
	store := newFakeStore()
	closer := NewMonthCloser(store, slog.New(slog.DiscardHandler), MonthCloserOptions{MaxWait: time.Minute, Timeout: 20 * time.Millisecond})
	defer closer.Close()
	if _, err := closer.CloseMonth(context.Background(), november); leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
		t.Fatalf("close past its timeout: %v", err)
	}
	if !errors.Is(store.ctxErr, context.DeadlineExceeded) {
		t.Fatalf("the close saw %v", store.ctxErr)
	}
	close(store.release)
	if info, err := closer.CloseMonth(context.Background(), november); err != nil || info.Status != leaderboard.MonthClosed {
		t.Fatalf("next try: %+v, %v", info, err)
	}
}

// logLines is a logger that keeps the messages it was given.
type logLines struct {
	mu       sync.Mutex
	messages []string
}

func (l *logLines) logger() *slog.Logger { return slog.New(l) }

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.messages = append(l.messages, r.Message)
	return nil
}

func (l *logLines) count(message string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.messages {
		if m == message {
			n++
		}
	}
	return n
}

// noMonth is a store in which no month ever opened.
type noMonth struct{ *fakeStore }

func (noMonth) Month(context.Context, leaderboard.Month) (*leaderboard.MonthInfo, error) {
	return nil, nil
}

// closeMonth of a CLOSED month answers it as it is, and of a month that
// never opened NOT_FOUND, both without starting a job: no "close job
// started", no close tried, nothing for the metrics to follow.
func TestCloser_ClosedOrUnknownMonthStartsNoJob(t *testing.T) {
	for _, c := range []struct {
		name  string
		store func(*fakeStore) CloseStore
		code  string
	}{
		{"Closed", func(s *fakeStore) CloseStore { s.status = leaderboard.MonthClosed; return s }, ""},
		{"NeverOpened", func(s *fakeStore) CloseStore { return noMonth{s} }, leaderboard.ENOTFOUND},
	} {
		t.Run(c.name, func(t *testing.T) {
			store, logs, ended := newFakeStore(), &logLines{}, 0
			closer := NewMonthCloser(c.store(store), logs.logger(), MonthCloserOptions{MaxWait: time.Second,
				Ended: func(leaderboard.Month) { ended++ }})
			defer closer.Close()
			info, err := closer.CloseMonth(context.Background(), november)
			if leaderboard.ErrorCode(err) != c.code || (c.code == "" && info.Status != leaderboard.MonthClosed) {
				t.Fatalf("closeMonth: %+v, %v; want code %q", info, err, c.code)
			}
			if n := logs.count("close job started"); n != 0 || store.runs != 0 || ended != 0 || closer.Running(november) {
				t.Errorf("%d \"close job started\", %d closes tried, %d jobs ended", n, store.runs, ended)
			}
		})
	}
}

// failingStore fails the first failures tries of a close, as a lost
// database does, then closes the month.
type failingStore struct {
	*fakeStore
	failures int
}

func (s *failingStore) TryCloseMonth(ctx context.Context, m leaderboard.Month, hooks leaderboard.CloseHooks) (*leaderboard.MonthInfo, bool, error) {
	s.mu.Lock()
	s.status = leaderboard.MonthClosing
	if s.failures > 0 {
		s.failures--
		s.mu.Unlock()
		return nil, true, leaderboard.Errorf(leaderboard.EUNAVAILABLE, "the database is unavailable")
	}
	s.mu.Unlock()
	return s.fakeStore.TryCloseMonth(ctx, m, hooks)
}

// A close cut off by a lost database is tried again by its own job within
// the retry wait, doubling, without waiting for the scheduler (here there
// is none): the month is CLOSED right after the database is back.
func TestCloser_FailedCloseIsTriedAgainSoon(t *testing.T) {
	store := &failingStore{fakeStore: newFakeStore(), failures: 3}
	close(store.release)
	ended := make(chan struct{}, 10)
	closer := NewMonthCloser(store, slog.New(slog.DiscardHandler), MonthCloserOptions{MaxWait: time.Second,
		Retry: 10 * time.Millisecond, RetryMax: 30 * time.Millisecond,
		Ended: func(leaderboard.Month) { ended <- struct{}{} }})
	defer closer.Close()
	start := time.Now()
	if _, err := closer.CloseMonth(context.Background(), november); leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
		t.Fatalf("the first try: %v", err)
	}
	for info, _ := store.Month(context.Background(), november); info.Status != leaderboard.MonthClosed; info, _ = store.Month(context.Background(), november) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("still %s 5 s after the first try failed", info.Status)
		}
		time.Sleep(time.Millisecond)
	}
	took := time.Since(start)
	if took < 10*time.Millisecond+20*time.Millisecond+30*time.Millisecond {
		t.Errorf("closed %s after 3 failures: the waits between tries (10, 20, 30 ms) were not kept", took)
	}
	for range 4 {
		select {
		case <-ended:
		case <-time.After(time.Second):
			t.Fatal("a job ended without Ended")
		}
	}
	if store.runs != 1 {
		t.Errorf("%d closes ran", store.runs)
	}
}

// An instance whose job only waited while another instance closed the
// month does not log that its close finished: counting those lines counts
// the closes that ran.
func TestCloser_JobThatWaitedForAnotherInstanceSaysSo(t *testing.T) {
	store := newFakeStore()
	store.free = make(chan struct{})
	logs := &logLines{}
	closer := NewMonthCloser(store, logs.logger(), MonthCloserOptions{MaxWait: time.Minute, Poll: 5 * time.Millisecond})
	defer closer.Close()
	done := make(chan error)
	go func() {
		_, err := closer.CloseMonth(context.Background(), november)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	store.mu.Lock()
	store.status = leaderboard.MonthClosed // the other instance closed it
	store.mu.Unlock()
	close(store.free)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for closer.Running(november) {
		time.Sleep(time.Millisecond)
	}
	if n := logs.count("close job finished"); n != 0 || store.runs != 0 {
		t.Errorf("%d \"close job finished\" lines, %d closes run here", n, store.runs)
	}
	if logs.count("close job ended: the month was closed by another instance") != 1 {
		t.Errorf("the job did not say the month was closed elsewhere: %v", logs.messages)
	}

	// The instance that does close it says so, once.
	store, logs = newFakeStore(), &logLines{}
	close(store.release)
	closer = NewMonthCloser(store, logs.logger(), MonthCloserOptions{MaxWait: time.Minute})
	defer closer.Close()
	if _, err := closer.CloseMonth(context.Background(), november); err != nil {
		t.Fatal(err)
	}
	if n := logs.count("close job finished"); n != 1 {
		t.Errorf("%d \"close job finished\" lines for the close run here", n)
	}
}
