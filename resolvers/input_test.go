package resolvers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/loaders"
)

// countingStore is echoStore that counts the calls that reach it.
type countingStore struct {
	echoStore
	calls atomic.Int32
}

func (s *countingStore) SubmitScores(ctx context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	s.calls.Add(1)
	return s.echoStore.SubmitScores(ctx, events)
}

// An Int is a whole JSON number within 32 bits and an enum is spelled as the
// schema has it; anything else fails the call with BAD_USER_INPUT before a
// resolver runs (so nothing is written), whether the answer is written
// directly or by gqlgen, and whether the value is a variable, a field of
// one, or a literal.
func TestStrictInput_FailsTheCallBeforeTheResolver(t *testing.T) {
	const token = "server-token"
	const submit = `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { eventId status score } }`
	event := func(key string, value any) map[string]any {
		e := map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 1}
		e[key] = value
		return map[string]any{"events": []any{e}}
	}
	type request struct {
		name  string
		query string
		vars  map[string]any
	}
	refused := []request{
		{"value as a string", submit, event("value", "10")},
		{"value as a string of a negative", submit, event("value", "-3")},
		{"value as a fraction", submit, event("value", 2.5)},
		{"value with an exponent", submit, event("value", json.Number("1e3"))},
		{"value as a whole fraction", submit, event("value", json.Number("10.0"))},
		{"value past 32 bits", submit, event("value", int64(1)<<31)},
		{"value below 32 bits", submit, event("value", -int64(1)<<31-1)},
		{"value as a boolean", submit, event("value", true)},
		{"value past 32 bits written in the query", `mutation { submitScores(events: [{eventId: "e", playerId: "p", mode: ADD, value: 2147483648}]) { status } }`, nil},
		{"mode in lower case", submit, event("mode", "add")},
		{"mode in mixed case", submit, event("mode", "Best")},
		{"mode unknown", submit, event("mode", "MAX")},
		{"mode as a number", submit, event("mode", 1)},
		{"mode in lower case written in the query", `mutation { submitScores(events: [{eventId: "e", playerId: "p", mode: add, value: 1}]) { status } }`, nil},
		{"value as a string written in the query", `mutation { submitScores(events: [{eventId: "e", playerId: "p", mode: ADD, value: "1"}]) { status } }`, nil},
		{"months first as a string", `query Q($n: Int) { months(first: $n) { month } }`, map[string]any{"n": "3"}},
		{"leaderboard first past 32 bits", `query Q($n: Int) { leaderboard(month: "2026-11", first: $n) { total } }`,
			map[string]any{"n": int64(1) << 32}},
		{"neighbours as a string", `query Q($a: Int) { standing(month: "2026-10", playerId: "p") { rank neighbours(above: $a) { rank } } }`,
			map[string]any{"a": "3"}},
		{"neighbours past 32 bits", `query Q($a: Int) { standing(month: "2026-10", playerId: "p") { rank neighbours(above: $a) { rank } } }`,
			map[string]any{"a": int64(1)<<32 + 3}},
	}
	accepted := []request{
		{"value at the top of 32 bits", submit, event("value", 1<<31-1)},
		{"value at the bottom of 32 bits", submit, event("value", -1<<31)},
		{"every mode", `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { status } }`, map[string]any{"events": []any{
			map[string]any{"eventId": "a", "playerId": "p", "mode": "ADD", "value": 1},
			map[string]any{"eventId": "b", "playerId": "p", "mode": "SET", "value": 1},
			map[string]any{"eventId": "c", "playerId": "p", "mode": "BEST", "value": 1},
		}}},
	}
	for _, viaGqlgen := range []bool{false, true} {
		handler := func(store *countingStore) http.Handler {
			r := &Resolver{ScoreService: store, StandingService: standingStore{standing: testStanding()}, BoardService: mainBoard,
				Logger: slog.New(slog.DiscardHandler)}
			return auth.New(auth.Config{ServerToken: token}).Middleware(loaders.Middleware(loaders.Sources{Ranks: store})(
				NewHandler(r, HandlerOptions{viaGqlgen: viaGqlgen})))
		}
		for _, c := range refused {
			t.Run(c.name+answeredBy(viaGqlgen), func(t *testing.T) {
				store := &countingStore{}
				status, body := answer(t, handler(store), token, c.query, c.vars)
				var out struct {
					Data   map[string]json.RawMessage
					Errors []struct {
						Extensions struct{ Code string }
					}
				}
				if err := json.Unmarshal([]byte(body), &out); err != nil {
					t.Fatalf("%d %s: %v", status, body, err)
				}
				if len(out.Errors) != 1 || out.Errors[0].Extensions.Code != leaderboard.EBADINPUT || status >= 500 {
					t.Errorf("%d %s, want one BAD_USER_INPUT error", status, body)
				}
				for field, v := range out.Data {
					if string(v) != "null" {
						t.Errorf("data %s is %s, want null: %s", field, v, body)
					}
				}
				if n := store.calls.Load(); n != 0 {
					t.Errorf("the store was called %d times: %s", n, body)
				}
			})
		}
		for _, c := range accepted {
			t.Run(c.name+answeredBy(viaGqlgen), func(t *testing.T) {
				store := &countingStore{}
				if status, body := answer(t, handler(store), token, c.query, c.vars); status != http.StatusOK ||
					store.calls.Load() != 1 || containsErrors(body) {
					t.Errorf("%d %s, want the events stored", status, body)
				}
			})
		}
	}
}

// answeredBy names the way an answer was written, for a subtest's name.
func answeredBy(viaGqlgen bool) string {
	if viaGqlgen {
		return ", gqlgen"
	}
	return ", direct"
}

// containsErrors reports whether a GraphQL answer carries errors.
func containsErrors(body string) bool {
	var out struct{ Errors []any }
	_ = json.Unmarshal([]byte(body), &out)
	return len(out.Errors) > 0
}
