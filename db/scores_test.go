package db_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// outcome is the part of a result the tests compare.
type outcome struct {
	status leaderboard.ScoreStatus
	score  int // -1 when nil
	code   string
}

func outcomes(results []leaderboard.ScoreResult) []outcome {
	out := make([]outcome, len(results))
	for i, r := range results {
		out[i] = outcome{status: r.Status, score: -1}
		if r.Score != nil {
			out[i].score = *r.Score
		}
		if r.Err != nil {
			out[i].code = r.Err.Code
		}
	}
	return out
}

func assertOutcomes(t *testing.T, results []leaderboard.ScoreResult, want ...outcome) {
	t.Helper()
	got := outcomes(results)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("outcomes:\n got  %v\n want %v", got, want)
	}
}

var (
	applied   = func(score int) outcome { return outcome{leaderboard.StatusApplied, score, ""} }
	unchanged = func(score int) outcome { return outcome{leaderboard.StatusUnchanged, score, ""} }
	duplicate = func(score int) outcome { return outcome{leaderboard.StatusDuplicate, score, ""} }
	rejected  = func(code string) outcome { return outcome{leaderboard.StatusRejected, -1, code} }
)

func mustStanding(t *testing.T, store *db.DB, player string) *leaderboard.Standing {
	t.Helper()
	s, err := mainStanding(context.Background(), store, november, player, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatalf("player %q has no standing", player)
	}
	return s
}

func TestSubmitScores_Modes(t *testing.T) {
	store := mustOpenDB(t)
	results := mustSubmit(t, store,
		event("1", "p", leaderboard.ModeAdd, 100, at(1)),
		event("2", "p", leaderboard.ModeAdd, -30, at(2)),
		event("3", "p", leaderboard.ModeBest, 50, at(3)),
		event("4", "p", leaderboard.ModeBest, 90, at(4)),
		event("5", "p", leaderboard.ModeSet, 90, at(5)),
		event("6", "p", leaderboard.ModeSet, 10, at(6)),
		event("7", "q", leaderboard.ModeBest, 0, at(7)),
	)
	assertOutcomes(t, results, applied(100), applied(70), unchanged(70), applied(90), unchanged(90), applied(10), applied(0))
	if s := mustStanding(t, store, "p"); s.Score != 10 || !s.ReachedAt.Equal(*at(6)) {
		t.Errorf("p: score %d reached %s, want 10 at %s", s.Score, s.ReachedAt, *at(6))
	}
}

func TestSubmitScores_RejectsOutOfRange(t *testing.T) {
	store := mustOpenDB(t)
	results := mustSubmit(t, store,
		event("1", "p", leaderboard.ModeAdd, 9990, at(1)),
		event("2", "p", leaderboard.ModeAdd, 11, at(2)),
		event("3", "p", leaderboard.ModeSet, -1, at(3)),
		event("4", "new", leaderboard.ModeAdd, -5, at(4)),
		event("5", "p", leaderboard.ModeSet, 10001, at(5)),
		event("6", "p", leaderboard.ModeAdd, 10, at(6)),
	)
	assertOutcomes(t, results, applied(9990), rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT),
		rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT), applied(10000))
	if msg := results[1].Err.Message; !strings.Contains(msg, "0..10000") {
		t.Errorf("message %q does not name the bound", msg)
	}
	if s, err := mainStanding(context.Background(), store, november, "new", 0, 0); err != nil || s != nil {
		t.Errorf("a player whose only event was rejected has a standing: %+v, %v", s, err)
	}
	// A rejected event id stays free: a corrected retry applies.
	retry := mustSubmit(t, store, event("4", "new", leaderboard.ModeAdd, 5, at(7)))
	assertOutcomes(t, retry, applied(5))
}

func TestSubmitScores_RejectsBadInput(t *testing.T) {
	store := mustOpenDB(t)
	future := testNow.Add(time.Minute)
	longAgo := time.Date(2001, 1, 15, 0, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", leaderboard.MaxPlayerIDLen+1)
	results := mustSubmit(t, store,
		event("1", long, leaderboard.ModeAdd, 1, at(1)),
		event("", "p", leaderboard.ModeAdd, 1, at(1)),
		event("3", "p", "MULTIPLY", 1, at(1)),
		event("4", "p", leaderboard.ModeAdd, 1, &future),
		event("5", "p", leaderboard.ModeAdd, -5, at(1)),
		event("6", "p", leaderboard.ModeAdd, 5, &longAgo),
	)
	assertOutcomes(t, results, rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT),
		rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT),
		rejected(leaderboard.EBADINPUT))
	if months, err := mainPeriods(store); err != nil || len(months) != 0 {
		t.Errorf("rejected events opened months: %v, %v", months, err)
	}
}

func TestSubmitScores_RefusesOversizedBatch(t *testing.T) {
	store := mustOpenDB(t)
	events := make([]leaderboard.ScoreEvent, leaderboard.MaxBatch+1)
	for i := range events {
		events[i] = event(fmt.Sprint(i), "p", leaderboard.ModeAdd, 1, at(1))
	}
	_, err := store.SubmitScores(context.Background(), events)
	if code := leaderboard.ErrorCode(err); code != leaderboard.EBADINPUT {
		t.Fatalf("error %v has code %q, want %s", err, code, leaderboard.EBADINPUT)
	}
	if months, _ := mainPeriods(store); len(months) != 0 {
		t.Errorf("a refused call wrote months: %v", months)
	}
	mustSubmit(t, store, events[:leaderboard.MaxBatch]...)
	if s := mustStanding(t, store, "p"); s.Score != leaderboard.MaxBatch {
		t.Errorf("score %d after a full batch, want %d", s.Score, leaderboard.MaxBatch)
	}
}

func TestSubmitScores_Idempotent(t *testing.T) {
	store := mustOpenDB(t)
	first := mustSubmit(t, store,
		event("a", "p", leaderboard.ModeAdd, 10, at(1)),
		event("a", "p", leaderboard.ModeAdd, 10, at(1)),
		event("b", "p", leaderboard.ModeAdd, 5, at(2)),
	)
	assertOutcomes(t, first, applied(10), duplicate(10), applied(15))
	again := mustSubmit(t, store,
		event("a", "p", leaderboard.ModeAdd, 10, at(1)),
		event("b", "p", leaderboard.ModeAdd, 5, at(2)),
	)
	assertOutcomes(t, again, duplicate(10), duplicate(15))
	if s := mustStanding(t, store, "p"); s.Score != 15 {
		t.Errorf("score %d after retries, want 15", s.Score)
	}
}

func TestSubmitScores_ReachedAtNeverMovesBack(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "p", leaderboard.ModeAdd, 10, at(60)))
	// A late event (it happened earlier, arrives later) changes the total but
	// not to an earlier time.
	mustSubmit(t, store, event("2", "p", leaderboard.ModeAdd, 10, at(30)))
	if s := mustStanding(t, store, "p"); s.Score != 20 || !s.ReachedAt.Equal(*at(60)) {
		t.Errorf("score %d reached %s, want 20 at %s", s.Score, s.ReachedAt, *at(60))
	}
	mustSubmit(t, store, event("3", "p", leaderboard.ModeAdd, 1, at(90)))
	if s := mustStanding(t, store, "p"); !s.ReachedAt.Equal(*at(90)) {
		t.Errorf("reached %s, want %s", s.ReachedAt, *at(90))
	}
}

func TestSubmitScores_TiesRankByTimeThenArrival(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store,
		event("1", "late", leaderboard.ModeSet, 50, at(20)),
		event("2", "first", leaderboard.ModeSet, 50, at(10)),
		event("3", "second", leaderboard.ModeSet, 50, at(10)),
	)
	mustSubmit(t, store, event("4", "third", leaderboard.ModeSet, 50, at(10)))
	for player, rank := range map[string]int{"first": 1, "second": 2, "third": 3, "late": 4} {
		if s := mustStanding(t, store, player); s.Rank != rank {
			t.Errorf("%s has rank %d, want %d", player, s.Rank, rank)
		}
	}
}

func TestSubmitScores_MonthFollowsTimeZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	store := mustOpenDB(t, db.WithLocation(tokyo))
	// 2026-10-31 20:00 UTC is already November in Tokyo.
	occurred := time.Date(2026, 10, 31, 20, 0, 0, 0, time.UTC)
	results := mustSubmit(t, store, event("1", "p", leaderboard.ModeAdd, 1, &occurred))
	if results[0].Month != november {
		t.Errorf("event counted in %s, want %s", results[0].Month, november)
	}
	info, err := store.Month(context.Background(), november)
	if err != nil || info == nil {
		t.Fatalf("month: %v, %v", info, err)
	}
	if want := time.Date(2026, 12, 1, 0, 0, 0, 0, tokyo); !info.EndsAt.Equal(want) {
		t.Errorf("month ends %s, want %s", info.EndsAt, want)
	}
}

func TestSubmitScores_StoresLatestName(t *testing.T) {
	store := mustOpenDB(t)
	name := func(s string) *string { return &s }
	e1 := event("1", "p", leaderboard.ModeAdd, 1, at(1))
	e1.PlayerName = name("Old")
	e2 := event("2", "p", leaderboard.ModeAdd, 1, at(2))
	e3 := event("3", "p", leaderboard.ModeAdd, 1, at(3))
	e3.PlayerName = name("New")
	mustSubmit(t, store, e1)
	mustSubmit(t, store, e2, e3)
	s, err := mainStanding(context.Background(), store, november, "p", 0, 0)
	if err != nil || s == nil {
		t.Fatalf("standing of p: %+v, %v", s, err)
	}
	if s.Player.Name == nil || *s.Player.Name != "New" {
		t.Errorf("player %+v, want p named New", s.Player)
	}
}

// Many game servers send the first events of a month for the same players at
// once: every event is acknowledged, none is lost, and the month opens once.
func TestSubmitScores_ConcurrentFirstEvents(t *testing.T) {
	store := mustOpenDB(t)
	const servers, rounds = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, servers*rounds)
	for s := range servers {
		wg.Go(func() {
			for r := range rounds {
				events := make([]leaderboard.ScoreEvent, 0, 20)
				for p := range 20 {
					events = append(events, event(fmt.Sprintf("s%d-r%d-p%d", s, r, p), fmt.Sprintf("player-%02d", p),
						leaderboard.ModeAdd, 1, at(r)))
				}
				results, err := store.SubmitScores(context.Background(), events)
				if err != nil {
					errs <- err
					return
				}
				for _, res := range results {
					if res.Status != leaderboard.StatusApplied {
						errs <- fmt.Errorf("event %s: %s %v", res.EventID, res.Status, res.Err)
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for p := range 20 {
		if s := mustStanding(t, store, fmt.Sprintf("player-%02d", p)); s.Score != servers*rounds {
			t.Errorf("player-%02d has %d, want %d", p, s.Score, servers*rounds)
		}
	}
}

// A retried event is DUPLICATE, even after its month stopped taking events;
// an event id reused for another event is REJECTED and changes nothing.
func TestSubmitScores_ReusedEventIDWithAnotherPayloadIsRejected(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("e1", "a", leaderboard.ModeAdd, 5, at(1)))
	results := mustSubmit(t, store,
		event("e1", "a", leaderboard.ModeAdd, 5, at(1)),
		event("e1", "a", leaderboard.ModeAdd, 6, at(1)),
		event("e1", "b", leaderboard.ModeAdd, 5, at(1)),
		event("e2", "a", leaderboard.ModeAdd, 1, at(2)),
		event("e2", "a", leaderboard.ModeSet, 1, at(2)),
	)
	want := []leaderboard.ScoreStatus{leaderboard.StatusDuplicate, leaderboard.StatusRejected, leaderboard.StatusRejected,
		leaderboard.StatusApplied, leaderboard.StatusRejected}
	for i, r := range results {
		if r.Status != want[i] || (r.Status == leaderboard.StatusRejected && !strings.Contains(r.Err.Message, "used before")) {
			t.Errorf("event %d: %+v, want %s", i, r, want[i])
		}
	}
	if s := mustStanding(t, store, "a"); s.Score != 6 {
		t.Errorf("a's total %d, want 6", s.Score)
	}
	later, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return testNow.AddDate(0, 2, 0) }))
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if r := mustSubmit(t, later, event("e1", "a", leaderboard.ModeAdd, 5, at(1)))[0]; r.Status != leaderboard.StatusDuplicate {
		t.Errorf("a retry two months later: %+v", r)
	}
}

// A month that never opened has no partition of its own: its standings are
// read through the partitioned parent, and there are none.
func TestStanding_MonthThatNeverOpenedHasNone(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "p", leaderboard.ModeSet, 10, at(1)))
	if s, err := mainStanding(context.Background(), store, mustMonth("2026-05"), "p", 10, 10); err != nil || s != nil {
		t.Fatalf("standing in a month that never opened: %+v, %v", s, err)
	}
}

// mainPeriods returns up to ten months of main, newest first.
func mainPeriods(store *db.DB) ([]leaderboard.Period, error) {
	b, err := store.Board(context.Background(), leaderboard.MainBoard)
	if err != nil {
		return nil, err
	}
	return store.Periods(context.Background(), b, 10)
}
