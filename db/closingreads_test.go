package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// Reads of a month this instance last read CLOSING wait for one of
// WithClosingReads' slots, up to their deadline or the longest wait, then
// read anyway; a read that finds the month in another state lifts the
// bound.
func TestStanding_ClosingMonthWaitsForAReadSlot(t *testing.T) {
	store := mustOpenDB(t, db.WithClosingReads(1, time.Hour))
	mustSubmit(t, store, event("e1", "alice", leaderboard.ModeSet, 10, at(1)))
	setStatus := func(status leaderboard.MonthStatus) {
		t.Helper()
		if _, err := mustConn(t).Exec(context.Background(), `UPDATE periods SET status = $1 WHERE board_id = 'main'`, string(status)); err != nil {
			t.Fatal(err)
		}
	}
	withDeadline := func(read func(context.Context) error) error {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		return read(ctx)
	}
	readStanding := func() error {
		return withDeadline(func(ctx context.Context) error {
			_, err := mainStanding(ctx, store, november, "alice", 10, 10)
			return err
		})
	}
	readPage := func() error {
		return withDeadline(func(ctx context.Context) error {
			_, err := mainLeaderboard(ctx, store, november, 10, "")
			return err
		})
	}
	// takeSlot takes the only slot, as a read in flight would, or no slot
	// when the month's reads are not bounded.
	takeSlot := func() func() { return takeClosingRead(t, store, november) }
	bounded := func() bool { return readsBounded(t, store, november) }

	for _, marker := range []struct {
		name string
		read func() error
	}{{"standing", readStanding}, {"page", readPage}} {
		setStatus(leaderboard.MonthClosing)
		if err := marker.read(); err != nil {
			t.Fatalf("%s of the closing month: %v", marker.name, err)
		}
		if !bounded() {
			t.Errorf("after a %s read CLOSING: reads not bounded", marker.name)
		}
		free := takeSlot()
		for _, read := range []func() error{readStanding, readPage} {
			if err := read(); leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
				t.Errorf("after a %s read CLOSING, a read with every slot taken: %v, want UNAVAILABLE at its deadline", marker.name, err)
			}
		}
		free()
		setStatus(leaderboard.MonthOpen)
		if err := marker.read(); err != nil {
			t.Fatalf("%s of the month open again: %v", marker.name, err)
		}
		if bounded() {
			t.Errorf("after a %s read OPEN: reads still bounded", marker.name)
		}
	}
}

// A read of a CLOSING month waits for a slot at most the longest wait,
// then reads without one.
func TestStanding_ClosingMonthReadWaitsNoLongerThanItsBound(t *testing.T) {
	const maxWait = 50 * time.Millisecond
	store := mustOpenDB(t, db.WithClosingReads(1, maxWait))
	mustSubmit(t, store, event("e1", "alice", leaderboard.ModeSet, 10, at(1)))
	if _, err := mustConn(t).Exec(context.Background(), `UPDATE periods SET status = 'CLOSING' WHERE board_id = 'main'`); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := mainStanding(ctx, store, november, "alice", 10, 10); err != nil {
		t.Fatalf("first read of the closing month: %v", err)
	}
	free, err := store.TakeClosingRead(ctx, november)
	if err != nil {
		t.Fatal(err)
	}
	defer free()
	start := time.Now()
	s, err := mainStanding(ctx, store, november, "alice", 10, 10)
	if err != nil || s == nil || s.Rank != 1 {
		t.Fatalf("a read with every slot taken: %+v, %v; want alice's standing", s, err)
	}
	if waited := time.Since(start); waited < maxWait {
		t.Errorf("the read went on after %s, before its wait of %s was over", waited, maxWait)
	}
}

// takeClosingRead takes one of store's closing-read slots for month m, or
// none when the month's reads are not bounded, and returns its release.
func takeClosingRead(t *testing.T, store *db.DB, m leaderboard.Month) func() {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	free, err := store.TakeClosingRead(ctx, m)
	if err != nil {
		t.Fatalf("take a slot: %v", err)
	}
	return free
}

// readsBounded says whether store's reads of month m wait for its one
// closing-read slot: whether a second slot is refused while one is taken.
func readsBounded(t *testing.T, store *db.DB, m leaderboard.Month) bool {
	t.Helper()
	defer takeClosingRead(t, store, m)()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	second, err := store.TakeClosingRead(ctx, m)
	if err != nil {
		return true
	}
	second()
	return false
}

// The instance that closes a period (main's month here) bounds its own
// reads of it while it closes, before any of its reads has found it
// CLOSING, and lifts the bound once it is CLOSED.
func TestClosePeriod_BoundsThePeriodsReadsWhileItCloses(t *testing.T) {
	var (
		store        *db.DB
		whileClosing bool
	)
	store = mustOpenDB(t, db.WithClosingReads(1, time.Hour), db.WithClosePhase(func(_ context.Context, name string) error {
		if name == "read" {
			whileClosing = readsBounded(t, store, november)
		}
		return nil
	}))
	mustSubmit(t, store, event("e1", "alice", leaderboard.ModeSet, 10, at(1)))
	mustClose(t, store, november)
	if !whileClosing {
		t.Error("while the month closed, its reads were not bounded")
	}
	if readsBounded(t, store, november) {
		t.Error("once the month closed, its reads were still bounded")
	}
}
