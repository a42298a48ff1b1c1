package db_test

import (
	"testing"

	"github.com/gamebackend/leaderboard"
)

// The versions of closed periods answer main's months as its periods: a
// closed month's key gives the month's ranks version, 1 from its close and
// the next after a correction; a month not closed, and a key that names no
// month, give nothing.
func TestClosedPeriodVersions_AnswersMainsMonths(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, leaderboard.ScoreEvent{EventID: "e1", PlayerID: "p1", Mode: leaderboard.ModeSet, Value: 5, OccurredAt: at(1)})
	if _, err := closeMonth(store, november); err != nil {
		t.Fatal(err)
	}
	boards := []string{leaderboard.MainBoard, leaderboard.MainBoard, leaderboard.MainBoard}
	keys := []string{november.String(), november.Prev().String(), "not-a-month"}
	versions := func() map[string]int {
		t.Helper()
		got := map[string]int{}
		err := store.ClosedPeriodVersions(t.Context(), boards, keys, func(board, key string, version int) {
			got[board+" "+key] = version
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := "main " + november.String()
	if got := versions(); len(got) != 1 || got[want] != 1 {
		t.Errorf("after the close: versions %v, want only %s at 1", got, want)
	}
	if _, err := store.CorrectScore(t.Context(), leaderboard.MainBoard, november.String(), "p1", new(7), "typo"); err != nil {
		t.Fatal(err)
	}
	if got := versions(); len(got) != 1 || got[want] != 2 {
		t.Errorf("after a correction: versions %v, want only %s at 2", got, want)
	}
}
