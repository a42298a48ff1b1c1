package e2e_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Requests that would make the server do too much are refused with
// BAD_USER_INPUT before the work, quickly, and never with a 5xx.
func TestAbuse_OversizedOperationsAreRefusedBeforeWork(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	repeat := func(field string, n int, aliased bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if aliased {
				fmt.Fprintf(&b, " a%d: ", i)
			}
			b.WriteString(field + " ")
		}
		b.WriteString("}")
		return b.String()
	}
	event := func(i int) map[string]any {
		return map[string]any{"eventId": fmt.Sprint("e", i), "playerId": "p", "mode": "ADD", "value": 1}
	}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		want        string
	}{
		{"QuadraticRepeats", repeat(`months(first:1){month}`, 8000, false), nil, "over the limit of"},
		{"RepeatsUnderTheByteLimit", repeat(`months(first:1){month}`, 650, false), nil, "token limit"},
		{"AliasesOfBigPages", repeat(`leaderboard(month:"`+c.month+`", first:500){edges{cursor node{rank score player{id name}}}}`, 3, true), nil, "complexity"},
		{"ManyRootFields", repeat(`month(month:"`+c.month+`"){month}`, 11, true), nil, "root fields"},
		{"TwoSubmissions", `mutation($e: [ScoreEvent!]!) { a: submitScores(events: $e) { status } b: submitScores(events: $e) { status } }`,
			map[string]any{"e": []any{event(1)}}, "submitScores once"},
		{"ManyNeighbours", `{ ` + strings.Repeat(`x: standing(month:"`+c.month+`", playerId:"p"){neighbours(above:50, below:50){rank player{id name}}} `, 1) +
			strings.Repeat(`months(first:120){month status participants endsAt closedAt} `, 1) + `}`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r := s.do(t, serverToken, tc.query, tc.vars)
			took := time.Since(start)
			if r.Status >= 500 {
				t.Fatalf("%d: %s", r.Status, r.Body)
			}
			if tc.want == "" {
				if len(r.Errors) > 0 {
					t.Fatalf("a request within the limits was refused: %s", r.Body)
				}
				return
			}
			if codes := r.Codes(); len(codes) != 1 || codes[0] != "BAD_USER_INPUT" || !strings.Contains(r.Body, tc.want) {
				t.Fatalf("%d %s, want BAD_USER_INPUT saying %q", r.Status, r.Body, tc.want)
			}
			if r.Data != nil && string(r.Data) != "null" {
				t.Errorf("a refused operation answered data: %s", r.Data)
			}
			t.Logf("refused in %s", took)
			if took > 2*time.Second {
				t.Errorf("refusing took %s", took)
			}
		})
	}
	// Nothing of the refused submissions was written.
	if m := s.month(t, c.month); m != nil {
		t.Errorf("a refused submitScores opened the month: %+v", m)
	}
}

func TestAbuse_NoFieldSuggestions(t *testing.T) {
	s := startServer(t)
	r := s.do(t, "", `{ monthz(first: 1) { month } }`, nil)
	if r.Status >= 500 || len(r.Codes()) != 1 || strings.Contains(r.Body, "Did you mean") {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusOK {
		t.Errorf("status %d", r.Status)
	}
}
