package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// submittedHundred submits a SET of 1000-i for each of 100 players p<i> on
// a new lowest-first weekly board and returns the board and the keys of
// the results' ranks, in the results' order.
func submittedHundred(tb testing.TB, store *db.DB) (*leaderboard.Board, []leaderboard.PeriodPlayer) {
	tb.Helper()
	b := mustCreateBoard(tb, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetWeek,
		Order: new(leaderboard.OrderAsc), TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	events := make([]leaderboard.ScoreEvent, 100)
	for i := range events {
		events[i] = leaderboard.ScoreEvent{EventID: fmt.Sprint("e", i), PlayerID: fmt.Sprint("p", i), Board: b.ID,
			Mode: leaderboard.ModeSet, Value: 1000 - i, OccurredAt: new(testNow.Add(-time.Minute))}
	}
	results := mustSubmit(tb, store, events...)
	keys := make([]leaderboard.PeriodPlayer, len(results))
	for i, r := range results {
		keys[i] = leaderboard.PeriodPlayer{Board: b.ID, Period: r.Period, PlayerID: r.PlayerID}
	}
	return b, keys
}

// The live ranks of a submit's 100 results on a board other than main
// cost one statement, not one per result as a standing read per result
// (the resolvers' former read) does, and are those of the board's order.
func TestLiveRanks_ABoardBatchIsOneStatement(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	b, keys := submittedHundred(t, store)
	statements := store.CountStatements(t)
	ranks, err := store.LiveRanks(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if n := statements.Load(); n != 1 {
		t.Errorf("%d statements for the ranks of %d results, want 1", n, len(keys))
	}
	statements.Store(0)
	for _, k := range keys {
		if _, err := store.PeriodStanding(ctx, b, k.Period, k.PlayerID, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("a standing read per result: %d statements", statements.Load())
	if n := statements.Load(); n != int64(len(keys)) {
		t.Errorf("%d statements for %d standings, want %d: the count is off", n, len(keys), len(keys))
	}
	for i, k := range keys {
		if want := len(keys) - i; ranks[k] != want { // lowest first
			t.Errorf("rank of %s: %d, want %d", k.PlayerID, ranks[k], want)
		}
	}
}

// BenchmarkLiveRanks_ABoardsHundredResults reads the ranks of a submit's
// 100 results on a board: in one LiveRanks call, and as the resolvers did
// before, a standing read per result. Run with
// go test -run '^$' -bench LiveRanks_ABoards ./db/
func BenchmarkLiveRanks_ABoardsHundredResults(b *testing.B) {
	store := mustOpenDB(b)
	ctx := context.Background()
	board, keys := submittedHundred(b, store)
	b.Run("one call", func(b *testing.B) {
		for b.Loop() {
			if _, err := store.LiveRanks(ctx, keys); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("a standing per result", func(b *testing.B) {
		for b.Loop() {
			for _, k := range keys {
				if _, err := store.PeriodStanding(ctx, board, k.Period, k.PlayerID, 0, 0); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
