package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func mustCreateBoard(tb testing.TB, store *db.DB, spec leaderboard.BoardSpec) *leaderboard.Board {
	tb.Helper()
	c, err := store.CreateBoard(context.Background(), spec)
	if err != nil {
		tb.Fatalf("create board %s: %v", spec.ID, err)
	}
	return c.Board
}

func TestPeriod_MainBoardIsItsMonths(t *testing.T) {
	store := mustOpenDB(t, db.WithCloseGrace(15*time.Minute))
	ctx := context.Background()
	p, err := store.Period(ctx, leaderboard.MainBoard, "2026-11")
	if err != nil || p == nil || p.Status != leaderboard.PeriodOpen || p.Participants != 0 {
		t.Fatalf("the current month before any event: %+v, %v; want OPEN with no one", p, err)
	}
	mustSubmit(t, store, event("e1", "ann", leaderboard.ModeSet, 10, at(5)))
	p, err = store.Period(ctx, leaderboard.MainBoard, "2026-11")
	if err != nil || p.Participants != 1 || !p.StartsAt.Equal(november.Start(time.UTC)) ||
		!p.EndsAt.Equal(november.End(time.UTC)) || !p.ClosesAt.Equal(november.End(time.UTC).Add(15*time.Minute)) {
		t.Fatalf("the month after an event: %+v, %v", p, err)
	}
	if p, err := store.Period(ctx, leaderboard.MainBoard, "2026-10"); err != nil || p != nil {
		t.Fatalf("a past month without events: %+v, %v; want none", p, err)
	}
	if p, err := store.Period(ctx, leaderboard.MainBoard, "2026-12"); err != nil || p.Status != leaderboard.PeriodNotStarted {
		t.Fatalf("next month: %+v, %v; want NOT_STARTED", p, err)
	}
	periods, err := store.Periods(ctx, mustBoard(t, store, leaderboard.MainBoard), 12)
	if err != nil || len(periods) != 1 || periods[0].Key != "2026-11" {
		t.Fatalf("main's periods: %+v, %v", periods, err)
	}
	if _, err := store.Period(ctx, leaderboard.MainBoard, "2026-W47"); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("a week key on main: %v, want BAD_USER_INPUT", err)
	}
}

// OpenedPeriod answers what month() answers of main: the month as stored,
// nil for one no event opened (which Period answers as it would stand);
// and the same of other boards' periods.
func TestOpenedPeriod_IsNilUntilAnEventOpensThePeriod(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	main := mustBoard(t, store, leaderboard.MainBoard)
	if p, err := store.OpenedPeriod(ctx, main, "2026-11"); err != nil || p != nil {
		t.Fatalf("main's month before any event: %+v, %v; want none", p, err)
	}
	mustSubmit(t, store, event("e1", "ann", leaderboard.ModeSet, 10, at(5)))
	p, err := store.OpenedPeriod(ctx, main, "2026-11")
	if err != nil || p == nil {
		t.Fatalf("main's month after an event: %+v, %v", p, err)
	}
	got, err := p.MonthInfo()
	want, _ := store.Month(ctx, november)
	if err != nil || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Fatalf("main's period as its month %+v (%v), the month %+v", got, err, want)
	}
	if _, err := store.OpenedPeriod(ctx, main, "2026-W47"); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("a week key on main: %v, want BAD_USER_INPUT", err)
	}
	daily := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		StartsAt: new(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))})
	if p, err := store.OpenedPeriod(ctx, daily, "2026-11-20"); err != nil || p != nil {
		t.Fatalf("a day before any event: %+v, %v; want none", p, err)
	}
	if p, err := store.Period(ctx, "daily", "2026-11-20"); err != nil || p == nil {
		t.Fatalf("Period of a day before any event: %+v, %v; want how it stands", p, err)
	}
}

func mustBoard(tb testing.TB, store *db.DB, id string) *leaderboard.Board {
	tb.Helper()
	b, err := store.Board(context.Background(), id)
	if err != nil || b == nil {
		tb.Fatalf("board %s: %+v, %v", id, b, err)
	}
	return b
}

func TestCurrentPeriod_FollowsTheBoardsCalendar(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	day := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "day", Name: "Day", Reset: leaderboard.ResetDay,
		TimeZone: new("Europe/Berlin"), CloseGrace: new(60), StartsAt: new(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))})
	p, err := store.CurrentPeriod(ctx, day)
	wantStart := time.Date(2026, 11, 20, 0, 0, 0, 0, berlin)
	if err != nil || p == nil || p.Key != "2026-11-20" || p.Status != leaderboard.PeriodOpen ||
		!p.StartsAt.Equal(wantStart) || !p.EndsAt.Equal(wantStart.AddDate(0, 0, 1)) ||
		!p.ClosesAt.Equal(wantStart.AddDate(0, 0, 1).Add(time.Minute)) {
		t.Fatalf("current day: %+v, %v", p, err)
	}
	if p, err := store.Period(ctx, "day", "2026-11-21"); err != nil || p.Status != leaderboard.PeriodNotStarted {
		t.Fatalf("tomorrow: %+v, %v; want NOT_STARTED", p, err)
	}
	if p, err := store.Period(ctx, "day", "2026-11-19"); err != nil || p != nil {
		t.Fatalf("yesterday without events: %+v, %v; want none", p, err)
	}
	if p, err := store.Period(ctx, "day", "2026-10-31"); err != nil || p != nil {
		t.Fatalf("a day before the board: %+v, %v; want none", p, err)
	}
	if _, err := store.Period(ctx, "day", "2026-11"); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("a month key on a day board: %v, want BAD_USER_INPUT", err)
	}
	if _, err := store.Period(ctx, "nope", "2026-11"); leaderboard.ErrorCode(err) != leaderboard.ENOTFOUND {
		t.Fatalf("an unknown board: %v, want NOT_FOUND", err)
	}

	later := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "later", Name: "Later", Reset: leaderboard.ResetWeek,
		StartsAt: new(testNow.Add(time.Hour))})
	if p, err := store.CurrentPeriod(ctx, later); err != nil || p != nil {
		t.Fatalf("before the board starts: %+v, %v; want none", p, err)
	}
	if p, err := store.Period(ctx, "later", "2026-W47"); err != nil || p.Status != leaderboard.PeriodNotStarted ||
		!p.StartsAt.Equal(testNow.Add(time.Hour)) {
		t.Fatalf("the week the board starts in: %+v, %v; want NOT_STARTED from the board's start", p, err)
	}

	forever := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "forever", Name: "Forever", Reset: leaderboard.ResetNone,
		StartsAt: new(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	if p, err := store.CurrentPeriod(ctx, forever); err != nil || p.Key != "all" || p.EndsAt != nil || p.ClosesAt != nil {
		t.Fatalf("a permanent board: %+v, %v; want all, no end", p, err)
	}
	if _, err := store.EndBoard(ctx, "forever", new(testNow.Add(-time.Minute))); err != nil {
		t.Fatal(err)
	}
	if p, err := store.CurrentPeriod(ctx, mustBoard(t, store, "forever")); err != nil || p != nil {
		t.Fatalf("a permanent board after its end: %+v, %v; want none", p, err)
	}

	// Ended today: today's period runs to its end, none starts after.
	if _, err := store.EndBoard(ctx, "day", new(testNow)); err != nil {
		t.Fatal(err)
	}
	if p, err := store.CurrentPeriod(ctx, mustBoard(t, store, "day")); err != nil || p == nil || p.Key != "2026-11-20" {
		t.Fatalf("the day the board ends: %+v, %v; want today", p, err)
	}
	if p, err := store.Period(ctx, "day", "2026-11-21"); err != nil || p != nil {
		t.Fatalf("the day after the end: %+v, %v; want none", p, err)
	}
}

func TestCreateSeason(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	board := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "ranked", Name: "Ranked", Reset: leaderboard.ResetSeason,
		StartsAt: new(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	d := func(month, day int) time.Time { return time.Date(2026, time.Month(month), day, 0, 0, 0, 0, time.UTC) }

	s1, err := store.CreateSeason(ctx, "ranked", "S1", d(10, 1), d(11, 12))
	if err != nil || s1.Key != "S1" || s1.Status != leaderboard.PeriodOpen {
		t.Fatalf("season 1: %+v, %v", s1, err)
	}
	if again, err := store.CreateSeason(ctx, "ranked", "S1", d(10, 1), d(11, 12)); err != nil || again.Key != "S1" {
		t.Fatalf("the same season again: %+v, %v; want it answered", again, err)
	}
	nanos := time.Duration(987654321)
	if _, err := store.CreateSeason(ctx, "ranked", "S0", d(9, 1).Add(nanos), d(9, 2).Add(nanos)); err != nil {
		t.Fatal(err)
	}
	if again, err := store.CreateSeason(ctx, "ranked", "S0", d(9, 1).Add(nanos), d(9, 2).Add(nanos)); err != nil || again.Key != "S0" {
		t.Fatalf("the same season with nanoseconds again: %+v, %v; want it answered", again, err)
	}
	if _, err := store.CreateSeason(ctx, "ranked", "S2", d(11, 12), d(12, 24)); err != nil {
		t.Fatalf("a season right after: %v", err)
	}
	for name, c := range map[string]struct {
		key        string
		start, end time.Time
		code       string
	}{
		"same key, other times": {"S1", d(10, 1), d(11, 13), leaderboard.ECONFLICT},
		"overlaps S2":           {"S3", d(12, 23), d(12, 31), leaderboard.ECONFLICT},
		"inside S1":             {"S3", d(10, 5), d(10, 6), leaderboard.ECONFLICT},
		"ends before it starts": {"S3", d(12, 31), d(12, 30), leaderboard.EBADINPUT},
		"before the board":      {"S0", time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), d(1, 2), leaderboard.EBADINPUT},
		"a bad key":             {"S 3", d(12, 24), d(12, 31), leaderboard.EBADINPUT},
	} {
		if _, err := store.CreateSeason(ctx, "ranked", c.key, c.start, c.end); leaderboard.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
	if _, err := store.CreateSeason(ctx, "main", "S1", d(12, 24), d(12, 31)); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Errorf("a season on a monthly board: %v, want BAD_USER_INPUT", err)
	}
	if _, err := store.CreateSeason(ctx, "nope", "S1", d(12, 24), d(12, 31)); leaderboard.ErrorCode(err) != leaderboard.ENOTFOUND {
		t.Errorf("a season on an unknown board: %v, want NOT_FOUND", err)
	}

	current, err := store.CurrentPeriod(ctx, board)
	if err != nil || current == nil || current.Key != "S2" {
		t.Fatalf("current season on %s: %+v, %v; want S2", testNow, current, err)
	}
	if p, err := store.Period(ctx, "ranked", "S9"); err != nil || p != nil {
		t.Fatalf("a season never made: %+v, %v; want none", p, err)
	}
	periods, err := store.Periods(ctx, board, 12)
	if err != nil || len(periods) != 3 || periods[0].Key != "S2" || periods[1].Key != "S1" {
		t.Fatalf("periods newest first: %+v, %v", periods, err)
	}
}

func TestCreateSeason_RacedOverlappingSeasonsMakeOne(t *testing.T) {
	store := mustOpenDB(t)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "raced", Name: "Raced", Reset: leaderboard.ResetSeason,
		StartsAt: new(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	var (
		wg               sync.WaitGroup
		mu               sync.Mutex
		made, conflicted int
	)
	for i := range 16 {
		wg.Go(func() {
			_, err := store.CreateSeason(context.Background(), "raced", fmt.Sprintf("S%d", i),
				start.Add(time.Duration(i)*time.Hour), start.AddDate(0, 1, 0))
			mu.Lock()
			defer mu.Unlock()
			switch leaderboard.ErrorCode(err) {
			case "":
				made++
			case leaderboard.ECONFLICT:
				conflicted++
			default:
				t.Errorf("season %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if made != 1 || conflicted != 15 {
		t.Fatalf("16 overlapping seasons at once: %d made, %d conflicts; want 1 and 15", made, conflicted)
	}
}

func TestBoardStatus(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	status := func(id string) leaderboard.BoardStatus {
		t.Helper()
		s, err := store.BoardStatus(ctx, mustBoard(t, store, id))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "soon", Name: "Soon", Reset: leaderboard.ResetDay, StartsAt: new(testNow.Add(time.Second))})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "running", Name: "Running", Reset: leaderboard.ResetDay})
	// Ended an hour ago: its last day is still taking late events for the grace.
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "grace", Name: "Grace", Reset: leaderboard.ResetNone, CloseGrace: new(7200),
		StartsAt: new(testNow.AddDate(0, 0, -3)), EndsAt: new(testNow.Add(-time.Hour))})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "over", Name: "Over", Reset: leaderboard.ResetDay,
		StartsAt: new(testNow.AddDate(0, 0, -3)), EndsAt: new(testNow.AddDate(0, 0, -2))})
	for id, want := range map[string]leaderboard.BoardStatus{
		"soon": leaderboard.BoardNotStarted, "running": leaderboard.BoardRunning, "main": leaderboard.BoardRunning,
		"grace": leaderboard.BoardRunning, "over": leaderboard.BoardEnded,
	} {
		if got := status(id); got != want {
			t.Errorf("board %s is %s, want %s", id, got, want)
		}
	}
}

func TestEndBoard_APermanentBoardsOpenPeriodEndsWithIt(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	end := testNow.AddDate(0, 1, 0)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "forever", Name: "Forever", Reset: leaderboard.ResetNone,
		StartsAt: new(testNow.AddDate(0, -1, 0)), EndsAt: &end, CloseGrace: new(0)})
	mustSubmit(t, store, leaderboard.ScoreEvent{EventID: "e", PlayerID: "p", Mode: leaderboard.ModeSet, Value: 5,
		Board: "forever", OccurredAt: new(testNow.Add(-time.Hour))})
	early := testNow.Add(-time.Minute)
	if _, err := store.EndBoard(ctx, "forever", &early); err != nil {
		t.Fatal(err)
	}
	p, err := store.Period(ctx, "forever", leaderboard.PeriodAll)
	if err != nil || p == nil || p.EndsAt == nil || !p.EndsAt.Equal(early) {
		t.Fatalf("the open period after endBoard: %+v, %v; want it to end at %s", p, err, early)
	}
	due, err := store.PeriodsToClose(ctx, true, 10)
	if err != nil || len(due) != 1 || due[0].Key != leaderboard.PeriodAll {
		t.Fatalf("due periods: %+v, %v; want the ended board's period", due, err)
	}
}

func TestDropOldPeriods_KeepsAPeriodClosedEarlyUntilItsDayIsOver(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "short", Name: "Short", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(0), RetainPeriods: new(0), StartsAt: new(testNow.AddDate(0, 0, -3))})
	event := func(id string) leaderboard.ScoreResult {
		return mustSubmit(t, store, leaderboard.ScoreEvent{EventID: id, PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1,
			Board: "short", OccurredAt: new(testNow.Add(-time.Minute))})[0]
	}
	event("first")
	if _, err := store.ClosePeriod(ctx, "short", "2026-11-20"); err != nil {
		t.Fatal(err)
	}
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
	if err != nil || len(dropped) != 0 {
		t.Fatalf("dropped %+v, %v; want none while the day still runs", dropped, err)
	}
	if r := event("late"); r.Status != leaderboard.StatusRejected || r.Err.Code != leaderboard.EMONTHCLOSED {
		t.Fatalf("an event for the day closed early: %+v, want MONTH_CLOSED", r)
	}
}
