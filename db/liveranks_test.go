package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The live ranks of a submit's 100 results on a board other than main
// cost one statement, not one per result as a standing read per result
// (the resolvers' former read) does, and are those of the board's order.
func TestLiveRanks_ABoardBatchIsOneStatement(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetWeek,
		Order: new(leaderboard.OrderAsc), TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	const players = 100
	events := make([]leaderboard.ScoreEvent, players)
	for i := range events {
		events[i] = leaderboard.ScoreEvent{EventID: fmt.Sprint("e", i), PlayerID: fmt.Sprint("p", i), Board: b.ID,
			Mode: leaderboard.ModeSet, Value: 1000 - i, OccurredAt: new(testNow.Add(-time.Minute))}
	}
	results := mustSubmit(t, store, events...)
	keys := make([]leaderboard.PeriodPlayer, players)
	for i, r := range results {
		keys[i] = leaderboard.PeriodPlayer{Board: b.ID, Period: r.Period, PlayerID: r.PlayerID}
	}
	statements := store.CountStatements(t)
	ranks, err := store.LiveRanks(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if n := statements.Load(); n != 1 {
		t.Errorf("%d statements for the ranks of %d results, want 1", n, players)
	}
	statements.Store(0)
	for _, k := range keys {
		if _, err := store.PeriodStanding(ctx, b, k.Period, k.PlayerID, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("a standing read per result: %d statements", statements.Load())
	if n := statements.Load(); n != players {
		t.Errorf("%d statements for %d standings, want %d: the count is off", n, players, players)
	}
	for i, k := range keys {
		if want := players - i; ranks[k] != want { // lowest first
			t.Errorf("rank of %s: %d, want %d", k.PlayerID, ranks[k], want)
		}
	}
}
