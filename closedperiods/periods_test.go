package closedperiods

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// dbPeriods is the db as a Source, as app wires it.
type dbPeriods struct{ *db.DB }

func (s dbPeriods) LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
	admit func(int, time.Time) bool) (FrozenPeriod, error) {
	p, err := s.DB.LoadClosedPeriod(ctx, b, key, admit)
	if p == nil {
		return nil, err
	}
	return p, err
}

// closedBoards creates boards of both orders and every tie-break, fills
// their day's period with random events (ties, subscores, metadata, names,
// some missing) and closes it, calling closed, unless nil, with each board
// once its period is closed: the next boards' events rename players.
func closedBoards(t *testing.T, store *db.DB, now time.Time, closed func(*leaderboard.Board)) []*leaderboard.Board {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(26, 3))
	var boards []*leaderboard.Board
	// The last board ranks scores of 0 to 2,000,000,000, tied at three
	// values: far past a month's uint16 scores.
	for i, rules := range []struct {
		order    leaderboard.SortOrder
		tie      leaderboard.TieBreak
		min, max int
		value    func() int
	}{{leaderboard.OrderDesc, leaderboard.TieBreakNone, -5, 20, smallValue(rng)},
		{leaderboard.OrderAsc, leaderboard.TieBreakSubscoreDesc, -5, 20, smallValue(rng)},
		{leaderboard.OrderDesc, leaderboard.TieBreakSubscoreAsc, -5, 20, smallValue(rng)},
		{leaderboard.OrderAsc, leaderboard.TieBreakNone, -5, 20, smallValue(rng)},
		{leaderboard.OrderAsc, leaderboard.TieBreakSubscoreAsc, 0, 2_000_000_000, func() int { return rng.IntN(3) * 1_000_000_000 }}} {
		id := strings.ToLower(fmt.Sprintf("b%d.%s", i, rules.order))
		spec := leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay, Order: &rules.order, TieBreak: &rules.tie,
			MinScore: new(rules.min), MaxScore: new(rules.max), TimeZone: new("Europe/Berlin"), StartsAt: new(now.Add(-48 * time.Hour)),
			Tiers: []leaderboard.Tier{{Name: "gold", TopPercent: 10}, {Name: "silver", TopPercent: 50}}}
		if _, err := store.CreateBoard(ctx, spec); err != nil {
			t.Fatal(err)
		}
		var events []leaderboard.ScoreEvent
		for n := range 120 {
			at := now.Add(-time.Duration(rng.IntN(4)) * time.Minute)
			e := leaderboard.ScoreEvent{Board: id, EventID: fmt.Sprint(n), PlayerID: fmt.Sprint("p", rng.IntN(40)),
				Mode: leaderboard.ModeSet, Value: rules.value(), OccurredAt: &at}
			if rng.IntN(3) > 0 {
				e.Subscore = new(rng.IntN(3))
			}
			if rng.IntN(2) == 0 {
				e.Metadata = json.RawMessage(fmt.Sprintf(`{"car":%d}`, rng.IntN(5)))
			}
			if n%4 == 0 {
				e.PlayerName = new(fmt.Sprint("Name ", n))
			}
			events = append(events, e)
		}
		if _, err := store.SubmitScores(ctx, events); err != nil {
			t.Fatal(err)
		}
		if _, err := store.ClosePeriod(ctx, id, now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)); err != nil {
			t.Fatal(err)
		}
		b, err := store.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if closed != nil {
			closed(b)
		}
		boards = append(boards, b)
	}
	return boards
}

// smallValue returns a generator of scores of -2 to 3.
func smallValue(rng *rand.Rand) func() int { return func() int { return rng.IntN(6) - 2 } }

// openAgain opens the test database as another instance would, without
// resetting it, on a clock stopped at now.
func openAgain(t *testing.T, now time.Time) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return store
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// loadPeriod reads a standing of period key of b through c, which starts
// its load, and waits until it is in memory.
func loadPeriod(t *testing.T, c *Cache, b *leaderboard.Board, key, playerID string) {
	t.Helper()
	if _, err := c.PeriodStanding(context.Background(), b, key, playerID, 0, 0); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !c.PeriodLoaded(b.ID, key); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("period %s of %s not loaded", key, b.ID)
		}
	}
}

// assertSameAsDatabase checks every standing with 0..3 neighbours each side,
// and every page of sizes 1..4 walked from memory's and from the database's
// cursors, against the database's.
func assertSameAsDatabase(t *testing.T, store *db.DB, bs *Cache, b *leaderboard.Board, key string) {
	t.Helper()
	ctx := context.Background()
	all, err := store.PeriodLeaderboard(ctx, b, key, 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Edges) < 10 {
		t.Fatalf("period %s of %s has %d players", key, b.ID, len(all.Edges))
	}
	for _, edge := range append(all.Edges, leaderboard.Edge{Entry: leaderboard.RankEntry{Player: leaderboard.Player{ID: "nobody"}}}) {
		for above := range 4 {
			for below := range 4 {
				want, err := store.PeriodStanding(ctx, b, key, edge.Entry.Player.ID, above, below)
				if err != nil {
					t.Fatal(err)
				}
				got, err := bs.PeriodStanding(ctx, b, key, edge.Entry.Player.ID, above, below)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %s standing of %s ±%d/%d:\n got %+v\nwant %+v", b.ID, key, edge.Entry.Player.ID, above, below, got, want)
				}
			}
		}
	}
	for size := 1; size <= 4; size++ {
		after := ""
		for {
			want, err := store.PeriodLeaderboard(ctx, b, key, size, after)
			if err != nil {
				t.Fatal(err)
			}
			got, err := bs.PeriodLeaderboard(ctx, b, key, size, after)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s page of %d after %q:\n got %+v\nwant %+v", b.ID, key, size, after, got, want)
			}
			if !want.HasNextPage {
				break
			}
			after = want.Edges[len(want.Edges)-1].Cursor
		}
	}
}

// removeSecond removes the player of rank 2 (of 3 when that is p1, whose
// standing loads the period) from closed period key of b, and returns its id.
func removeSecond(t *testing.T, store *db.DB, b *leaderboard.Board, key string) string {
	t.Helper()
	top, err := store.PeriodLeaderboard(context.Background(), b, key, 3, "")
	if err != nil {
		t.Fatal(err)
	}
	removed := top.Edges[1].Entry.Player.ID
	if removed == "p1" {
		removed = top.Edges[2].Entry.Player.ID
	}
	if _, err := store.CorrectScore(context.Background(), b.ID, key, removed, nil, "cheated"); err != nil {
		t.Fatal(err)
	}
	return removed
}

// Every standing and page of a closed period served from memory equals the
// database's, in both orders and every tie-break, with a player removed
// from the period by a correction; a bad cursor gets the database's error.
func TestBoards_ClosedPeriodsMatchDatabase(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	c := New(dbPeriods{store}, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	boards := closedBoards(t, store, now, nil)
	for _, b := range boards {
		removed := removeSecond(t, store, b, key)
		loadPeriod(t, c, b, key, "p1")
		assertSameAsDatabase(t, store, c, b, key)
		if got, err := c.PeriodStanding(context.Background(), b, key, removed, 1, 1); err != nil || got != nil {
			t.Errorf("%s: the standing of removed %s is %+v, %v; want none", b.ID, removed, got, err)
		}
	}
	// A cursor of another period is left to the database, which refuses it.
	other, err := store.PeriodLeaderboard(context.Background(), boards[1], key, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PeriodLeaderboard(context.Background(), boards[0], key, 1, other.Edges[0].Cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Errorf("a cursor of another period: %v, want BAD_USER_INPUT", err)
	}
	if s := c.Stats(); s.Periods != len(boards) || s.Players == 0 {
		t.Errorf("stats %+v, want %d periods and their players", s, len(boards))
	}
}

// handTo has store's closes hand the periods they close to c, as app wires
// them.
func handTo(store *db.DB, c *Cache) {
	store.HandClosedPeriods(db.PeriodHandoff{Fits: c.PeriodFits,
		Closed: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
			c.PeriodClosed(b, key, p, end)
		}})
}

// A period closed by the instance that holds the cache is in memory as soon
// as its close returns, without a load, and every standing and page equals
// the database's, in both orders and every tie-break, with its final ranks
// in a month's partition or in one of their own; a cache too small for a
// period leaves it to the database.
func TestBoards_ClosedPeriodsHandedByTheirClose(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, own := range []int{0, 1} {
		t.Run(fmt.Sprintf("own partition from %d players", own), func(t *testing.T) {
			store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: own}))
			c := New(dbPeriods{store}, 10_000, logger)
			defer c.Close()
			handTo(store, c)
			// Each period is checked as soon as it closed, before the next
			// boards' events rename its players.
			boards := closedBoards(t, store, now, func(b *leaderboard.Board) {
				if !c.PeriodLoaded(b.ID, key) {
					t.Fatalf("period %s of %s is not in memory after its close", key, b.ID)
				}
				assertSameAsDatabase(t, store, c, b, key)
			})
			if s := c.Stats(); s.Periods != len(boards) || s.Loads != 0 {
				t.Errorf("stats %+v, want %d periods and no load", s, len(boards))
			}
		})
	}
	t.Run("over the budget", func(t *testing.T) {
		store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
		c := New(dbPeriods{store}, 5, logger)
		defer c.Close()
		handTo(store, c)
		for _, b := range closedBoards(t, store, now, nil) {
			if c.PeriodLoaded(b.ID, key) {
				t.Errorf("period %s of %s, over the budget, is in memory", key, b.ID)
			}
		}
	})
}

// A correction made through an instance is read back by its caller from
// that instance's memory: Follow, which the instance calls before the
// caller hears of the correction, drops the period held at the version
// before at once, without waiting for the announcement (no Watcher runs
// here), and has it loaded anew.
func TestCache_FollowDropsAPeriodCorrectedMeanwhile(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	b := closedBoards(t, store, now, nil)[0]
	ctx := context.Background()
	c := New(dbPeriods{store}, 10_000, discard)
	defer c.Close()
	loadPeriod(t, c, b, key, "p1")
	if _, err := store.CorrectScore(ctx, b.ID, key, "p1", new(20), "cheat"); err != nil {
		t.Fatal(err)
	}
	if s, err := c.PeriodStanding(ctx, b, key, "p1", 0, 0); err != nil || s == nil || s.Score == 20 {
		t.Fatalf("the memory followed the correction by itself: %+v, %v", s, err)
	}
	if err := c.Follow(ctx, store); err != nil {
		t.Fatal(err)
	}
	if s, err := c.PeriodStanding(ctx, b, key, "p1", 0, 0); err != nil || s == nil || s.Score != 20 || !s.Final {
		t.Fatalf("the standing read right after Follow: %+v, %v; want the corrected score 20, final", s, err)
	}
	awaitCorrected(t, c, b, key, "Follow did not load the corrected period anew")
	assertSameAsDatabase(t, store, c, b, key)
	if err := c.Follow(ctx, store); err != nil || !c.PeriodLoaded(b.ID, key) {
		t.Fatalf("a second Follow, with nothing changed: %v; loaded %v, want the period kept", err, c.PeriodLoaded(b.ID, key))
	}
}

// A correction of a closed period made through one instance reaches a
// second one's memory, which loads the period anew at once: by the
// announcement the correction's commit sent, and by the check of versions
// alone when it did not listen.
func TestBoards_CorrectionSeenByAnotherInstance(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	first := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
	second := openAgain(t, now)
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	b := closedBoards(t, first, now, nil)[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	listening, checking := New(dbPeriods{second}, 10_000, logger), New(dbPeriods{second}, 10_000, logger)
	defer listening.Close()
	defer checking.Close()
	watcher := func(c *Cache) *Watcher {
		return NewWatcher(func(board, key string, version int) {
			if err := c.Changed(ctx, board, key, version); err != nil {
				t.Error(err)
			}
		})
	}
	listeningWatcher, checkingWatcher := watcher(listening), watcher(checking)
	listened := make(chan error, 1)
	go func() { listened <- second.ListenPeriods(ctx, listeningWatcher.Changed) }()
	loadPeriod(t, listening, b, key, "p1")
	loadPeriod(t, checking, b, key, "p1")
	time.Sleep(200 * time.Millisecond) // the LISTEN is in place

	if _, err := first.CorrectScore(ctx, b.ID, key, "p1", new(20), "cheat"); err != nil {
		t.Fatal(err)
	}
	awaitCorrected(t, listening, b, key, "the announced correction did not reach the listening instance")
	if s, err := checking.PeriodStanding(ctx, b, key, "p1", 0, 0); err != nil || s == nil || s.Score == 20 {
		t.Fatalf("the checking instance saw the correction without a check: %+v, %v", s, err)
	}
	boards, keys := checking.Held()
	if err := checkingWatcher.Check(ctx, second, boards, keys); err != nil {
		t.Fatal(err)
	}
	awaitCorrected(t, checking, b, key, "the check of versions did not load the corrected period")
	for _, c := range []*Cache{listening, checking} {
		assertSameAsDatabase(t, second, c, b, key)
	}
	cancel()
	<-listened
}

// awaitCorrected waits until c answers p1's corrected score, 20, from
// memory in period key of b, or fails with failure.
func awaitCorrected(t *testing.T, c *Cache, b *leaderboard.Board, key, failure string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if f := c.period(periodKey{b.ID, key}); f != nil {
			if s := f.Standing(b, "p1", 0, 0); s != nil && s.Score == 20 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal(failure)
		}
	}
}

// Main's months and the periods of other boards share one budget, newest
// first: a newer period pushes out an older month of main.
func TestBoards_ShareTheBudgetWithMonths(t *testing.T) {
	store, m, participants := closedMonth(t) // November 2026, closed
	mainBoard := mainOf(t, store)
	now := time.Date(2026, 12, 20, 12, 0, 0, 0, time.UTC) // a period ending after the month
	later := openAgain(t, now)
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	boards := closedBoards(t, later, now, nil)
	c := New(dbPeriods{store}, participants+10, discard)
	defer c.Close()
	loadPeriod(t, c, mainBoard, m.String(), "p1")
	loadPeriod(t, c, boards[0], key, "p1")
	if mainLoaded(c, m) {
		t.Error("the older month kept its room beside a newer period over the budget")
	}
	if s := c.Stats(); s.Players > participants+10 {
		t.Errorf("held %+v over the budget %d", s, participants+10)
	}
}

// The front serves main's months as the cache does: a loaded month from
// memory without the sources, pages from the month's source with its
// cursors; a key that is not a month is refused.
func TestBoards_ServeMainsMonthsFromTheCache(t *testing.T) {
	store, m, _ := closedMonth(t)
	ctx := context.Background()
	main, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil || main == nil {
		t.Fatalf("main: %+v, %v", main, err)
	}
	want, err := store.PeriodStanding(ctx, main, m.String(), "p7", 3, 3)
	if err != nil || want == nil {
		t.Fatalf("from the database: %+v, %v", want, err)
	}
	source := &countingSource{Source: dbPeriods{store}}
	c := New(source, 1000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	loadPeriod(t, c, main, m.String(), "p7")
	source.standings.Store(0)
	got, err := c.PeriodStanding(ctx, main, m.String(), "p7", 3, 3)
	if err != nil || fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(want)) {
		t.Fatalf("main's month through the front: %+v, %v; want %+v", normalize(got), err, normalize(want))
	}
	if n := source.standings.Load(); n != 0 {
		t.Errorf("the source answered %d standings of a loaded month", n)
	}
	top, err := c.PeriodLeaderboard(ctx, main, m.String(), 2, "")
	if err != nil {
		t.Fatal(err)
	}
	next, err := c.PeriodLeaderboard(ctx, main, m.String(), 2, top.Edges[1].Cursor)
	wantNext, wantErr := store.PeriodLeaderboard(ctx, main, m.String(), 2, top.Edges[1].Cursor)
	if err != nil || wantErr != nil || !reflect.DeepEqual(next, wantNext) {
		t.Fatalf("main's next page through the front: %+v, %v; want %+v, %v", next, err, wantNext, wantErr)
	}
	if _, err := c.PeriodStanding(ctx, main, "all", "p7", 0, 0); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Errorf("\"all\" on main: %v, want BAD_USER_INPUT", err)
	}
}
