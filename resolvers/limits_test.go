package resolvers

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/graph"
	"github.com/gamebackend/leaderboard/loaders"
)

// limitsStore answers every read with something and every submission as
// echoStore does, and counts the submissions that reach it.
type limitsStore struct {
	echoStore
	leaderboard.BoardService
	leaderboard.PeriodService
	submits atomic.Int32
}

func (s *limitsStore) PeriodStanding(context.Context, *leaderboard.Board, string, string, int, int) (*leaderboard.Standing, error) {
	return testStanding(), nil
}

func (s *limitsStore) PeriodLeaderboard(context.Context, *leaderboard.Board, string, int, string) (*leaderboard.Page, error) {
	return &leaderboard.Page{}, nil
}

func (s *limitsStore) Board(_ context.Context, id string) (*leaderboard.Board, error) {
	return &leaderboard.Board{ID: id, Reset: leaderboard.ResetMonth}, nil
}

func (s *limitsStore) OpenedPeriod(context.Context, *leaderboard.Board, string) (*leaderboard.Period, error) {
	return nil, nil
}

func (s *limitsStore) Periods(context.Context, *leaderboard.Board, int) ([]leaderboard.Period, error) {
	return nil, nil
}

func (s *limitsStore) SubmitScores(ctx context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	s.submits.Add(1)
	return s.echoStore.SubmitScores(ctx, events)
}

// Every documented cap holds at its boundary: the documented number is
// accepted and one more is refused with BAD_USER_INPUT, on both ways an
// answer is written. The numbers are written out, not taken from Limits or
// the domain's constants, so that a change to a cap or to how it is
// compared (> against >=) fails here.
func TestLimits_AcceptTheDocumentedNumberAndRefuseOneMore(t *testing.T) {
	const token = "server-token"
	repeat := func(n int, field func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(field(i))
			b.WriteByte(' ')
		}
		return b.String()
	}
	rootFields := func(n int) string {
		return "{ " + repeat(n, func(i int) string { return fmt.Sprintf("m%d: months(first: 1) { month }", i) }) + "}"
	}
	// A query of exactly n bytes.
	bytesLong := func(n int) string {
		q := `{ months(first: 1) { month } }`
		return q + strings.Repeat(" ", n-len(q))
	}
	// A query of exactly n parser tokens, of cost n - 9: the field month
	// repeated n - 10 times, on one month.
	tokens := func(n int) string {
		q := `{ months(first: 1) { ` + strings.Repeat("month ", n-10) + `} }`
		if got := countTokens(t, q); got != n {
			t.Fatalf("the query has %d tokens, want %d", got, n)
		}
		return q
	}
	// A query of cost exactly n (9,982 ≤ n ≤ 10,101): a leaderboard page
	// of 499 entries selecting 20 fields costs 1 + 20×499 = 9,981, and
	// months(first: m) with one field 1 + m.
	cost := func(n int) string {
		fields := repeat(20, func(i int) string { return fmt.Sprintf("t%d: total", i) })
		return fmt.Sprintf(`{ leaderboard(month: "2026-11", first: 499) { %s } months(first: %d) { month } }`, fields, n-9981-1)
	}
	events := func(n int) map[string]any {
		list := make([]any, n)
		for i := range list {
			list[i] = map[string]any{"eventId": fmt.Sprint("e-", i), "playerId": "p", "mode": "ADD", "value": 1}
		}
		return map[string]any{"events": list}
	}
	const everyResultField = `eventId status score rank error code month __typename`
	const submit = `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { ` + everyResultField + ` } }`
	const everyStandingField = `month rank score reachedAt total final player { id name }`
	neighbours := func(args string) string {
		return `{ standing(month: "2026-10", playerId: "p") { rank neighbours(` + args + `) { rank score reachedAt player { id name } } } }`
	}
	leaderboardPage := func(first int) string {
		return fmt.Sprintf(`{ leaderboard(month: "2026-11", first: %d) { total edges { cursor node { rank score reachedAt player { id name } } }
			pageInfo { hasNextPage endCursor } } }`, first)
	}
	months := func(first int) string {
		return fmt.Sprintf(`{ months(first: %d) { month status participants } }`, first)
	}

	for _, c := range []struct {
		name     string
		query    string
		vars     map[string]any
		refusal  string // a fragment of the error message; "" when accepted
		submits  int32  // the calls that must reach the store
		useToken bool
	}{
		{name: "10 root fields", query: rootFields(10)},
		{name: "11 root fields", query: rootFields(11), refusal: "over the limit of 10"},
		{name: "a query of 16 KiB", query: bytesLong(16 << 10)},
		{name: "a query of 16 KiB and a byte", query: bytesLong(16<<10 + 1), refusal: "over the limit of 16384"},
		{name: "2,000 tokens", query: tokens(2000)},
		{name: "2,001 tokens", query: tokens(2001), refusal: "token limit of 2000"},
		{name: "cost 10,000", query: cost(10_000)},
		{name: "cost 10,001", query: cost(10_001), refusal: "complexity 10001, which exceeds the limit of 10000"},
		{name: "1,000 events with every field", query: submit, vars: events(1000), submits: 1, useToken: true},
		{name: "1,001 events", query: submit, vars: events(1001), refusal: "a call takes at most 1000 events, got 1001", useToken: true},
		{name: "50,000 events", query: submit, vars: events(50_000), refusal: "a call takes at most 1000 events, got 50000", useToken: true},
		{name: "submitScores once", query: submit, vars: events(1), submits: 1, useToken: true},
		{name: "submitScores twice", query: `mutation S($events: [ScoreEvent!]!) { a: submitScores(events: $events) { status } b: submitScores(events: $events) { status } }`,
			vars: events(1), refusal: "once, not 2 times", useToken: true},
		{name: "500 entries a page with every field", query: leaderboardPage(500)},
		{name: "501 entries a page", query: leaderboardPage(501), refusal: "first must be 1..500, got 501"},
		{name: "1 entry a page", query: leaderboardPage(1)},
		{name: "0 entries a page", query: leaderboardPage(0), refusal: "first must be 1..500, got 0"},
		{name: "120 months", query: months(120)},
		{name: "121 months", query: months(121), refusal: "first must be 1..120, got 121"},
		{name: "1 month", query: months(1)},
		{name: "0 months", query: months(0), refusal: "first must be 1..120, got 0"},
		{name: "50 neighbours each side", query: neighbours("above: 50, below: 50")},
		{name: "51 above", query: neighbours("above: 51, below: 50"), refusal: "above must be 0..50, got 51"},
		{name: "51 below", query: neighbours("above: 50, below: 51"), refusal: "below must be 0..50, got 51"},
		{name: "no neighbours", query: neighbours("above: 0, below: 0")},
		{name: "-1 above", query: neighbours("above: -1, below: 0"), refusal: "above must be 0..50, got -1"},
		{name: "-1 below", query: neighbours("above: 0, below: -1"), refusal: "below must be 0..50, got -1"},
		{name: "every standing field", query: `{ standing(month: "2026-10", playerId: "p") { ` + everyStandingField + ` } }`},
	} {
		for _, viaGqlgen := range []bool{false, true} {
			t.Run(c.name+answeredBy(viaGqlgen), func(t *testing.T) {
				store := &limitsStore{}
				r := &Resolver{StandingService: store, BoardService: mainBoard, PeriodService: store, ScoreService: store, Logger: slog.New(slog.DiscardHandler)}
				h := auth.New(auth.Config{ServerToken: token}).Middleware(loaders.Middleware(loaders.Sources{Ranks: store})(
					NewHandler(r, HandlerOptions{viaGqlgen: viaGqlgen})))
				bearer := ""
				if c.useToken {
					bearer = token
				}
				status, body := answer(t, h, bearer, c.query, c.vars)
				var out struct {
					Errors []struct {
						Message    string
						Extensions struct{ Code string }
					}
				}
				if err := json.Unmarshal([]byte(body), &out); err != nil || status >= 500 {
					t.Fatalf("%d %.500s: %v", status, body, err)
				}
				switch {
				case c.refusal == "" && len(out.Errors) > 0:
					t.Errorf("refused: %d %.500s", status, body)
				case c.refusal != "" && (len(out.Errors) != 1 || out.Errors[0].Extensions.Code != leaderboard.EBADINPUT ||
					!strings.Contains(out.Errors[0].Message, c.refusal)):
					t.Errorf("%d %.500s, want one BAD_USER_INPUT error saying %q", status, body, c.refusal)
				}
				if n := store.submits.Load(); n != c.submits {
					t.Errorf("%d submissions reached the store, want %d", n, c.submits)
				}
			})
		}
	}
}

// countTokens counts query's tokens as gqlparser's lexer reads them, the
// end of the text left out.
func countTokens(t *testing.T, query string) int {
	t.Helper()
	lex := lexer.New(&ast.Source{Input: query})
	for n := 0; ; n++ {
		tok, err := lex.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == lexer.EOF {
			return n
		}
	}
}

// groupStandings costs what gqlgen's generated code makes of the cost
// model, without unmarshalling the ids: for lists of every size around the
// entries per cost and the limit, and for one id given as a list of one.
func TestGroupCosting_CostsAsTheGeneratedCode(t *testing.T) {
	generated := graph.NewExecutableSchema(graph.Config{Resolvers: &Resolver{}, Complexity: complexity(1000)})
	costing := groupCosting{ExecutableSchema: generated, maxGroup: 1000}
	var cases []map[string]any
	for _, n := range []int{0, 1, 9, 10, 11, 999, 1000, 1001, 5000} {
		list := make([]any, n)
		for i := range list {
			list[i] = fmt.Sprint("p", i)
		}
		cases = append(cases, map[string]any{"board": "main", "playerIds": list})
	}
	cases = append(cases, map[string]any{"playerIds": "p1"})
	ctx := context.Background()
	for _, args := range cases {
		for _, child := range []int{1, 7} {
			want, wantOK := generated.Complexity(ctx, "Query", "groupStandings", child, args)
			got, ok := costing.Complexity(ctx, "Query", "groupStandings", child, args)
			if got != want || ok != wantOK || !ok {
				t.Errorf("%T of %d ids, child %d: cost %d %v, want %d %v", args["playerIds"], lenOf(args["playerIds"]), child, got, ok, want, wantOK)
			}
		}
	}
}

func lenOf(v any) int {
	if list, ok := v.([]any); ok {
		return len(list)
	}
	return 1
}
