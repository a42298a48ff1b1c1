package db_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func lapBoard(id string) leaderboard.BoardSpec {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	return leaderboard.BoardSpec{ID: id, Name: "Daily lap times", Reset: leaderboard.ResetDay,
		Order: new(leaderboard.OrderAsc), MinScore: new(1), MaxScore: new(600000),
		TieBreak: new(leaderboard.TieBreakSubscoreDesc), ScoreFormat: new(leaderboard.ScoreDurationMS), TimeZone: new("Europe/Berlin"), CloseGrace: new(90),
		StartsAt: &start, EndsAt: &end, RetainPeriods: new(7),
		Tiers: []leaderboard.Tier{{Name: "gold", TopPercent: 1}, {Name: "silver", TopPercent: 12.5}}}
}

func TestCreateBoard_OKThenIdenticalThenConflict(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	spec := lapBoard("laps.eu")
	want, err := spec.Board(leaderboard.BoardDefaults{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}

	first, err := store.CreateBoard(ctx, spec)
	if err != nil || !first.Created {
		t.Fatalf("first create: %+v, %v; want created", first, err)
	}
	if !first.Board.CreatedAt.Equal(testNow) {
		t.Errorf("createdAt %s, want the clock's %s", first.Board.CreatedAt, testNow)
	}
	got, err := store.Board(ctx, "laps.eu")
	if err != nil {
		t.Fatal(err)
	}
	if !got.SameRules(want) || !got.CreatedAt.Equal(testNow) {
		t.Fatalf("read back %+v, want %+v created at %s", got, want, testNow)
	}

	again, err := store.CreateBoard(ctx, lapBoard("laps.eu"))
	if err != nil || again.Created || !again.Board.CreatedAt.Equal(testNow) {
		t.Fatalf("identical create: %+v, %v; want the board, not created", again, err)
	}

	other := lapBoard("laps.eu")
	other.Order = new(leaderboard.OrderDesc)
	if _, err := store.CreateBoard(ctx, other); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Fatalf("create with other rules: %v, want CONFLICT", err)
	}
	plain := lapBoard("laps.eu")
	plain.ScoreFormat = nil // NUMBER, the default
	if _, err := store.CreateBoard(ctx, plain); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Fatalf("create with another score format: %v, want CONFLICT", err)
	}
	if got.ScoreFormat != leaderboard.ScoreDurationMS {
		t.Errorf("score format read back %q, want DURATION_MS", got.ScoreFormat)
	}
	nanos := lapBoard("laps.eu")
	nanos.StartsAt = new(nanos.StartsAt.Add(123456789 * time.Nanosecond))
	nanos.ID = "laps.nanos"
	if c, err := store.CreateBoard(ctx, nanos); err != nil || !c.Created {
		t.Fatalf("create with nanoseconds: %+v, %v", c, err)
	}
	if c, err := store.CreateBoard(ctx, nanos); err != nil || c.Created {
		t.Fatalf("the same create with nanoseconds again: %+v, %v; want the board, not created", c, err)
	}
	anyStart := lapBoard("laps.eu")
	anyStart.StartsAt = nil
	if c, err := store.CreateBoard(ctx, anyStart); err != nil || c.Created {
		t.Fatalf("identical create without startsAt: %+v, %v; want the board, not created", c, err)
	}
}

func TestCreateBoard_ErrBadInputWritesNothing(t *testing.T) {
	store := mustOpenDB(t)
	bad := lapBoard("bad")
	bad.MinScore, bad.MaxScore = new(5), new(4)
	if _, err := store.CreateBoard(context.Background(), bad); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("create: %v, want BAD_USER_INPUT", err)
	}
	if b, err := store.Board(context.Background(), "bad"); err != nil || b != nil {
		t.Fatalf("the refused board was stored: %+v, %v", b, err)
	}
}

func TestCreateBoard_RacedByManyCallersCreatesOnce(t *testing.T) {
	// Two stores stand for two instances: each has its own pool.
	first := mustOpenDB(t)
	second, err := db.Open(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	stores := []*db.DB{first, second}
	const callers = 32
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		errs    []error
	)
	for i := range callers {
		wg.Go(func() {
			c, err := stores[i%2].CreateBoard(context.Background(), lapBoard("raced"))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if c.Created {
				created++
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 || created != 1 {
		t.Fatalf("%d callers: %d created, errors %v; want exactly one created, no error", callers, created, errs)
	}
}

func TestMainBoard_ExistsFromTheMigrationWithTheServiceZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	store := mustOpenDB(t, db.WithLocation(tokyo), db.WithCloseGrace(15*time.Minute))
	b, err := store.Board(context.Background(), leaderboard.MainBoard)
	if err != nil || b == nil {
		t.Fatalf("main: %+v, %v", b, err)
	}
	if b.Reset != leaderboard.ResetMonth || b.Order != leaderboard.OrderDesc || b.MinScore != 0 ||
		b.MaxScore != 10000 || b.ScoreFormat != leaderboard.ScoreNumber || b.Location.String() != "Asia/Tokyo" || b.CloseGrace != 15*time.Minute || b.EndsAt != nil {
		t.Fatalf("main board %+v, want monthly 0..10000 DESC in the service's zone", b)
	}
	if _, err := store.EndBoard(context.Background(), leaderboard.MainBoard, nil); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("ending main: %v, want BAD_USER_INPUT", err)
	}
}

func TestBoards_PagesInIDOrder(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	for i := range 5 {
		if _, err := store.CreateBoard(ctx, lapBoard(fmt.Sprintf("b%d", 4-i))); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	after := ""
	for {
		page, err := store.Boards(ctx, 2, after)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, b := range page {
			ids = append(ids, b.ID)
		}
		after = page[len(page)-1].ID
	}
	if want := []string{"b0", "b1", "b2", "b3", "b4", "main"}; !slices.Equal(ids, want) {
		t.Fatalf("boards %v, want %v", ids, want)
	}
}

func TestEndBoard(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	if _, err := store.CreateBoard(ctx, lapBoard("ending")); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b, err := store.EndBoard(ctx, "ending", new(at))
	if err != nil || !b.EndsAt.Equal(at) {
		t.Fatalf("end: %+v, %v; want the end brought to %s", b, err, at)
	}
	if b, err := store.EndBoard(ctx, "ending", new(at.AddDate(0, 1, 0))); err != nil || !b.EndsAt.Equal(at) {
		t.Fatalf("a later end: %+v, %v; want the earlier end kept", b, err)
	}
	if _, err := store.EndBoard(ctx, "ending", new(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("end before the start: %v, want BAD_USER_INPUT", err)
	}
	if _, err := store.EndBoard(ctx, "nope", &at); leaderboard.ErrorCode(err) != leaderboard.ENOTFOUND {
		t.Fatalf("end of an unknown board: %v, want NOT_FOUND", err)
	}

	// An end whose close (end plus grace) would fall past 9999-12-31T23:59:59Z,
	// a time the API cannot write, is refused; the last second the grace
	// allows is taken.
	permanent := leaderboard.BoardSpec{ID: "forever", Name: "Forever", Reset: leaderboard.ResetNone, CloseGrace: new(60)}
	if _, err := store.CreateBoard(ctx, permanent); err != nil {
		t.Fatal(err)
	}
	last := leaderboard.MaxTime.Add(-time.Minute).Truncate(time.Second)
	if _, err := store.EndBoard(ctx, "forever", new(last.Add(time.Second))); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("an end closing past 9999: %v, want BAD_USER_INPUT", err)
	}
	if b, err := store.EndBoard(ctx, "forever", new(last)); err != nil || !b.EndsAt.Equal(last) {
		t.Fatalf("an end closing at the last second: %+v, %v", b, err)
	}
}
