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
func TestListenPeriods_GivesUpOnAServerThatStopsAnswering(t *testing.T) {
	t.Cleanup(db.SetListenCheck(200 * time.Millisecond))
	store := mustOpenDB(t)
	ended := make(chan error, 1)
	go func() { ended <- store.ListenPeriods(t.Context(), func(string, string, int) {}) }()
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

// A listener follows main's announcements through its checks: a month's
// close is heard as the close of main's period of that month's key.
func TestListenPeriods_HearsACloseOfMainAfterSilentChecks(t *testing.T) {
	t.Cleanup(db.SetListenCheck(100 * time.Millisecond))
	store := mustOpenDB(t)
	heard := make(chan string, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go store.ListenPeriods(ctx, func(board, key string, _ int) { heard <- board + " " + key })
	time.Sleep(500 * time.Millisecond)
	mustSubmit(t, store, leaderboard.ScoreEvent{EventID: "e1", PlayerID: "p1", Mode: leaderboard.ModeSet, Value: 5, OccurredAt: at(1)})
	if _, err := closeMonth(store, november); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-heard:
		if want := "main " + november.String(); got != want {
			t.Errorf("heard %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no announcement of the close within 10 s")
	}
}
