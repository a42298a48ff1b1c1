package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// A listener whose server stops answering without closing the connection (a
// frozen or lost primary) gives up within its check and its ping's bound,
// so that its caller reconnects, to a new primary after a failover; before
// that, a silent but live server keeps it listening.
func TestListenMonths_GivesUpOnAServerThatStopsAnswering(t *testing.T) {
	t.Cleanup(db.SetListenCheck(200 * time.Millisecond))
	store := mustOpenDB(t)
	ended := make(chan error, 1)
	go func() { ended <- store.ListenMonths(t.Context(), func(leaderboard.Month, int) {}) }()
	select {
	case err := <-ended:
		t.Fatalf("the listener ended with its server up: %v", err)
	case <-time.After(time.Second): // a few checks answered
	}
	pg.Pause(t)
	defer pg.Unpause(t)
	paused := time.Now()
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the listener ended without an error")
		}
		t.Logf("the listener gave up %s after its server froze: %v", time.Since(paused).Round(time.Millisecond), err)
	case <-time.After(15 * time.Second):
		t.Fatal("the listener still waits 15 s after its server froze")
	}
}

// A listener follows its month's announcements through its checks.
func TestListenMonths_HearsACloseAfterSilentChecks(t *testing.T) {
	t.Cleanup(db.SetListenCheck(100 * time.Millisecond))
	store := mustOpenDB(t)
	heard := make(chan leaderboard.Month, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go store.ListenMonths(ctx, func(m leaderboard.Month, _ int) { heard <- m })
	time.Sleep(500 * time.Millisecond)
	mustSubmit(t, store, leaderboard.ScoreEvent{EventID: "e1", PlayerID: "p1", Mode: leaderboard.ModeSet, Value: 5, OccurredAt: at(1)})
	if _, _, err := store.TryCloseMonth(t.Context(), november, leaderboard.CloseHooks{}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-heard:
		if m != november {
			t.Errorf("heard %s, want %s", m, november)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no announcement of the close within 10 s")
	}
}
