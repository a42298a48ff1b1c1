package closedperiods

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// Preload loads the closed periods of every board whose final ranks have a
// partition of their own, main's closed months among them, before the
// cache says it is ready; a smaller period is left to its first read, and
// so is a large one that does not fit the budget.
func TestCache_PreloadLoadsLargeClosedPeriods(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: 1}))
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	large := closedBoards(t, store, now, nil)
	// A board whose period closes on an instance with the default
	// threshold: its final ranks go to the shared partition.
	ctx := context.Background()
	small := openAgain(t, now)
	if _, err := small.CreateBoard(ctx, leaderboard.BoardSpec{ID: "small", Name: "small", Reset: leaderboard.ResetDay,
		TimeZone: new("Europe/Berlin"), StartsAt: new(now.Add(-48 * time.Hour))}); err != nil {
		t.Fatal(err)
	}
	if _, err := small.SubmitScores(ctx, []leaderboard.ScoreEvent{{Board: "small", EventID: "s1", PlayerID: "p1",
		Mode: leaderboard.ModeSet, Value: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := small.ClosePeriod(ctx, "small", key); err != nil {
		t.Fatal(err)
	}

	c := New(dbPeriods{store}, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	if err := c.Preload(ctx); err != nil {
		t.Fatal(err)
	}
	if !c.Ready() {
		t.Fatal("not ready after Preload")
	}
	for _, b := range large {
		if !c.PeriodLoaded(b.ID, key) {
			t.Errorf("%s: its closed period of its own partition was not preloaded", b.ID)
		}
	}
	assertSameAsDatabase(t, store, c, large[len(large)-1], key)
	if c.PeriodLoaded("small", key) {
		t.Error("a period of the shared partition was preloaded; it is left to its first read")
	}

	// A budget that holds all but one of them: Preload still ends ready,
	// the one left over read from the database.
	s := c.Stats()
	tight := New(dbPeriods{store}, s.Players-1, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer tight.Close()
	if err := tight.Preload(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tight.Stats(); !tight.Ready() || got.Periods != len(large)-1 {
		t.Errorf("budget %d: ready %v, %d periods held, want ready and %d", s.Players-1, tight.Ready(), got.Periods, len(large)-1)
	}
}

// failingSource fails its first fails lists of large closed periods, as a
// database lost at an instance's start does.
type failingSource struct {
	Source
	fails atomic.Int64
}

func (s *failingSource) LargeClosedPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error) {
	if s.fails.Add(-1) >= 0 {
		return nil, errors.New("connection refused")
	}
	return s.Source.LargeClosedPeriods(ctx, limit)
}

// A Preload whose first tries fail tries again until it loads what fits
// and the cache is ready; one whose context ends first returns its error,
// not ready.
func TestCache_PreloadTriesAgainAfterAFailure(t *testing.T) {
	store, m, _ := closedMonth(t, db.WithLimits(db.Limits{OwnPartitionPlayers: 1}))
	source := &failingSource{Source: dbPeriods{store}}
	source.fails.Store(2)
	c := New(source, 1000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	c.preloadRetry, c.preloadRetryMax = time.Millisecond, 2*time.Millisecond
	if err := c.Preload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !c.Ready() || !mainLoaded(c, m) || source.fails.Load() >= 0 {
		t.Errorf("after two failed tries: ready %v, loaded %v, fails left %d", c.Ready(), mainLoaded(c, m), source.fails.Load())
	}

	source.fails.Store(1 << 40)
	stuck := New(source, 1000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stuck.Close()
	stuck.preloadRetry, stuck.preloadRetryMax = time.Millisecond, 2*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := stuck.Preload(ctx); err == nil || stuck.Ready() {
		t.Errorf("a source that keeps failing: Preload %v, ready %v; want its error, not ready", err, stuck.Ready())
	}
}
