package db_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A board stored before zone names were checked, its zone one the embedded
// zone data does not hold (posix/UTC loaded from a host's zoneinfo), is
// listed, read and closed like the others, each read of it logged once;
// only what needs its calendar reports it, with CONFLICT, and other boards
// do not notice.
func TestBoard_ZoneThatCannotBeLoaded(t *testing.T) {
	var logs syncBuffer
	store, due := groupBoards(t, 3, db.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx := context.Background()
	mustQuery(t, `UPDATE boards SET time_zone = 'posix/UTC' WHERE id = 'g1' RETURNING id`)

	boards, err := store.Boards(ctx, 50, "")
	if err != nil || len(boards) != 4 {
		t.Fatalf("boards: %d, %v; want main, g0, g1, g2", len(boards), err)
	}
	for _, b := range boards {
		switch {
		case b.ID == "g1" && (b.TimeZone != "posix/UTC" || b.Location != nil ||
			leaderboard.ErrorCode(b.ZoneError()) != leaderboard.ECONFLICT):
			t.Errorf("g1: zone %q, %v, %v; want posix/UTC kept, no Location, CONFLICT", b.TimeZone, b.Location, b.ZoneError())
		case b.ID != "g1" && (b.Location == nil || b.TimeZone != b.Location.String()):
			t.Errorf("%s: zone %q, %v", b.ID, b.TimeZone, b.Location)
		}
	}

	g1, err := store.Board(ctx, "g1")
	if err != nil || g1 == nil {
		t.Fatalf("board g1: %v, %v", g1, err)
	}
	_, err = store.CurrentPeriod(ctx, g1)
	if leaderboard.ErrorCode(err) != leaderboard.ECONFLICT || !strings.Contains(leaderboard.ErrorMessage(err), `board g1 keeps the time zone "posix/UTC"`) {
		t.Errorf("g1's current period: %v; want CONFLICT naming the board and its zone", err)
	}
	if _, err := store.Period(ctx, "g1", "2026-11-19"); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Errorf("g1's period by key: %v; want CONFLICT", err)
	}
	if status, err := store.BoardStatus(ctx, g1); err != nil || status != leaderboard.BoardRunning {
		t.Errorf("g1's status: %s, %v; want RUNNING", status, err)
	}
	if periods, err := store.Periods(ctx, g1, 12); err != nil || len(periods) != 1 || periods[0].Key != "2026-11-19" {
		t.Errorf("g1's periods: %+v, %v; want its stored 2026-11-19", periods, err)
	}
	g0, err := store.Board(ctx, "g0")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := store.CurrentPeriod(ctx, g0); err != nil || p == nil || p.Key != "2026-11-20" {
		t.Errorf("g0's current period: %+v, %v", p, err)
	}

	// Its due period keeps its stored times: it closes with the others.
	closed, err := store.TryClosePeriods(ctx, due)
	if err != nil || closedBoards(t, closed) != "g0 g1 g2" {
		t.Fatalf("closed %+v, %v; want every board's period", closed, err)
	}
	assertGroupClosed(t, 3, 0, 1, 2)

	// An event for g1 is rejected alone; g0's, in the same call, applies.
	results := mustSubmit(t, store,
		boardEvent("g1", "n1", "p0", leaderboard.ModeSet, 5, utc(11, 20, 0)),
		boardEvent("g0", "n2", "p0", leaderboard.ModeSet, 5, utc(11, 20, 0)))
	if r := results[0]; r.Status != leaderboard.StatusRejected || r.Err == nil || r.Err.Code != leaderboard.ECONFLICT ||
		!strings.Contains(r.Err.Message, "posix/UTC") {
		t.Errorf("g1's event: %+v; want REJECTED with CONFLICT naming its zone", r)
	}
	if r := results[1]; r.Status != leaderboard.StatusApplied {
		t.Errorf("g0's event: %+v; want APPLIED", r)
	}

	if n := strings.Count(logs.String(), "board's time zone cannot be loaded"); n != 1 ||
		!strings.Contains(logs.String(), "board=g1 reset=DAY time_zone=posix/UTC") {
		t.Errorf("logged %d times, want once naming g1 and its zone:\n%s", n, logs.String())
	}
}
