package resolvers_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/resolvers"
)

// FuzzGraphQLRequest sends arbitrary bodies to the GraphQL handler. The
// resolver has no services, so a request that reaches a resolver fails there
// (recovered, INTERNAL, status 200); what the target checks is everything
// before: decoding the body, parsing, validation, variable coercion and the
// cost limit must never panic, never answer 5xx, always answer JSON whose
// errors carry a code, and never call a refused request INTERNAL.
func FuzzGraphQLRequest(f *testing.F) {
	for _, body := range []string{
		`{"query":"{ months(first: 1) { month } }"}`,
		`{"query":"query($m: Month!) { month(month: $m) { status } }","variables":{"m":"2026-13"}}`,
		`{"query":"query($m: Month!) { standing(month: $m, playerId: \"a\\u0000b\") { rank } }","variables":{"m":"2026-11"}}`,
		`{"query":"mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { status } }","variables":{"e":[{"eventId":1}]}}`,
		`{"query":"{ leaderboard(month: \"2026-11\", first: 99999999999) { edges { cursor } } }"}`,
		`{"query":"{ months(first:1){month} months(first:1){month} months(first:1){month} }"}`,
		`{"query":"{ __schema { types { name } } }"}`,
		`{"query":"{","variables":null}`,
		`{"query":"query A { months { month } } query B { months { month } }","operationName":"C"}`,
		`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`,
		`{"query":"{ months { month } }","variables":"not an object"}`,
		`{"query":1}`,
		`[]`,
		`null`,
		``,
		"{\"query\":\"{ months { month \u202e } }\"}",
	} {
		f.Add(body)
	}
	handler := resolvers.NewHandler(&resolvers.Resolver{Logger: slog.New(slog.DiscardHandler)}, resolvers.HandlerOptions{})
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("body %q: status %d", body, w.Code)
		}
		var answer struct {
			Errors []struct {
				Extensions struct {
					Code string `json:"code"`
				} `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("body %q: the answer is not JSON: %v: %s", body, err, w.Body)
		}
		for _, e := range answer.Errors {
			if e.Extensions.Code == "" {
				t.Fatalf("body %q: an error without a code: %s", body, w.Body)
			}
			if w.Code != http.StatusOK && e.Extensions.Code == leaderboard.EINTERNAL {
				t.Fatalf("body %q: refused with status %d as INTERNAL: %s", body, w.Code, w.Body)
			}
		}
	})
}
