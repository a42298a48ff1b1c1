package db_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// A period's reads answer main's months with the month code and every other
// board's periods with the board code, each with its own cursors.
func TestPeriodReads_MainIsItsMonthsOtherBoardsTheirPeriods(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	main := mustBoard(t, store, leaderboard.MainBoard)
	day := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "day", Name: "Day", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	for i, p := range []string{"ann", "bob", "cid"} {
		mustSubmit(t, store, event("m-"+p, p, leaderboard.ModeSet, 100-i, at(i)),
			boardEvent("day", "d-"+p, p, leaderboard.ModeSet, 10+i, utc(11, 20, 9+i)))
	}

	t.Run("Standing", func(t *testing.T) {
		monthly, err := mainStanding(ctx, store, november, "bob", 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.PeriodStanding(ctx, main, "2026-11", "bob", 1, 1)
		if err != nil || !reflect.DeepEqual(got, monthly) {
			t.Fatalf("main's month through the period: %+v, %v; want %+v", got, err, monthly)
		}
		got, err = store.PeriodStanding(ctx, day, "2026-11-20", "bob", 1, 1)
		if err != nil || got == nil || got.Rank != 2 || got.Board != "day" || got.Period != "2026-11-20" ||
			got.Month != november || got.Total != 3 || len(got.Above) != 1 || got.Above[0].Player.ID != "cid" ||
			len(got.Below) != 1 || got.Below[0].Player.ID != "ann" {
			t.Fatalf("a day through the period: %+v, %v; want bob 2nd of 3 between cid and ann", got, err)
		}
	})

	t.Run("Leaderboard", func(t *testing.T) {
		top, err := store.PeriodLeaderboard(ctx, main, "2026-11", 1, "")
		if err != nil || len(top.Edges) != 1 || top.Edges[0].Entry.Player.ID != "ann" || top.Total != 3 {
			t.Fatalf("main's top: %+v, %v", top, err)
		}
		next, err := store.PeriodLeaderboard(ctx, main, "2026-11", 1, top.Edges[0].Cursor)
		if err != nil || len(next.Edges) != 1 || next.Edges[0].Entry.Player.ID != "bob" {
			t.Fatalf("main's next page: %+v, %v", next, err)
		}
		monthly, err := mainLeaderboard(ctx, store, november, 1, top.Edges[0].Cursor)
		if err != nil || !reflect.DeepEqual(next, monthly) {
			t.Fatalf("main's next page %+v is not the month's %+v (%v)", next, monthly, err)
		}
		dayTop, err := store.PeriodLeaderboard(ctx, day, "2026-11-20", 1, "")
		if err != nil || len(dayTop.Edges) != 1 || dayTop.Edges[0].Entry.Player.ID != "cid" {
			t.Fatalf("the day's top: %+v, %v", dayTop, err)
		}
		dayNext, err := store.PeriodLeaderboard(ctx, day, "2026-11-20", 1, dayTop.Edges[0].Cursor)
		if err != nil || len(dayNext.Edges) != 1 || dayNext.Edges[0].Entry.Player.ID != "bob" {
			t.Fatalf("the day's next page: %+v, %v", dayNext, err)
		}
		// Each board keeps its own cursors: one of the other is refused.
		if _, err := store.PeriodLeaderboard(ctx, main, "2026-11", 1, dayTop.Edges[0].Cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("a day's cursor on main: %v, want BAD_USER_INPUT", err)
		}
		if _, err := store.PeriodLeaderboard(ctx, day, "2026-11-20", 1, top.Edges[0].Cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("main's cursor on a day: %v, want BAD_USER_INPUT", err)
		}
	})

	t.Run("ErrNotAMonthOfMain", func(t *testing.T) {
		if _, err := store.PeriodStanding(ctx, main, "2026-11-20", "bob", 0, 0); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("a day key on main: %v, want BAD_USER_INPUT", err)
		}
		if _, err := store.PeriodLeaderboard(ctx, main, "all", 1, ""); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("\"all\" on main: %v, want BAD_USER_INPUT", err)
		}
	})
}
