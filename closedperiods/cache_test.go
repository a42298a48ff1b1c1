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

// mainBoard is main as the reads of its months are given it.
var mainBoard = &leaderboard.Board{ID: leaderboard.MainBoard}

// mainStanding reads playerID's standing in main's month m from standings.
func mainStanding(ctx context.Context, standings leaderboard.StandingService, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	return standings.PeriodStanding(ctx, mainBoard, m.String(), playerID, above, below)
}

// closedMonth fills a month with tied scores and names, some missing, and
// closes it.
func closedMonth(t *testing.T) (*db.DB, leaderboard.Month) {
	t.Helper()
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
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
	if _, err := store.SubmitScores(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	m := leaderboard.MonthOf(now, time.UTC)
	if _, _, err := store.TryCloseMonth(context.Background(), m, leaderboard.CloseHooks{}); err != nil {
		t.Fatal(err)
	}
	return store, m
}

// builtMonth closes a month as closedMonth does and builds its table from
// its final ranks, as a close hands them over.
func builtMonth(t *testing.T) (*db.DB, leaderboard.Month, *leaderboard.MonthInfo, *Frozen) {
	t.Helper()
	store, m := closedMonth(t)
	ctx := context.Background()
	info, err := store.Month(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Build(m, info.Participants, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		_, err := store.FinalRanks(ctx, m, entry, name)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return store, m, info, f
}

// Every standing served from memory equals the database's, players included.
func TestTable_MatchesDatabase(t *testing.T) {
	store, m := closedMonth(t)
	info, err := store.Month(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	c := New(dbPeriods{store}, 1000, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	table, err := c.load(context.Background(), m, info.Participants)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 130 { // 120 players who may have scores, and some who have none
		id := fmt.Sprint("p", i)
		above, below := rng.IntN(13), rng.IntN(13)
		want, err := mainStanding(context.Background(), store, m, id, above, below)
		if err != nil {
			t.Fatal(err)
		}
		got := table.standing(id, above, below)
		if fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(want)) {
			t.Fatalf("standing of %s (%d above, %d below):\n got  %+v\n want %+v", id, above, below, normalize(got), normalize(want))
		}
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

// The cache answers from the database until the month is loaded, then from
// memory; a month over the budget stays on the database.
func TestCache_LoadsClosedMonthsWithinBudget(t *testing.T) {
	store, m := closedMonth(t)
	c := New(dbPeriods{store}, 1000, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	first, err := mainStanding(context.Background(), c, m, "p1", 10, 10)
	if err != nil || first == nil {
		t.Fatalf("first read: %+v, %v", first, err)
	}
	c.loads.Wait()
	if got := c.Players(); got != first.Total {
		t.Fatalf("the cache holds %d players, want %d", got, first.Total)
	}
	again, err := mainStanding(context.Background(), c, m, "p1", 10, 10)
	if err != nil || fmt.Sprint(normalize(again)) != fmt.Sprint(normalize(first)) {
		t.Fatalf("from memory: %+v, %v; from the database: %+v", again, err, first)
	}

	small := New(dbPeriods{store}, first.Total-1, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer small.Close()
	if _, err := mainStanding(context.Background(), small, m, "p1", 10, 10); err != nil {
		t.Fatal(err)
	}
	small.loads.Wait()
	if got := small.Players(); got != 0 {
		t.Errorf("a cache with a budget of %d holds %d players", first.Total-1, got)
	}
}

// Load loads a closed month eagerly, Invalidate forgets it, and a month
// that is not closed cannot be loaded.
func TestCache_LoadAndInvalidate(t *testing.T) {
	store, m := closedMonth(t)
	ctx := context.Background()
	c := New(dbPeriods{store}, 1000, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	if err := c.Load(ctx, m); err != nil {
		t.Fatal(err)
	}
	info, err := store.Month(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Loaded(m) || c.Players() != info.Participants {
		t.Fatalf("after Load: loaded %v, %d players, want %d", c.Loaded(m), c.Players(), info.Participants)
	}
	if s := c.Stats(); s.Loads != 1 || s.FailedLoads != 0 || s.LoadTime <= 0 || s.Bytes < 10*s.Players {
		t.Errorf("stats after one load: %+v", s)
	}
	c.Invalidate(m)
	if c.Loaded(m) || c.Players() != 0 || c.Stats().Bytes != 0 {
		t.Fatalf("after Invalidate: loaded %v, %d players, %d bytes", c.Loaded(m), c.Players(), c.Stats().Bytes)
	}
	// Retention forgets main's month as any board's period.
	if err := c.Load(ctx, m); err != nil {
		t.Fatal(err)
	}
	c.ForgetPeriod(leaderboard.MainBoard, m.String())
	if c.Loaded(m) || c.Players() != 0 {
		t.Fatalf("after ForgetPeriod of main's month: loaded %v, %d players", c.Loaded(m), c.Players())
	}
	if err := c.Load(ctx, m.Prev()); err == nil {
		t.Errorf("Load of %s, which never opened: no error", m.Prev())
	}
}

// Preload loads the closed months that fit and then says the cache is
// ready; one over the budget stays on the database.
func TestCache_Preload(t *testing.T) {
	store, m := closedMonth(t)
	ctx := context.Background()
	info, err := store.Month(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{info.Participants, info.Participants - 1} {
		c := New(dbPeriods{store}, budget, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if c.Ready() {
			t.Errorf("budget %d: ready before Preload", budget)
		}
		if err := c.Preload(ctx); err != nil {
			t.Fatal(err)
		}
		if want := budget == info.Participants; !c.Ready() || c.Loaded(m) != want {
			t.Errorf("budget %d: ready %v, loaded %v, want ready and loaded %v", budget, c.Ready(), c.Loaded(m), want)
		}
		c.Close()
	}
}

// A table built outside the cache and installed answers reads; Build
// refuses ranks that do not match the participants.
func TestBuild_Install(t *testing.T) {
	store, m := closedMonth(t)
	ctx := context.Background()
	info, err := store.Month(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	ranks := func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		_, err := store.FinalRanks(ctx, m, entry, name)
		return err
	}
	for _, wrong := range []int{info.Participants - 1, info.Participants + 1} {
		if _, err := Build(m, wrong, ranks); err == nil {
			t.Errorf("Build with %d participants for %d ranks: no error", wrong, info.Participants)
		}
	}
	f, err := Build(m, info.Participants, ranks)
	if err != nil {
		t.Fatal(err)
	}
	c := New(dbPeriods{store}, 1000, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	if !c.Install(f, 1) || !c.Loaded(m) {
		t.Fatal("Install within the budget: not loaded")
	}
	want, err := mainStanding(ctx, store, m, "p7", 3, 3)
	if err != nil || want == nil {
		t.Fatalf("from the database: %+v, %v", want, err)
	}
	got, err := mainStanding(ctx, c, m, "p7", 3, 3)
	if err != nil || fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(want)) {
		t.Fatalf("installed: %+v, %v; from the database: %+v", normalize(got), err, normalize(want))
	}
	if small := New(dbPeriods{store}, info.Participants-1, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil))); small.Install(f, 1) {
		t.Error("Install over the budget: installed")
	}
}

// stalledSource loads final ranks only when its context ends, and says when
// a load has begun.
type stalledSource struct {
	Source
	began chan struct{}
}

func (s stalledSource) FinalRanks(ctx context.Context, _ leaderboard.Month, _ func(leaderboard.RankEntry) error,
	_ func(playerID, name string) error) (int, error) {
	close(s.began)
	<-ctx.Done()
	return 0, ctx.Err()
}

// A close installs the table it built while a load of the same month, which
// the close's announcement started, is still reading: the load gives way,
// and that is no failure.
func TestCache_LoadReplacedByInstallIsNoFailure(t *testing.T) {
	store, m, info, f := builtMonth(t)
	ctx := context.Background()
	source := stalledSource{Source: dbPeriods{store}, began: make(chan struct{})}
	c := New(source, 1000, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	loaded := make(chan error, 1)
	go func() { loaded <- c.Load(ctx, m) }()
	<-source.began
	if !c.Install(f, 1) {
		t.Fatal("Install within the budget: not installed")
	}
	if err := <-loaded; err != nil {
		t.Errorf("Load replaced by Install: %v", err)
	}
	if s := c.Stats(); !c.Loaded(m) || s.FailedLoads != 0 || c.Players() != info.Participants {
		t.Errorf("after the replaced load: loaded %v, %d players, stats %+v", c.Loaded(m), c.Players(), s)
	}
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

// A table staged while its month closes answers the month's standings, not
// final, without the source; installed once the close commits, it answers
// them final, and it is held once in the budget throughout.
func TestCache_StageThenInstall(t *testing.T) {
	store, m, info, f := builtMonth(t)
	ctx := context.Background()
	want, err := mainStanding(ctx, store, m, "p7", 3, 3)
	if err != nil || want == nil {
		t.Fatalf("from the database: %+v, %v", want, err)
	}
	source := &countingSource{Source: dbPeriods{store}}
	c := New(source, info.Participants, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	for range 2 { // a close that failed after staging, then its retry
		if !c.Stage(f) {
			t.Fatal("Stage within the budget: not staged")
		}
	}
	if c.Loaded(m) || c.Players() != info.Participants {
		t.Errorf("staged: loaded %v, %d players held, want not loaded and %d", c.Loaded(m), c.Players(), info.Participants)
	}
	got, err := mainStanding(ctx, c, m, "p7", 3, 3)
	closing := *want
	closing.Final = false
	if err != nil || fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(&closing)) {
		t.Fatalf("staged: %+v, %v; want %+v", normalize(got), err, normalize(&closing))
	}
	if !c.Install(f, 1) || !c.Loaded(m) || c.Players() != info.Participants {
		t.Fatalf("installed over the staged table: loaded %v, %d players held", c.Loaded(m), c.Players())
	}
	got, err = mainStanding(ctx, c, m, "p7", 3, 3)
	if err != nil || fmt.Sprint(normalize(got)) != fmt.Sprint(normalize(want)) {
		t.Fatalf("installed: %+v, %v; want %+v", normalize(got), err, normalize(want))
	}
	if n := source.standings.Load(); n != 0 {
		t.Errorf("the source answered %d standings of a staged or installed month", n)
	}
	c.Stage(f)
	c.Invalidate(m)
	if c.Players() != 0 {
		t.Errorf("invalidated: %d players held", c.Players())
	}
	if small := New(dbPeriods{store}, info.Participants-1, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil))); small.Stage(f) {
		t.Error("Stage over the budget: staged")
	}
}

// A newer month takes the room of older ones when the budget is full, as
// the month just closed does of the month before it; an older month never
// takes the room of a newer one.
func TestCache_NewerMonthTakesTheRoomOfOlderOnes(t *testing.T) {
	store, m, info, _ := builtMonth(t)
	ctx := context.Background()
	ranks := func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		_, err := store.FinalRanks(ctx, m, entry, name)
		return err
	}
	build := func(month leaderboard.Month) *Frozen {
		f, err := Build(month, info.Participants, ranks)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	before, closing := m.Prev(), m
	c := New(dbPeriods{store}, info.Participants, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	if !c.Install(build(before), 1) {
		t.Fatal("the month before: not installed")
	}
	if !c.Stage(build(closing)) {
		t.Fatal("the closing month: not staged over the month before")
	}
	if c.Loaded(before) || c.Players() != info.Participants {
		t.Errorf("after the stage: month before loaded %v, %d players held", c.Loaded(before), c.Players())
	}
	if !c.Install(build(closing), 1) || !c.Loaded(closing) {
		t.Fatal("the closed month: not installed")
	}
	if c.Install(build(before), 1) || c.Loaded(before) || !c.Loaded(closing) {
		t.Errorf("the month before took the room of the newer one: before loaded %v, closed loaded %v",
			c.Loaded(before), c.Loaded(closing))
	}
}

// monthsSource lists months as given, in front of a real source.
type monthsSource struct {
	Source
	months []leaderboard.MonthInfo
}

func (s monthsSource) Months(context.Context, int) ([]leaderboard.MonthInfo, error) {
	return s.months, nil
}

// Preload keeps the room of a newer month still closing: an older month
// that would fit only in that room is left to its first read.
func TestCache_PreloadKeepsTheRoomOfAClosingMonth(t *testing.T) {
	store, m, info, _ := builtMonth(t)
	ctx := context.Background()
	source := monthsSource{Source: dbPeriods{store}, months: []leaderboard.MonthInfo{
		{Month: leaderboard.MonthFromDate(m.Date().AddDate(0, 1, 0)), Status: leaderboard.MonthClosing, Participants: info.Participants}, *info}}
	for _, budget := range []int{2*info.Participants - 1, 2 * info.Participants} {
		c := New(source, budget, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := c.Preload(ctx); err != nil {
			t.Fatal(err)
		}
		if want := budget == 2*info.Participants; !c.Ready() || c.Loaded(m) != want {
			t.Errorf("budget %d: ready %v, loaded %v, want ready and loaded %v", budget, c.Ready(), c.Loaded(m), want)
		}
		c.Close()
	}
}
