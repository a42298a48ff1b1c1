package resolvers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/loaders"
	"github.com/gamebackend/leaderboard/resolvers"
)

// fakeStore stands in for the database: each method answers what its
// field says; main is the only board, its months are periods.
type fakeStore struct {
	leaderboard.BoardService
	leaderboard.PeriodService
	periods    []leaderboard.Period
	standing   *leaderboard.Standing
	standErr   error
	results    []leaderboard.ScoreResult
	ranks      map[leaderboard.PeriodPlayer]int
	ranksErr   error
	rankCalls  [][]leaderboard.PeriodPlayer
	monthErr   error
	askedAbove int
	askedBelow int
}

// fakeMain is main's board, kept as the server's board cache keeps it.
var fakeMain = &leaderboard.Board{ID: leaderboard.MainBoard, Reset: leaderboard.ResetMonth, Order: leaderboard.OrderDesc,
	MaxScore: 10000}

// Board answers main's board, which every read of main looks up.
func (f *fakeStore) Board(_ context.Context, id string) (*leaderboard.Board, error) {
	if id != leaderboard.MainBoard {
		return nil, nil
	}
	return fakeMain, nil
}

func (f *fakeStore) PeriodStanding(_ context.Context, _ *leaderboard.Board, _, _ string, above, below int) (*leaderboard.Standing, error) {
	f.askedAbove, f.askedBelow = above, below
	return f.standing, f.standErr
}

func (f *fakeStore) PeriodLeaderboard(context.Context, *leaderboard.Board, string, int, string) (*leaderboard.Page, error) {
	return &leaderboard.Page{}, nil
}

func (f *fakeStore) OpenedPeriod(_ context.Context, _ *leaderboard.Board, key string) (*leaderboard.Period, error) {
	for i := range f.periods {
		if f.periods[i].Key == key {
			return &f.periods[i], f.monthErr
		}
	}
	return nil, f.monthErr
}

func (f *fakeStore) Periods(context.Context, *leaderboard.Board, int) ([]leaderboard.Period, error) {
	return f.periods, nil
}

func (f *fakeStore) SubmitScores(context.Context, []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	return f.results, nil
}

func (f *fakeStore) LiveRanks(_ context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]int, error) {
	f.rankCalls = append(f.rankCalls, keys)
	return f.ranks, f.ranksErr
}

const serverToken = "server-token"

// serve runs one GraphQL request against resolvers over store, as the
// server wires them, and returns the HTTP status, headers and decoded body.
func serve(t *testing.T, store *fakeStore, token, query string) (int, http.Header, map[string]any) {
	t.Helper()
	r := &resolvers.Resolver{StandingService: store, BoardService: store, PeriodService: store, ScoreService: store,
		Logger: slog.New(slog.DiscardHandler)}
	h := auth.New(auth.Config{ServerToken: serverToken}).Middleware(
		loaders.Middleware(loaders.Sources{Ranks: store})(resolvers.NewHandler(r, resolvers.HandlerOptions{})))
	body, _ := json.Marshal(map[string]any{"query": query})
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	return w.Code, w.Header(), out
}

func codes(out map[string]any) []string {
	var list []string
	errs, _ := out["errors"].([]any)
	for _, e := range errs {
		ext, _ := e.(map[string]any)["extensions"].(map[string]any)
		list = append(list, fmt.Sprint(ext["code"]))
	}
	return list
}

// Once the events are committed, a rank that cannot be read is null and
// the answer carries no error: an error would read as "not saved".
func TestSubmitScores_CommittedAnswerHasNoErrorWhenRanksFail(t *testing.T) {
	m, _ := leaderboard.ParseMonth("2026-11")
	store := &fakeStore{
		results: []leaderboard.ScoreResult{
			{EventID: "e1", Status: leaderboard.StatusApplied, Month: m, PlayerID: "p", Score: new(5)},
			{EventID: "e2", Status: leaderboard.StatusApplied, Board: "weekly", Period: "2026-W48", PlayerID: "p", Score: new(5)},
		},
		ranksErr: errors.New("connection reset"),
	}
	status, _, out := serve(t, store, serverToken,
		`mutation { submitScores(events: [{eventId: "e1", playerId: "p", mode: ADD, value: 5}]) { eventId status score rank } }`)
	results := out["data"].(map[string]any)["submitScores"].([]any)
	for _, r := range results {
		r := r.(map[string]any)
		if status != http.StatusOK || out["errors"] != nil || r["status"] != "APPLIED" || r["rank"] != nil {
			t.Fatalf("%d %v", status, out)
		}
	}
}

// The ranks of a submit's results on every board are asked of the store in
// one call, each keyed by its board, period and player (main's period is
// its month); a rejected result has none.
func TestSubmitScores_RanksOfEveryBoardInOneCall(t *testing.T) {
	m, _ := leaderboard.ParseMonth("2026-11")
	mainKey := leaderboard.PeriodPlayer{Board: leaderboard.MainBoard, Period: "2026-11", PlayerID: "p"}
	weeklyKey := leaderboard.PeriodPlayer{Board: "weekly", Period: "2026-W48", PlayerID: "q"}
	store := &fakeStore{
		results: []leaderboard.ScoreResult{
			{EventID: "e1", Status: leaderboard.StatusApplied, Month: m, PlayerID: "p", Score: new(5)},
			{EventID: "e2", Status: leaderboard.StatusDuplicate, Board: "weekly", Period: "2026-W48", PlayerID: "q", Score: new(7)},
			{EventID: "e3", Status: leaderboard.StatusRejected, Board: "weekly", Period: "2026-W48", PlayerID: "r",
				Err: leaderboard.Errorf(leaderboard.EBADINPUT, "out of range")},
		},
		ranks: map[leaderboard.PeriodPlayer]int{mainKey: 3, weeklyKey: 7},
	}
	_, _, out := serve(t, store, serverToken,
		`mutation { submitScores(events: [{eventId: "e1", playerId: "p", mode: ADD, value: 5}]) { eventId rank } }`)
	got, _ := json.Marshal(out)
	const want = `{"data":{"submitScores":[{"eventId":"e1","rank":3},{"eventId":"e2","rank":7},{"eventId":"e3","rank":null}]}}`
	if string(got) != want {
		t.Errorf("answer %s, want %s", got, want)
	}
	if len(store.rankCalls) != 1 || len(store.rankCalls[0]) != 2 ||
		!slices.Contains(store.rankCalls[0], mainKey) || !slices.Contains(store.rankCalls[0], weeklyKey) {
		t.Errorf("rank calls %v, want one for %v and %v", store.rankCalls, mainKey, weeklyKey)
	}
}

func TestErrorPresenter_CodesAndStatuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		status int
		code   string
		msg    string
	}{
		{"DomainError", leaderboard.Errorf(leaderboard.ENOTFOUND, "no such month"), http.StatusOK, "NOT_FOUND", "no such month"},
		{"Unavailable", leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later"), http.StatusServiceUnavailable, "UNAVAILABLE", "retry later"},
		{"Deadline", fmt.Errorf("read: %w", context.DeadlineExceeded), http.StatusServiceUnavailable, "UNAVAILABLE", "took too long"},
		{"Internal", errors.New("pq: secret table exploded"), http.StatusOK, "INTERNAL", "Internal error."},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, header, out := serve(t, &fakeStore{monthErr: c.err}, "", `{ month(month: "2026-11") { month } }`)
			errs := out["errors"].([]any)
			msg := errs[0].(map[string]any)["message"].(string)
			if status != c.status || fmt.Sprint(codes(out)) != "["+c.code+"]" || !strings.Contains(msg, c.msg) {
				t.Fatalf("%d %v", status, out)
			}
			if strings.Contains(msg, "secret") {
				t.Errorf("an internal detail leaked: %q", msg)
			}
			if c.status == http.StatusServiceUnavailable && header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
		})
	}
}

// month and months answer main's periods as the months they are.
func TestMonths_AreMainsPeriods(t *testing.T) {
	ends := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	closes, closed := ends.Add(15*time.Minute), ends.Add(20*time.Minute)
	store := &fakeStore{periods: []leaderboard.Period{
		{Board: leaderboard.MainBoard, Key: "2026-11", Status: leaderboard.PeriodClosed, EndsAt: &ends, ClosesAt: &closes,
			ClosedAt: &closed, Participants: 7, Digest: "ab12", Settlement: &leaderboard.Settlement{Status: leaderboard.SettlementDisabled}},
		{Board: leaderboard.MainBoard, Key: "2026-10", Status: leaderboard.PeriodOpen, EndsAt: &ends, ClosesAt: &closes},
	}}
	_, _, out := serve(t, store, "", `{ month(month: "2026-11") { month status participants endsAt closesAt closedAt digest settlement { status } }
		none: month(month: "2026-09") { month } months { month status closedAt digest } }`)
	got, _ := json.Marshal(out)
	want := `{"data":{"month":{"closedAt":"2026-12-01T00:20:00Z","closesAt":"2026-12-01T00:15:00Z","digest":"ab12",` +
		`"endsAt":"2026-12-01T00:00:00Z","month":"2026-11","participants":7,"settlement":{"status":"DISABLED"},"status":"CLOSED"},` +
		`"months":[{"closedAt":"2026-12-01T00:20:00Z","digest":"ab12","month":"2026-11","status":"CLOSED"},` +
		`{"closedAt":null,"digest":null,"month":"2026-10","status":"OPEN"}],"none":null}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestErrorPresenter_ValidationIsBadUserInput(t *testing.T) {
	for _, q := range []string{`{ month(month: "2026-13") { month } }`, `{ nope }`, `{ month(month: "2026-11") { month `} {
		status, _, out := serve(t, &fakeStore{}, "", q)
		if status == http.StatusInternalServerError || fmt.Sprint(codes(out)) != "[BAD_USER_INPUT]" {
			t.Errorf("%s: %d %v", q, status, out)
		}
	}
}

// No validation error suggests a name of the schema ("Did you mean ...?"):
// not for fields, arguments, types, selections, nor enum values misquoted
// or misspelt, which gqlgen's SetDisableSuggestion alone leaves in.
func TestValidation_NoSuggestions(t *testing.T) {
	for _, q := range []string{
		`{ monthz(first: 1) { month } }`,
		`{ months(firts: 1) { month } }`,
		`query($n: Innt) { months(first: $n) { month } }`,
		`{ months }`,
		`mutation { createBoard(id: "b", name: "B", reset: "DAY") { created } }`,
		`mutation { createBoard(id: "b", name: "B", reset: DAYY) { created } }`,
		`mutation { createBoard(id: "b", name: "B", reset: DAY, order: "ASC") { created } }`,
	} {
		status, _, out := serve(t, &fakeStore{}, "", q)
		body, _ := json.Marshal(out)
		got := codes(out)
		if status == http.StatusInternalServerError || len(got) == 0 || slices.ContainsFunc(got, func(c string) bool { return c != leaderboard.EBADINPUT }) ||
			strings.Contains(strings.ToLower(string(body)), "did you mean") {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
}

// The standing is read with as many neighbours as any selection of
// neighbours asks for, clamped to 0..50, so one read serves them all.
func TestStanding_ReadsTheNeighboursTheQueryAsksFor(t *testing.T) {
	for _, c := range []struct {
		selection    string
		above, below int
	}{
		{`neighbours { rank }`, 10, 10},
		{`neighbours(above: 3, below: 0) { rank }`, 3, 0},
		{`a: neighbours(above: 2) { rank } b: neighbours(below: 40) { rank }`, 10, 40},
		{`... on Standing { neighbours(above: 7, below: 1) { rank } }`, 7, 1},
		{`rank`, 0, 0},
		{`neighbours(above: 99) { rank }`, 50, 10},
	} {
		store := &fakeStore{}
		serve(t, store, "", `{ standing(month: "2026-11", playerId: "p") { `+c.selection+` } }`)
		if store.askedAbove != c.above || store.askedBelow != c.below {
			t.Errorf("%s: read %d above, %d below; want %d, %d", c.selection, store.askedAbove, store.askedBelow, c.above, c.below)
		}
	}
}

// A refusal names the operation and the token it needs, whichever way the
// answer is written (submitScores and myRank are written directly).
func TestAuth_RefusalNamesTheOperationAndItsToken(t *testing.T) {
	for _, c := range []struct {
		name, token, query, code, msg string
	}{
		{"SubmitWithoutToken", "", `mutation { submitScores(events: [{eventId: "e1", playerId: "p", mode: ADD, value: 5}]) { status } }`,
			"UNAUTHENTICATED", "submitScores needs the game-server token (LEADERBOARD_SERVER_TOKEN) as Authorization: Bearer …"},
		{"AliasedSubmit", "", `mutation { s: submitScores(events: [{eventId: "e1", playerId: "p", mode: ADD, value: 5}]) { status } }`,
			"UNAUTHENTICATED", "submitScores needs the game-server token"},
		{"MyRankWithTheServerToken", serverToken, `{ myRank(month: "2026-11") { rank } }`,
			"FORBIDDEN", "myRank needs a player token (an HS256 JWT signed with LEADERBOARD_JWT_SECRET, the player's id as its sub) as Authorization: Bearer …; the token sent is the game-server token (LEADERBOARD_SERVER_TOKEN)"},
		{"CloseMonthWithAnUnknownToken", "nope", `mutation { closeMonth(month: "2026-11") { status } }`,
			"UNAUTHENTICATED", "the bearer token is not valid; closeMonth needs the admin token (LEADERBOARD_ADMIN_TOKEN) as Authorization: Bearer …"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, out := serve(t, &fakeStore{}, c.token, c.query)
			errs, _ := out["errors"].([]any)
			if len(errs) != 1 {
				t.Fatalf("%v, want one error", out)
			}
			msg := errs[0].(map[string]any)["message"].(string)
			if fmt.Sprint(codes(out)) != "["+c.code+"]" || !strings.Contains(msg, c.msg) {
				t.Fatalf("%v %q, want %s saying %q", codes(out), msg, c.code, c.msg)
			}
		})
	}
}
