package closedperiods

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

var pg *pgtest.Postgres

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, &pg)) }

// mainOf returns board main of store, as the reads of its months are
// given it.
func mainOf(t *testing.T, store *db.DB) *leaderboard.Board {
	t.Helper()
	b, err := store.Board(context.Background(), leaderboard.MainBoard)
	if err != nil || b == nil {
		t.Fatalf("main: %+v, %v", b, err)
	}
	return b
}

// mainStanding reads playerID's standing in month m of main from standings.
func mainStanding(ctx context.Context, standings leaderboard.StandingService, main *leaderboard.Board, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	return standings.PeriodStanding(ctx, main, m.String(), playerID, above, below)
}

// discard is the logger of the caches under test.
var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// closedMonth fills main's month 2026-11 with tied scores and names, some
// missing, and closes it as any board's period, on a store opened with
// opts; it returns the store, the month and its participants.
func closedMonth(t *testing.T, opts ...db.Option) (*db.DB, leaderboard.Month, int) {
	t.Helper()
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, append(opts, db.WithClock(func() time.Time { return now }))...)
	rng := rand.New(rand.NewPCG(1, 2))
	var events []leaderboard.ScoreEvent
	for i := range 300 {
		at := now.Add(-time.Duration(rng.IntN(5)) * time.Hour)
		e := leaderboard.ScoreEvent{EventID: fmt.Sprint(i), PlayerID: fmt.Sprint("p", rng.IntN(120)),
			Mode: leaderboard.ModeSet, Value: 10 * rng.IntN(6), OccurredAt: &at}
		if i%3 == 0 {
			e.PlayerName = new(fmt.Sprint("Name ", i))
		}
		events = append(events, e)
	}
	ctx := context.Background()
	if _, err := store.SubmitScores(ctx, events); err != nil {
		t.Fatal(err)
	}
	m := leaderboard.MonthOf(now, time.UTC)
	p, err := store.ClosePeriod(ctx, leaderboard.MainBoard, m.String())
	if err != nil {
		t.Fatal(err)
	}
	return store, m, p.Participants
}

// mainLoaded reports whether c answers main's month m from memory.
func mainLoaded(c *Cache, m leaderboard.Month) bool {
	return c.PeriodLoaded(leaderboard.MainBoard, m.String())
}

// A closed month of main is read from the database until its first final
// read has loaded it, then from memory, every standing equal to the
// database's, players included; Stats counts it, and ForgetPeriod (as
// retention does) forgets it. A month over the budget stays on the
// database.
func TestCache_MainsClosedMonthFromMemoryMatchesDatabase(t *testing.T) {
	store, m, participants := closedMonth(t)
	mainBoard := mainOf(t, store)
	ctx := context.Background()
	source := &countingSource{Source: dbPeriods{store}}
	c := New(source, 1000, discard)
	defer c.Close()
	loadPeriod(t, c, mainBoard, m.String(), "p1")
	if s := c.Stats(); s.Periods != 1 || s.Players != participants || s.Loads != 1 || s.FailedLoads != 0 ||
		s.LoadTime <= 0 || s.Bytes < 10*s.Players {
		t.Errorf("stats after one load of %d players: %+v", participants, s)
	}
	source.standings.Store(0)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 130 { // 120 players who may have scores, and some who have none
		id := fmt.Sprint("p", i)
		above, below := rng.IntN(13), rng.IntN(13)
		want, err := mainStanding(ctx, store, mainBoard, m, id, above, below)
		if err != nil {
			t.Fatal(err)
		}
		got, err := mainStanding(ctx, c, mainBoard, m, id, above, below)
		if err != nil || fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(want)) {
			t.Fatalf("standing of %s (%d above, %d below):\n got  %+v, %v\n want %+v", id, above, below, normalize(got), err, normalize(want))
		}
	}
	if n := source.standings.Load(); n != 0 {
		t.Errorf("the source answered %d standings of a loaded month", n)
	}
	c.ForgetPeriod(leaderboard.MainBoard, m.String())
	if s := c.Stats(); mainLoaded(c, m) || s.Players != 0 || s.Bytes != 0 {
		t.Errorf("after ForgetPeriod: loaded %v, stats %+v", mainLoaded(c, m), s)
	}

	small := New(dbPeriods{store}, participants-1, discard)
	defer small.Close()
	if _, err := mainStanding(ctx, small, mainBoard, m, "p1", 10, 10); err != nil {
		t.Fatal(err)
	}
	small.loads.Wait()
	if s := small.Stats(); mainLoaded(small, m) || s.Players != 0 {
		t.Errorf("a cache with a budget of %d holds %+v", participants-1, s)
	}
}

// Preload loads main's closed months, large periods of their own (from one
// player here), that fit
// and then says the cache is ready; one over the budget stays on the
// database.
func TestCache_PreloadsMainsClosedMonths(t *testing.T) {
	store, m, participants := closedMonth(t, db.WithLimits(db.Limits{OwnPartitionPlayers: 1}))
	ctx := context.Background()
	for _, budget := range []int{participants, participants - 1} {
		c := New(dbPeriods{store}, budget, discard)
		if c.Ready() {
			t.Errorf("budget %d: ready before Preload", budget)
		}
		if err := c.Preload(ctx); err != nil {
			t.Fatal(err)
		}
		if want := budget == participants; !c.Ready() || mainLoaded(c, m) != want {
			t.Errorf("budget %d: ready %v, loaded %v, want ready and loaded %v", budget, c.Ready(), mainLoaded(c, m), want)
		}
		c.Close()
	}
}

// A newer month of main takes the room of an older one when the budget is
// full, as the month just closed does of the month before it; an older
// month read after never takes the room of the newer one.
func TestCache_NewerMonthTakesTheRoomOfOlderOnes(t *testing.T) {
	store, m, participants := closedMonth(t)
	mainBoard := mainOf(t, store)
	ctx := context.Background()
	before := m.Prev()
	october := openAgain(t, time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC))
	var events []leaderboard.ScoreEvent
	for i := range participants {
		events = append(events, leaderboard.ScoreEvent{EventID: fmt.Sprint("oct", i), PlayerID: fmt.Sprint("p", i),
			Mode: leaderboard.ModeSet, Value: i})
	}
	if _, err := october.SubmitScores(ctx, events); err != nil {
		t.Fatal(err)
	}
	if _, err := october.ClosePeriod(ctx, leaderboard.MainBoard, before.String()); err != nil {
		t.Fatal(err)
	}
	c := New(dbPeriods{store}, participants, discard)
	defer c.Close()
	loadPeriod(t, c, mainBoard, before.String(), "p1")
	loadPeriod(t, c, mainBoard, m.String(), "p1")
	if s := c.Stats(); mainLoaded(c, before) || s.Players != participants {
		t.Errorf("after the newer month: the month before loaded %v, stats %+v", mainLoaded(c, before), s)
	}
	if _, err := mainStanding(ctx, c, mainBoard, before, "p1", 0, 0); err != nil {
		t.Fatal(err)
	}
	c.loads.Wait()
	if mainLoaded(c, before) || !mainLoaded(c, m) {
		t.Errorf("the month before took the room of the newer one: before loaded %v, newer loaded %v",
			mainLoaded(c, before), mainLoaded(c, m))
	}
}

// normalize prints a standing with names by value.
func normalize(s *leaderboard.Standing) any {
	if s == nil {
		return nil
	}
	entry := func(e leaderboard.RankEntry) string {
		name := "<nil>"
		if e.Player.Name != nil {
			name = *e.Player.Name
		}
		return fmt.Sprintf("%d %d %s %s=%s", e.Rank, e.Score, e.ReachedAt.UTC().Format(time.RFC3339Nano), e.Player.ID, name)
	}
	out := []string{fmt.Sprintf("%s total %d final %t: %s", s.Month, s.Total, s.Final, entry(s.RankEntry))}
	for _, e := range append(slices.Clone(s.Above), s.Below...) {
		out = append(out, entry(e))
	}
	return out
}

// countingSource counts the standings asked of its source.
type countingSource struct {
	Source
	standings atomic.Int64
}

func (s *countingSource) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	s.standings.Add(1)
	return s.Source.PeriodStanding(ctx, b, key, playerID, above, below)
}
