package resolvers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/graph"
)

// standingStore answers every standing with its standing, or its error.
type standingStore struct {
	leaderboard.StandingService
	standing *leaderboard.Standing
	err      error
}

func (s standingStore) PeriodStanding(context.Context, *leaderboard.Board, string, string, int, int) (*leaderboard.Standing, error) {
	return s.standing, s.err
}

// mainBoard answers main's board, which every read of main looks up, and no
// other.
var mainBoard = testBoards(nil, nil)

// testStanding is a standing with 12 neighbours on each side, names that
// need escaping, a player with no name, and times with nanoseconds.
func testStanding() *leaderboard.Standing {
	month, _ := leaderboard.ParseMonth("2026-10")
	names := []string{`Quote "q"`, `Back\slash`, "Line\nbreak\ttab", "Ünïcødé ✓ \u2028", "<b>&amp;</b>", "\x01ctl"}
	entry := func(rank int) leaderboard.RankEntry {
		e := leaderboard.RankEntry{Rank: rank, Score: 10000 - rank*3,
			ReachedAt: time.Date(2026, 10, 3, 4, 5, 6, rank*1001, time.FixedZone("X", 3600)),
			Player:    leaderboard.Player{ID: "p-" + string(rune('a'+rank%26))}}
		if rank%7 != 0 {
			e.Player.Name = &names[rank%len(names)]
		}
		return e
	}
	s := &leaderboard.Standing{Month: month, Total: 1000, Final: true, RankEntry: entry(100)}
	for r := 88; r < 100; r++ {
		s.Above = append(s.Above, entry(r))
	}
	for r := 101; r <= 112; r++ {
		s.Below = append(s.Below, entry(r))
	}
	return s
}

// boardStore holds boards, the current period of each (none when left
// out), and answers every board standing with standing, named by its board
// and period, or with err.
type boardStore struct {
	leaderboard.BoardService
	leaderboard.PeriodService
	leaderboard.StandingService
	boards   map[string]*leaderboard.Board
	current  map[string]string
	standing *leaderboard.Standing
	err      error
}

func (s boardStore) Board(_ context.Context, id string) (*leaderboard.Board, error) {
	return s.boards[id], nil
}

func (s boardStore) CurrentKey(_ context.Context, b *leaderboard.Board) (string, bool, error) {
	key, ok := s.current[b.ID]
	return key, ok, nil
}

// PeriodStanding answers as the database does: main's standings name only
// their month, those of other boards their board and period.
func (s boardStore) PeriodStanding(_ context.Context, b *leaderboard.Board, key, _ string, _, _ int) (*leaderboard.Standing, error) {
	if s.err != nil || s.standing == nil {
		return nil, s.err
	}
	st := *s.standing
	if b.ID != leaderboard.MainBoard {
		st.Board, st.Period = b.ID, key
	}
	return &st, nil
}

// testBoards holds main, a DESC weekly board, an ASC daily board and a
// board with no current period.
func testBoards(standing *leaderboard.Standing, err error) boardStore {
	board := func(id string, reset leaderboard.Reset, order leaderboard.SortOrder) *leaderboard.Board {
		return &leaderboard.Board{ID: id, Reset: reset, Order: order, Location: time.UTC, MaxScore: 10000,
			StartsAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	return boardStore{
		boards: map[string]*leaderboard.Board{
			leaderboard.MainBoard: board(leaderboard.MainBoard, leaderboard.ResetMonth, leaderboard.OrderDesc),
			"ladder":              board("ladder", leaderboard.ResetWeek, leaderboard.OrderDesc),
			"laps":                board("laps", leaderboard.ResetDay, leaderboard.OrderAsc),
			"later":               board("later", leaderboard.ResetDay, leaderboard.OrderDesc),
		},
		current:  map[string]string{leaderboard.MainBoard: "2026-10", "ladder": "2026-W44", "laps": "2026-11-19"},
		standing: standing, err: err,
	}
}

// testBoardStanding is testStanding with subscores, metadata (spaced as
// PostgreSQL prints it, with text that needs escaping) and a tier; with
// asc, a live standing of a lower-is-better board without them.
func testBoardStanding(asc bool) *leaderboard.Standing {
	s := testStanding()
	if asc {
		s.Final, s.Total, s.Rank = false, 7, 3
		for i := range s.Above {
			s.Above[i].Score = 100 + i
		}
		return s
	}
	with := func(e *leaderboard.RankEntry) {
		if e.Rank%3 != 0 {
			e.Subscore = new(-e.Rank * 17)
		}
		if e.Rank%4 != 0 {
			e.Metadata = json.RawMessage(`{"car": "red",  "laps": [1, 2.5, null], "note": "\u00e9 \" <b>&", "r": ` +
				strconv.Itoa(e.Rank) + `}`)
		}
	}
	with(&s.RankEntry)
	for i := range s.Above {
		with(&s.Above[i])
	}
	for i := range s.Below {
		with(&s.Below[i])
	}
	s.Tier = new("gold \"A\"")
	return s
}

// answer runs one request through a handler and returns its status and body.
func answer(t *testing.T, h http.Handler, token, query string, vars map[string]any) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}

// assertSameAnswer sends one request through the handler that writes
// answers directly and through gqlgen's, and requires the same status and
// the same bytes.
func assertSameAnswer(t *testing.T, direct, viaGqlgen http.Handler, token, query string, vars map[string]any) {
	t.Helper()
	gotStatus, got := answer(t, direct, token, query, vars)
	wantStatus, want := answer(t, viaGqlgen, token, query, vars)
	if gotStatus != wantStatus || got != want {
		t.Fatalf("written directly: %d %s\ngqlgen:           %d %s", gotStatus, got, wantStatus, want)
	}
}

// compilesDirectly reports whether the selection of query's first root
// field, of type typ, is written directly.
func compilesDirectly(t *testing.T, schema *ast.Schema, query, typ string) bool {
	t.Helper()
	doc, errs := gqlparser.LoadQuery(schema, query)
	if errs != nil {
		t.Fatalf("%s: %v", query, errs)
	}
	root := doc.Operations[0].SelectionSet[0].(*ast.Field)
	_, direct := compileSelection(root.SelectionSet, typ, nil)
	return direct
}

// A standing written directly is the answer gqlgen gives, byte for byte,
// whatever the selection, the arguments, the store's answer and the caller.
func TestWriteStandingsDirectly_AnswersAsGqlgen(t *testing.T) {
	secret := []byte("a-secret-of-at-least-32-bytes-long!!")
	playerToken, err := auth.PlayerToken(secret, "p-me", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	handlers := func(store standingStore) (direct, viaGqlgen http.Handler) {
		r := &Resolver{StandingService: store, BoardService: mainBoard, Logger: slog.New(slog.DiscardHandler)}
		authn := auth.New(auth.Config{JWTSecret: secret}).Middleware
		return authn(NewHandler(r, HandlerOptions{})), authn(NewHandler(r, HandlerOptions{viaGqlgen: true}))
	}
	const all = `month rank score reachedAt total final __typename
		player { id name __typename }
		neighbours { rank score reachedAt __typename player { id name __typename } }`
	for _, c := range []struct {
		name  string
		query string
		vars  map[string]any
		token string
		store standingStore
	}{
		{"every field", `{ standing(month: "2026-10", playerId: "p-x") { ` + all + ` } }`, nil, "", standingStore{standing: testStanding()}},
		{"variables, aliases, two lists", `query Q($m: Month!, $p: ID!, $a: Int, $b: Int) {
			mine: standing(month: $m, playerId: $p) {
				r: rank, s: score, who: player { n: name, i: id }
				up: neighbours(above: $a, below: 0) { rank player { name } }
				down: neighbours(above: 0, below: $b) { rank }
				all: neighbours(above: 50, below: 50) { rank }
			} }`, map[string]any{"m": "2026-10", "p": "p-x", "a": 3, "b": 12}, "", standingStore{standing: testStanding()}},
		{"variable counts left out", `query Q($a: Int) { standing(month: "2026-10", playerId: "p-x") { neighbours(above: $a) { rank } } }`,
			nil, "", standingStore{standing: testStanding()}},
		{"explicit null count", `{ standing(month: "2026-10", playerId: "p-x") { neighbours(above: null, below: 2) { rank } } }`,
			nil, "", standingStore{standing: testStanding()}},
		{"numeric player id", `{ standing(month: "2026-10", playerId: 123) { rank } }`, nil, "", standingStore{standing: testStanding()}},
		{"count out of range", `{ standing(month: "2026-10", playerId: "p-x") { rank neighbours(above: 51) { rank } } }`,
			nil, "", standingStore{standing: testStanding()}},
		{"negative count in a variable", `query Q($b: Int) { standing(month: "2026-10", playerId: "p-x") { rank neighbours(below: $b) { rank } } }`,
			map[string]any{"b": -1}, "", standingStore{standing: testStanding()}},
		{"count as a string", `query Q($a: Int) { standing(month: "2026-10", playerId: "p-x") { rank neighbours(above: $a) { rank } } }`,
			map[string]any{"a": "3"}, "", standingStore{standing: testStanding()}},
		{"count past 32 bits", `query Q($a: Int) { standing(month: "2026-10", playerId: "p-x") { rank neighbours(above: $a) { rank } } }`,
			map[string]any{"a": int64(1)<<32 + 3}, "", standingStore{standing: testStanding()}},
		{"fragments", `{ standing(month: "2026-10", playerId: "p-x") { ...F ... on Standing { score } } } fragment F on Standing { rank }`,
			nil, "", standingStore{standing: testStanding()}},
		{"directives", `query Q($yes: Boolean!) { standing(month: "2026-10", playerId: "p-x") { rank @include(if: $yes) score @skip(if: $yes) } }`,
			map[string]any{"yes": true}, "", standingStore{standing: testStanding()}},
		{"repeated field", `{ standing(month: "2026-10", playerId: "p-x") { rank rank player { id } player { name } } }`,
			nil, "", standingStore{standing: testStanding()}},
		{"no standing", `{ standing(month: "2026-10", playerId: "p-x") { rank } }`, nil, "", standingStore{}},
		{"store unavailable", `{ standing(month: "2026-10", playerId: "p-x") { rank } }`, nil, "",
			standingStore{err: leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later")}},
		{"bad player id", `{ standing(month: "2026-10", playerId: "") { rank } }`, nil, "", standingStore{standing: testStanding()}},
		{"bad month", `{ standing(month: "2026-13", playerId: "p-x") { rank } }`, nil, "", standingStore{standing: testStanding()}},
		{"myRank with a player token", `{ myRank(month: "2026-10") { ` + all + ` } }`, nil, playerToken, standingStore{standing: testStanding()}},
		{"myRank without a token", `{ myRank(month: "2026-10") { rank } }`, nil, "", standingStore{standing: testStanding()}},
		{"two root fields", `{ a: standing(month: "2026-10", playerId: "p-x") { rank } b: myRank(month: "2026-10") { score } __typename }`,
			nil, playerToken, standingStore{standing: testStanding()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct, viaGqlgen := handlers(c.store)
			assertSameAnswer(t, direct, viaGqlgen, c.token, c.query, c.vars)
		})
	}
}

// A standing of any board and period written directly is the answer gqlgen
// gives, byte for byte, errors included: the current period when none is
// named, both orders, with and without subscores, metadata and tiers.
func TestWriteStandingsDirectly_BoardsAnswerAsGqlgen(t *testing.T) {
	secret := []byte("a-secret-of-at-least-32-bytes-long!!")
	playerToken, err := auth.PlayerToken(secret, "p-me", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	handlers := func(store boardStore) (direct, viaGqlgen http.Handler) {
		r := &Resolver{StandingService: store, BoardService: store, PeriodService: store, Logger: slog.New(slog.DiscardHandler)}
		authn := auth.New(auth.Config{JWTSecret: secret}).Middleware
		return authn(NewHandler(r, HandlerOptions{})), authn(NewHandler(r, HandlerOptions{viaGqlgen: true}))
	}
	const all = `board period month rank score reachedAt subscore metadata percentile tier total final __typename
		player { id name __typename }
		neighbours { rank score reachedAt subscore metadata __typename player { id name __typename } }`
	desc, asc := testBoards(testBoardStanding(false), nil), testBoards(testBoardStanding(true), nil)
	for _, c := range []struct {
		name  string
		query string
		vars  map[string]any
		token string
		store boardStore
	}{
		{"DESC board, a period, every field", `{ standing(board: "ladder", period: "2026-W43", playerId: "p-x") { ` + all + ` } }`,
			nil, "", desc},
		{"DESC board, the current period", `{ standing(board: "ladder", playerId: "p-x") { ` + all + ` } }`, nil, "", desc},
		{"ASC board, a period, no subscores, metadata or tier", `{ standing(board: "laps", period: "2026-11-18", playerId: "p-x") { ` +
			all + ` } }`, nil, "", asc},
		{"ASC board, the current period", `{ standing(board: "laps", playerId: "p-x") { ` + all + ` } }`, nil, "", asc},
		{"variables and aliases", `query Q($b: ID, $p: String, $id: ID!) { s: standing(board: $b, period: $p, playerId: $id) {
				b: board, p: period, pc: percentile, t: tier, m: metadata, ss: subscore
				up: neighbours(above: 3, below: 0) { m: metadata s: subscore } } }`,
			map[string]any{"b": "ladder", "p": "2026-W40", "id": "p-x"}, "", desc},
		{"board with no current period", `{ standing(board: "later", playerId: "p-x") { rank } }`, nil, "", desc},
		{"main, the current month", `{ standing(playerId: "p-x") { ` + all + ` } }`, nil, "", desc},
		{"main by period", `{ standing(board: "main", period: "2026-09", playerId: "p-x") { board period month rank } }`, nil, "", desc},
		{"board null is main", `{ standing(board: null, playerId: "p-x") { board period rank } }`, nil, "", desc},
		{"myRank on a board", `{ myRank(board: "laps") { ` + all + ` } }`, nil, playerToken, asc},
		{"myRank on main, the current month", `{ myRank { board period rank } }`, nil, playerToken, desc},
		{"unknown board", `{ standing(board: "nope", playerId: "p-x") { rank } }`, nil, "", desc},
		{"unknown board in a variable", `query Q($b: ID) { standing(board: $b, period: "2026-10", playerId: "p-x") { rank } }`,
			map[string]any{"b": 123}, "", desc},
		{"period and month", `{ standing(board: "ladder", period: "2026-W43", month: "2026-10", playerId: "p-x") { rank } }`,
			nil, "", desc},
		{"period and month on main", `{ myRank(period: "2026-10", month: "2026-10") { rank } }`, nil, playerToken, desc},
		{"month on a weekly board", `{ standing(board: "ladder", month: "2026-10", playerId: "p-x") { rank } }`, nil, "", desc},
		{"bad period key", `{ standing(board: "laps", period: "2026-W43", playerId: "p-x") { rank } }`, nil, "", asc},
		{"bad period key on main", `{ standing(period: "Oct", playerId: "p-x") { rank } }`, nil, "", desc},
		{"bad board id", `{ standing(board: "Not An Id", playerId: "p-x") { rank } }`, nil, "", desc},
		{"store unavailable", `{ standing(board: "ladder", playerId: "p-x") { rank } }`, nil, "",
			testBoards(nil, leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later"))},
		{"claimedAt of a live standing", `{ standing(board: "laps", playerId: "p-x") { rank claimedAt } }`, nil, "", asc},
		{"two root fields", `{ a: standing(board: "ladder", playerId: "p-x") { tier } b: myRank(board: "nope") { rank } }`,
			nil, playerToken, desc},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct, viaGqlgen := handlers(c.store)
			assertSameAnswer(t, direct, viaGqlgen, c.token, c.query, c.vars)
		})
	}
}

// A board's standing is written directly: it costs a fraction of gqlgen's
// allocations, which take a field context per field and a goroutine per
// field with a resolver (board, period, neighbours).
func TestWriteStandingsDirectly_TakesBoardReads(t *testing.T) {
	store := testBoards(testBoardStanding(false), nil)
	r := &Resolver{StandingService: store, BoardService: store, PeriodService: store, Logger: slog.New(slog.DiscardHandler)}
	direct, viaGqlgen := NewHandler(r, HandlerOptions{}), NewHandler(r, HandlerOptions{viaGqlgen: true})
	for _, query := range []string{
		`{ standing(board: "ladder", period: "2026-W43", playerId: "p-x") { board period rank subscore metadata percentile tier neighbours { rank subscore metadata player { name } } } }`,
		`{ standing(board: "laps", playerId: "p-x") { rank neighbours { rank player { name } } } }`,
		`{ standing(playerId: "p-x") { period rank neighbours { rank player { name } } } }`,
	} {
		allocs := func(h http.Handler) float64 {
			return testing.AllocsPerRun(20, func() { answer(t, h, "", query, nil) })
		}
		if got, gqlgen := allocs(direct), allocs(viaGqlgen); got > gqlgen/2 {
			t.Errorf("%s: %.0f allocations, gqlgen %.0f: not written directly", query, got, gqlgen)
		}
	}
}

// Only selections of plain fields are written directly; the rest go to
// gqlgen.
func TestCompileSelection_TakesOnlyPlainSelections(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: &Resolver{}}).Schema()
	for _, c := range []struct {
		selection string
		direct    bool
	}{
		{`rank score total final month reachedAt player { id name }`, true},
		{`__typename r: rank neighbours { __typename rank player { name } } up: neighbours(above: 5, below: 0) { rank }`, true},
		{`neighbours(above: 50, below: 0) { rank }`, true},
		{`neighbours(above: 51) { rank }`, false},
		{`rank rank`, false},
		{`a: rank a: rank`, false},
		{`...F`, false},
		{`... on Standing { rank }`, false},
		{`rank @include(if: true)`, false},
		{`player { id @skip(if: false) }`, false},
		{`neighbours { ... on RankEntry { rank } }`, false},
		{`board period subscore metadata percentile tier neighbours { subscore metadata }`, true},
		{`rank claimedAt`, false},
	} {
		query := `query { standing(month: "2026-10", playerId: "p") { ` + c.selection + ` } }`
		if strings.Contains(c.selection, "...F") {
			query += ` fragment F on Standing { rank }`
		}
		if direct := compilesDirectly(t, schema, query, "Standing"); direct != c.direct {
			t.Errorf("%s: written directly %t, want %t", c.selection, direct, c.direct)
		}
	}
}

// BenchmarkBoardStanding is the CPU of one small-board standing with ±10
// neighbours and every name, the boards bench's read, store time aside:
// written directly and by gqlgen.
func BenchmarkBoardStanding(b *testing.B) {
	store := testBoards(testBoardStanding(false), nil)
	r := &Resolver{StandingService: store, BoardService: store, PeriodService: store, Logger: slog.New(slog.DiscardHandler)}
	const query = `{ standing(board: "ladder", period: "2026-W43", playerId: "p-x") {
		rank score reachedAt total final player { id name } neighbours(above: 10, below: 10) { rank score reachedAt player { id name } } } }`
	body, _ := json.Marshal(map[string]any{"query": query})
	for _, c := range []struct {
		name string
		opts HandlerOptions
	}{{"direct", HandlerOptions{}}, {"gqlgen", HandlerOptions{viaGqlgen: true}}} {
		b.Run(c.name, func(b *testing.B) {
			h := NewHandler(r, c.opts)
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
