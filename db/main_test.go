package db_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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

// refusePoison makes PostgreSQL refuse, on conn's database, every insert
// into table (an event log) of the event id "poison": a call that PostgreSQL
// refuses for reasons of its own.
func refusePoison(tb testing.TB, conn *pgx.Conn, table string) {
	tb.Helper()
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF NEW.event_id = 'poison' THEN RAISE EXCEPTION 'poisoned event'; END IF; RETURN NEW; END $$`); err != nil {
		tb.Fatal(err)
	}
	trigger := fmt.Sprintf(`CREATE TRIGGER refuse_poison BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
		pgx.Identifier{table}.Sanitize())
	if _, err := conn.Exec(ctx, trigger); err != nil {
		tb.Fatal(err)
	}
}

// submitConcurrently submits each server's calls in order, the servers at
// once, and returns each server's results call by call; it fails the test
// on a call error.
func submitConcurrently(t *testing.T, store *db.DB, calls [][][]leaderboard.ScoreEvent) [][][]leaderboard.ScoreResult {
	t.Helper()
	results := make([][][]leaderboard.ScoreResult, len(calls))
	var wg sync.WaitGroup
	for s := range calls {
		wg.Go(func() {
			for _, call := range calls[s] {
				got, err := store.SubmitScores(context.Background(), call)
				if err != nil {
					t.Errorf("server %d: %v", s, err)
					return
				}
				results[s] = append(results[s], got)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return results
}
