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

func (s *fakeStore) Month(context.Context, leaderboard.Month) (*leaderboard.MonthInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &leaderboard.MonthInfo{Status: s.status}, nil
}

func (s *fakeStore) TryCloseMonth(ctx context.Context, m leaderboard.Month, _ leaderboard.CloseHooks) (*leaderboard.MonthInfo, bool, error) {
	select {
	case <-s.free:
	default:
		return nil, false, nil
	}
	s.mu.Lock()
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
	info, _ := s.Month(ctx, m)
	return info, true, nil
}

var november, _ = leaderboard.ParseMonth("2026-11")

func newTestCloser(store CloseStore, wait time.Duration) *Closer {
	return NewCloser(store, slog.New(slog.DiscardHandler), CloserOptions{MaxWait: wait, Poll: 5 * time.Millisecond})
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
	closer := NewCloser(store, slog.New(slog.DiscardHandler), CloserOptions{MaxWait: time.Minute, Timeout: 20 * time.Millisecond})
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
