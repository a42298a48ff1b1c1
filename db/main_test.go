package db_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

var pg *pgtest.Postgres

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, &pg)) }

// testNow is the fixed clock of the tests: late in November 2026, UTC.
var testNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

var november = mustMonth("2026-11")

// mustOpenDB returns a DB on a freshly migrated, empty database whose clock
// stands at testNow.
func mustOpenDB(tb testing.TB, opts ...db.Option) *db.DB {
	tb.Helper()
	return pg.OpenDB(tb, append([]db.Option{db.WithClock(func() time.Time { return testNow })}, opts...)...)
}

func mustMonth(s string) leaderboard.Month {
	m, err := leaderboard.ParseMonth(s)
	if err != nil {
		panic(err)
	}
	return m
}

// at returns a time in November 2026, minutes after its start.
func at(minutes int) *time.Time {
	t := november.Start(time.UTC).Add(time.Duration(minutes) * time.Minute)
	return &t
}

// mustSubmit submits events and fails the test on a call error.
func mustSubmit(tb testing.TB, store *db.DB, events ...leaderboard.ScoreEvent) []leaderboard.ScoreResult {
	tb.Helper()
	results, err := store.SubmitScores(context.Background(), events)
	if err != nil {
		tb.Fatalf("submit scores: %v", err)
	}
	if len(results) != len(events) {
		tb.Fatalf("got %d results for %d events", len(results), len(events))
	}
	return results
}

func event(id, player string, mode leaderboard.ScoreMode, value int, occurred *time.Time) leaderboard.ScoreEvent {
	return leaderboard.ScoreEvent{EventID: id, PlayerID: player, Mode: mode, Value: value, OccurredAt: occurred}
}
