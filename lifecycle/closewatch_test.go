package lifecycle

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// lockWatchingStore is a fakeStore whose primary shows the close lock held
// while held is true.
type lockWatchingStore struct {
	*fakeStore
	held   atomic.Bool
	checks atomic.Int32
}

func (s *lockWatchingStore) CloseLockHeld(context.Context, leaderboard.Month) (bool, error) {
	s.checks.Add(1)
	return s.held.Load(), nil
}

// A running close whose lock the primary shows is left alone; once the
// primary no longer shows it (the close's session is on a lost server), the
// try is cancelled with UNAVAILABLE after two checks, and the next try
// closes the month.
func TestCloser_CloseWhoseLockThePrimaryLostIsCancelled(t *testing.T) {
	store := &lockWatchingStore{fakeStore: newFakeStore()}
	store.held.Store(true)
	closer := NewMonthCloser(store, slog.New(slog.DiscardHandler), MonthCloserOptions{MaxWait: time.Minute, Watch: 10 * time.Millisecond, Retry: time.Hour})
	defer closer.Close()
	failed := make(chan error, 1)
	go func() {
		_, err := closer.CloseMonth(context.Background(), november)
		failed <- err
	}()
	time.Sleep(100 * time.Millisecond)
	if store.checks.Load() < 3 {
		t.Fatalf("%d checks of the lock in 100 ms, every 10 ms", store.checks.Load())
	}
	select {
	case err := <-failed:
		t.Fatalf("the close ended while the primary showed its lock: %v", err)
	default:
	}
	store.held.Store(false)
	select {
	case err := <-failed:
		if leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE || !strings.Contains(leaderboard.ErrorMessage(err), "lost its database session") {
			t.Fatalf("the close on a lost session ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the close on a lost session still runs 5 s later")
	}
	if !errors.Is(store.ctxErr, context.Canceled) {
		t.Errorf("the close saw %v", store.ctxErr)
	}
	store.held.Store(true)
	close(store.release)
	if info, err := closer.CloseMonth(context.Background(), november); err != nil || info.Status != leaderboard.MonthClosed {
		t.Fatalf("next try: %+v, %v", info, err)
	}
}
