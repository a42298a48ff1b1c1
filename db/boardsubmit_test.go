package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// boardEvent is an event of board, at occurred.
func boardEvent(board, id, player string, mode leaderboard.ScoreMode, value int, occurred *time.Time) leaderboard.ScoreEvent {
	e := event(id, player, mode, value, occurred)
	e.Board = board
	return e
}

// utc returns a time of 2026 in UTC.
func utc(month time.Month, day, hour int) *time.Time {
	t := time.Date(2026, month, day, hour, 0, 0, 0, time.UTC)
	return &t
}

// assertBoardOutcomes checks results' outcomes and periods.
func assertBoardOutcomes(t *testing.T, results []leaderboard.ScoreResult, periods []string, want ...outcome) {
	t.Helper()
	assertOutcomes(t, results, want...)
	for i, r := range results {
		if r.Period != periods[i] || (r.Board == "" && r.Status != leaderboard.StatusRejected) || !r.Month.IsZero() {
			t.Fatalf("result %d: board %q period %q month %v, want period %q and no month", i, r.Board, r.Period, r.Month, periods[i])
		}
	}
}

func TestSubmitBoardScores_RefusesEventsNoOpenPeriodTakes(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "day", Name: "Day", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 10, 0)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "forever", Name: "Forever", Reset: leaderboard.ResetNone,
		TimeZone: new("UTC"), CloseGrace: new(86400), StartsAt: utc(11, 1, 0), EndsAt: utc(11, 20, 6)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "seasons", Name: "Seasons", Reset: leaderboard.ResetSeason,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	for _, s := range []struct {
		key        string
		start, end *time.Time
	}{{"s1", utc(11, 1, 0), utc(11, 15, 0)}, {"s2", utc(11, 18, 0), utc(12, 1, 0)}} {
		if _, err := store.CreateSeason(ctx, "seasons", s.key, *s.start, *s.end); err != nil {
			t.Fatal(err)
		}
	}

	results := mustSubmit(t, store,
		boardEvent("nope", "e1", "ann", leaderboard.ModeSet, 5, utc(11, 20, 10)),
		boardEvent("day", "e2", "ann", leaderboard.ModeSet, 5, utc(11, 5, 0)),
		boardEvent("day", "e3", "ann", leaderboard.ModeSet, 5, utc(11, 19, 23)),
		boardEvent("day", "e4", "ann", leaderboard.ModeSet, 5, utc(11, 20, 11)),
		boardEvent("forever", "e5", "ann", leaderboard.ModeSet, 7, utc(11, 20, 5)),
		boardEvent("forever", "e6", "ann", leaderboard.ModeSet, 8, utc(11, 20, 7)),
		boardEvent("seasons", "e7", "ann", leaderboard.ModeSet, 1, utc(11, 16, 0)),
		boardEvent("seasons", "e8", "ann", leaderboard.ModeSet, 2, utc(11, 19, 0)),
		boardEvent("seasons", "e9", "ann", leaderboard.ModeSet, 3, utc(11, 10, 0)),
	)
	assertBoardOutcomes(t, results, []string{"", "", "2026-11-19", "2026-11-20", "all", "all", "", "s2", "s1"},
		rejected(leaderboard.ENOTFOUND), rejected(leaderboard.ENOTSTARTED), rejected(leaderboard.EMONTHCLOSED),
		applied(5), applied(7), rejected(leaderboard.EMONTHCLOSED),
		rejected(leaderboard.ENOTSTARTED), applied(2), rejected(leaderboard.EMONTHCLOSED))

	// A call whose events are all refused opens no period.
	if p, err := store.Period(ctx, "day", "2026-11-19"); err != nil || p != nil {
		t.Fatalf("the refused day was opened: %+v, %v", p, err)
	}

	// The board ends during the next day: periods that start after its end
	// take nothing, the one that holds it runs its course.
	now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if _, err := store.EndBoard(ctx, "day", utc(11, 21, 6)); err != nil {
		t.Fatal(err)
	}
	now = time.Date(2026, 11, 22, 0, 0, 30, 0, time.UTC)
	results = mustSubmit(t, store,
		boardEvent("day", "e10", "ann", leaderboard.ModeSet, 6, utc(11, 21, 20)),
		boardEvent("day", "e11", "ann", leaderboard.ModeSet, 6, new(now)))
	assertBoardOutcomes(t, results, []string{"2026-11-21", "2026-11-22"}, applied(6), rejected(leaderboard.EMONTHCLOSED))

	// A period no longer OPEN (its close began) takes nothing.
	if _, err := mustConn(t).Exec(ctx, `UPDATE periods SET status = 'CLOSING' WHERE board_id = 'day' AND key = '2026-11-21'`); err != nil {
		t.Fatal(err)
	}
	results = mustSubmit(t, store, boardEvent("day", "e12", "bob", leaderboard.ModeSet, 6, utc(11, 21, 21)))
	assertBoardOutcomes(t, results, []string{"2026-11-21"}, rejected(leaderboard.EMONTHCLOSED))
}

func TestSubmitBoardScores_KeepsTheNewestChangingEventsSubscoreAndMetadata(t *testing.T) {
	store := mustOpenDB(t)
	b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "race", Name: "Race", Reset: leaderboard.ResetMonth,
		TieBreak: new(leaderboard.TieBreakSubscoreDesc), TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	with := func(e leaderboard.ScoreEvent, subscore *int, metadata string) leaderboard.ScoreEvent {
		e.Subscore = subscore
		if metadata != "" {
			e.Metadata = json.RawMessage(metadata)
		}
		return e
	}
	results := mustSubmit(t, store,
		with(boardEvent("race", "1", "ann", leaderboard.ModeSet, 10, at(1)), nil, `{"car": "red"}`),
		with(boardEvent("race", "2", "ann", leaderboard.ModeBest, 5, at(2)), new(9), `{"car": "blue"}`),
		with(boardEvent("race", "3", "ann", leaderboard.ModeBest, 10, at(3)), new(3), `{"car": "green"}`),
		with(boardEvent("race", "4", "ann", leaderboard.ModeSet, 10, at(4)), new(3), `{"car": "black"}`),
		with(boardEvent("race", "5", "bob", leaderboard.ModeSet, 10, at(5)), new(4), ""),
	)
	assertBoardOutcomes(t, results, []string{"2026-11", "2026-11", "2026-11", "2026-11", "2026-11"},
		applied(10), unchanged(10), applied(10), unchanged(10), applied(10))
	s, err := store.PeriodStanding(context.Background(), b, "2026-11", "ann", 1, 1)
	if err != nil || s == nil {
		t.Fatalf("standing: %+v, %v", s, err)
	}
	if s.Subscore == nil || *s.Subscore != 3 || string(s.Metadata) != `{"car": "green"}` || !s.ReachedAt.Equal(*at(3)) {
		t.Fatalf("ann: subscore %v metadata %s reached %s; want 3, the green car, at %s", s.Subscore, s.Metadata, s.ReachedAt, *at(3))
	}
	// bob's higher subscore ranks him first; he sent no metadata.
	if s.Rank != 2 || s.Total != 2 || len(s.Above) != 1 || s.Above[0].Player.ID != "bob" || s.Above[0].Metadata != nil ||
		s.Month != november || s.Board != "race" || s.Period != "2026-11" || s.Final {
		t.Fatalf("standing %+v, want ann second of two under bob in November", s)
	}
}

func TestSubmitBoardScores_DuplicateRetryAndReusedEventID(t *testing.T) {
	store := mustOpenDB(t)
	for _, id := range []string{"a", "b"} {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetWeek,
			TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	}
	withSubscore := func(e leaderboard.ScoreEvent, n int) leaderboard.ScoreEvent { e.Subscore = &n; return e }
	first := boardEvent("a", "e1", "ann", leaderboard.ModeAdd, 5, utc(11, 20, 1))
	results := mustSubmit(t, store, first, first)
	assertBoardOutcomes(t, results, []string{"2026-W47", "2026-W47"}, applied(5), duplicate(5))
	results = mustSubmit(t, store,
		first,
		boardEvent("a", "e1", "ann", leaderboard.ModeAdd, 6, utc(11, 20, 1)),
		withSubscore(first, 1),
		boardEvent("a", "e1", "bob", leaderboard.ModeAdd, 5, utc(11, 20, 1)),
		boardEvent("b", "e1", "ann", leaderboard.ModeAdd, 7, utc(11, 20, 1)),
		event("e1", "ann", leaderboard.ModeAdd, 8, utc(11, 20, 1)),
	)
	assertOutcomes(t, results, duplicate(5), rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT),
		rejected(leaderboard.EBADINPUT), applied(7), applied(8))
	if results[0].Period != "2026-W47" || results[0].Board != "a" {
		t.Fatalf("the retry's result %+v, want board a, week 45", results[0])
	}
	// A retry is DUPLICATE still after its period stopped taking events.
	later := mustOpenDBKeeping(t, store, time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC))
	results = mustSubmit(t, later, first)
	assertBoardOutcomes(t, results, []string{"2026-W47"}, duplicate(5))
}

// mustOpenDBKeeping closes store and opens another DB on the same data, its
// clock at now.
func mustOpenDBKeeping(t *testing.T, store *db.DB, now time.Time) *db.DB {
	t.Helper()
	store.Close()
	other, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	return other
}

func TestSubmitScores_MixedBatchAnswersMainsEventsAsAlone(t *testing.T) {
	mainEvents := []leaderboard.ScoreEvent{
		event("m1", "ann", leaderboard.ModeSet, 10, at(1)),
		event("m2", "bob", leaderboard.ModeAdd, 20000, at(2)),
		event("m3", "ann", leaderboard.ModeBest, 12, at(3)),
		event("m1", "ann", leaderboard.ModeSet, 10, at(1)),
		event("m4", "cid", leaderboard.ModeSet, 5, utc(9, 1, 0)),
	}
	store := mustOpenDB(t)
	alone := mustSubmit(t, store, mainEvents...)
	store.Close()

	store = mustOpenDB(t)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay,
		Order: new(leaderboard.OrderAsc), TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	mixed := []leaderboard.ScoreEvent{
		boardEvent("laps", "m1", "ann", leaderboard.ModeBest, 90, utc(11, 20, 1)),
		mainEvents[0], mainEvents[1],
		boardEvent("nope", "x", "ann", leaderboard.ModeSet, 1, nil),
		mainEvents[2],
		boardEvent("laps", "m2", "bob", leaderboard.ModeBest, 80, utc(11, 20, 2)),
		mainEvents[3], mainEvents[4],
	}
	results := mustSubmit(t, store, mixed...)
	var mainResults []leaderboard.ScoreResult
	for i, e := range mixed {
		if e.Board == "" {
			mainResults = append(mainResults, results[i])
		}
	}
	if !reflect.DeepEqual(mainResults, alone) {
		t.Fatalf("main's results in a mixed call:\n %+v\nalone:\n %+v", mainResults, alone)
	}
	assertOutcomes(t, []leaderboard.ScoreResult{results[0], results[3], results[5]},
		applied(90), rejected(leaderboard.ENOTFOUND), applied(80))
	if s := mustStanding(t, store, "ann"); s.Score != 12 {
		t.Fatalf("ann on main: %d, want 12", s.Score)
	}
}

// Two instances submit the first events of the same new players of a board
// at once, each call also retrying the other's: every event is applied once,
// and every total is the sum of its events.
func TestSubmitBoardScores_TwoInstancesApplyEachEventOnce(t *testing.T) {
	first := mustOpenDB(t)
	second, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	b := mustCreateBoard(t, first, leaderboard.BoardSpec{ID: "pvp", Name: "PvP", Reset: leaderboard.ResetWeek,
		TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	const (
		players = 20
		calls   = 8
	)
	// Call c adds c+1 to every player; odd calls also resend call c-1's events.
	callEvents := func(c int) []leaderboard.ScoreEvent {
		var events []leaderboard.ScoreEvent
		for p := range players {
			events = append(events, boardEvent("pvp", fmt.Sprintf("c%d-p%d", c, p), fmt.Sprintf("p%02d", p),
				leaderboard.ModeAdd, c+1, utc(11, 20, 1)))
		}
		return events
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		applies = map[string]int{}
		errs    []error
	)
	for c := range calls {
		wg.Go(func() {
			events := callEvents(c)
			if c%2 == 1 {
				events = append(events, callEvents(c-1)...)
			}
			results, err := []*db.DB{first, second}[c%2].SubmitScores(context.Background(), events)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			for _, r := range results {
				switch r.Status {
				case leaderboard.StatusApplied:
					applies[r.EventID]++
				case leaderboard.StatusDuplicate:
				default:
					errs = append(errs, fmt.Errorf("event %s: %s %v", r.EventID, r.Status, r.Err))
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(applies) != players*calls {
		t.Fatalf("%d events applied, want %d", len(applies), players*calls)
	}
	for id, n := range applies {
		if n != 1 {
			t.Fatalf("event %s applied %d times", id, n)
		}
	}
	page, err := first.PeriodLeaderboard(context.Background(), b, "2026-W47", players, "")
	if err != nil || page.Total != players || len(page.Edges) != players {
		t.Fatalf("page: %+v, %v; want %d players", page, err, players)
	}
	for _, e := range page.Edges {
		if want := calls * (calls + 1) / 2; e.Entry.Score != want {
			t.Fatalf("%s: total %d, want %d", e.Entry.Player.ID, e.Entry.Score, want)
		}
	}
}

func TestBoardLeaderboard_RefusesACursorOfAnotherPeriod(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(86400), StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store,
		boardEvent("daily", "1", "ann", leaderboard.ModeSet, 5, utc(11, 19, 10)),
		boardEvent("daily", "2", "bob", leaderboard.ModeSet, 6, utc(11, 19, 11)),
		boardEvent("daily", "3", "ann", leaderboard.ModeSet, 7, utc(11, 20, 10)))
	page, err := store.PeriodLeaderboard(ctx, b, "2026-11-19", 1, "")
	if err != nil || len(page.Edges) != 1 || !page.HasNextPage || page.Total != 2 || page.Edges[0].Entry.Player.ID != "bob" {
		t.Fatalf("first page of the 19th: %+v, %v", page, err)
	}
	cursor := page.Edges[0].Cursor
	for _, key := range []string{"2026-11-20", "2026-11-18"} {
		if _, err := store.PeriodLeaderboard(ctx, b, key, 1, cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Fatalf("the 19th's cursor on %s: %v, want BAD_USER_INPUT", key, err)
		}
	}
	if _, err := store.PeriodLeaderboard(ctx, b, "2026-11-19", 1, cursor+"x"); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("a malformed cursor: %v, want BAD_USER_INPUT", err)
	}
	if page, err := store.PeriodLeaderboard(ctx, b, "2026-11-18", 10, ""); err != nil || len(page.Edges) != 0 || page.Total != 0 {
		t.Fatalf("a day without a period: %+v, %v; want an empty page", page, err)
	}
	if s, err := store.PeriodStanding(ctx, b, "2026-11-18", "ann", 1, 1); err != nil || s != nil {
		t.Fatalf("a standing in a day without a period: %+v, %v; want none", s, err)
	}
}

// Calls of several game servers, each interleaving events, retries and
// reused ids over several boards, merged into shared transactions (one
// writer, calls waiting behind it): every call gets the results the plain-sort
// model gives it, and the periods end as the model's.
func TestBoardScores_ConcurrentMergedCallsMatchAPlainSort(t *testing.T) {
	const servers = 4
	now := testNow
	store := mustOpenDB(t, db.WithLimits(db.Limits{SubmitWriters: 1, SubmitMergeEvents: 40}))
	specs := []leaderboard.BoardSpec{
		{ID: "day.desc", Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderDesc), MinScore: new(-20), MaxScore: new(40),
			TieBreak: new(leaderboard.TieBreakNone), TimeZone: new("Europe/Berlin"), CloseGrace: new(600), StartsAt: utc(11, 1, 0)},
		{ID: "week.asc", Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderAsc), MinScore: new(1), MaxScore: new(30),
			TieBreak: new(leaderboard.TieBreakSubscoreDesc), TimeZone: new("UTC"), CloseGrace: new(3600), StartsAt: utc(11, 1, 0)},
		{ID: "month.desc", Reset: leaderboard.ResetMonth, Order: new(leaderboard.OrderDesc), MinScore: new(0), MaxScore: new(50),
			TieBreak: new(leaderboard.TieBreakSubscoreAsc), TimeZone: new("America/New_York"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)},
		{ID: "all.asc", Reset: leaderboard.ResetNone, Order: new(leaderboard.OrderAsc), MinScore: new(-10), MaxScore: new(25),
			TieBreak: new(leaderboard.TieBreakSubscoreAsc), TimeZone: new("UTC"), CloseGrace: new(1800),
			StartsAt: utc(11, 19, 0), EndsAt: utc(11, 22, 18)},
	}
	model := &boardOracle{boards: map[string]*oracleBoard{}}
	for _, spec := range specs {
		spec.Name = spec.ID
		model.boards[spec.ID] = &oracleBoard{board: mustCreateBoard(t, store, spec),
			events: map[string]boardOracleEvent{}, rows: map[string]map[string]*boardOracleRow{}}
	}
	boardIDs := slices.Sorted(maps.Keys(model.boards))
	rng := rand.New(rand.NewPCG(26, 2))
	var allPlayers []string
	calls := make([][][]leaderboard.ScoreEvent, servers)
	wants := make([][][]outcome, servers)
	for s := range servers {
		// Each server has its own players and event ids, and its events are
		// s seconds before their ten minutes: the model's order of arrival
		// decides ties only between events of one server, whose order the
		// calls keep.
		var players []string
		for p := range 5 {
			players = append(players, fmt.Sprintf("s%d-p%d", s, p))
		}
		allPlayers = append(allPlayers, players...)
		var sent, events []leaderboard.ScoreEvent
		newEvent := func() leaderboard.ScoreEvent {
			e := leaderboard.ScoreEvent{EventID: fmt.Sprintf("s%d-e%d", s, len(sent)), PlayerID: players[rng.IntN(len(players))],
				Mode:  []leaderboard.ScoreMode{leaderboard.ModeAdd, leaderboard.ModeSet, leaderboard.ModeBest}[rng.IntN(3)],
				Value: rng.IntN(16) - 3, Board: boardIDs[rng.IntN(len(boardIDs))],
				OccurredAt: new(now.Add(-time.Duration(rng.IntN(150))*10*time.Minute - time.Duration(s)*time.Second))}
			if rng.IntN(20) == 0 {
				e.Board = "nope"
			}
			if e.Mode == leaderboard.ModeAdd {
				e.Value = rng.IntN(9) - 3
			}
			if rng.IntN(10) < 7 {
				e.Subscore = new(rng.IntN(2))
			}
			if rng.IntN(3) == 0 {
				e.Metadata = json.RawMessage(fmt.Sprintf(`{"n": %d}`, len(sent)))
			}
			return e
		}
		for range 200 {
			var e leaderboard.ScoreEvent
			switch r := rng.IntN(20); {
			case r < 3 && len(sent) > 0: // a retry
				e = sent[rng.IntN(len(sent))]
			case r < 4 && len(sent) > 0: // an id used before, for another event or board
				e = newEvent()
				e.EventID = sent[rng.IntN(len(sent))].EventID
			default:
				e = newEvent()
			}
			sent, events = append(sent, e), append(events, e)
		}
		for len(events) > 0 {
			n := min(len(events), 1+rng.IntN(30))
			calls[s], wants[s] = append(calls[s], events[:n]), append(wants[s], model.submit(events[:n], now))
			events = events[n:]
		}
	}
	results := submitConcurrently(t, store, calls)
	for s := range servers {
		for c, got := range results[s] {
			for i, r := range got {
				e := calls[s][c][i]
				if o := outcomes(got)[i]; o != wants[s][c][i] {
					t.Fatalf("server %d, call %d, event %d %+v: got %v, want %v (%v)", s, c, i, e, o, wants[s][c][i], r.Err)
				}
				if ob := model.boards[e.Board]; r.Status != leaderboard.StatusRejected &&
					(r.Board != e.Board || r.Period != ob.events[e.EventID].period) {
					t.Fatalf("server %d, call %d, event %d: board %q period %q, want %q %q", s, c, i, r.Board, r.Period,
						e.Board, ob.events[e.EventID].period)
				}
			}
		}
	}
	for _, id := range boardIDs {
		ob := model.boards[id]
		for key := range ob.rows {
			checkPeriod(t, store, rng, ob, key, allPlayers, false)
		}
	}
}

// A call whose event PostgreSQL refuses fails alone: the calls written in
// the same transaction are written again one by one, and succeed.
func TestBoardScores_RefusedCallFailsAlone(t *testing.T) {
	ctx := context.Background()
	store := mustOpenDB(t, db.WithLimits(db.Limits{SubmitWriters: 1}))
	b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "pvp", Name: "PvP", Reset: leaderboard.ResetWeek,
		TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	const week = "2026-W47"
	mustSubmit(t, store, boardEvent("pvp", "first", "held", leaderboard.ModeAdd, 1, utc(11, 20, 1)))
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	refusePoison(t, conn, "board_score_events")
	// The first call waits for this lock on its row in the writer's
	// transaction; the others queue behind it and are then written together.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM board_scores WHERE player_id = 'held' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	calls := [][]leaderboard.ScoreEvent{
		{boardEvent("pvp", "blocked", "held", leaderboard.ModeAdd, 1, utc(11, 20, 2))},
		{boardEvent("pvp", "poison", "p1", leaderboard.ModeAdd, 1, utc(11, 20, 2))},
		{boardEvent("pvp", "good", "p2", leaderboard.ModeAdd, 1, utc(11, 20, 2)),
			boardEvent("pvp", "good2", "p3", leaderboard.ModeAdd, 1, utc(11, 20, 2))},
	}
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() { _, errs[i] = store.SubmitScores(ctx, call) })
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("blocked, poison, good: %v, %v, %v; want only poison to fail", errs[0], errs[1], errs[2])
	}
	for player, want := range map[string]int{"held": 2, "p2": 1, "p3": 1} {
		if s, err := store.PeriodStanding(ctx, b, week, player, 0, 0); err != nil || s == nil || s.Score != want {
			t.Errorf("standing of %s: %+v, %v; want score %d", player, s, err, want)
		}
	}
	if s, err := store.PeriodStanding(ctx, b, week, "p1", 0, 0); err != nil || s != nil {
		t.Errorf("the refused call's player: standing %+v, error %v; want none", s, err)
	}
}
