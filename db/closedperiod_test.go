package db_test

import (
	"testing"

	"github.com/gamebackend/leaderboard"
)

// The versions of closed periods answer main's months as its periods: a
// closed month's key gives the month's ranks version; a month not closed,
// and a key that names no month, give nothing.
func TestClosedPeriodVersions_AnswersMainsMonths(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, leaderboard.ScoreEvent{EventID: "e1", PlayerID: "p1", Mode: leaderboard.ModeSet, Value: 5, OccurredAt: at(1)})
	if _, _, err := store.TryCloseMonth(t.Context(), november, leaderboard.CloseHooks{}); err != nil {
		t.Fatal(err)
	}
	months, err := store.RanksVersions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	boards := []string{leaderboard.MainBoard, leaderboard.MainBoard, leaderboard.MainBoard}
	keys := []string{november.String(), november.Prev().String(), "not-a-month"}
	err = store.ClosedPeriodVersions(t.Context(), boards, keys, func(board, key string, version int) {
		got[board+" "+key] = version
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "main " + november.String()
	if len(got) != 1 || got[want] != months[november] || months[november] == 0 {
		t.Errorf("versions %v, want only %s at %d", got, want, months[november])
	}
}
