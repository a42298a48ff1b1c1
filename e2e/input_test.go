package e2e_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// contractCodes are the error codes the API contract allows.
var contractCodes = []string{
	"BAD_USER_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "MONTH_CLOSED", "RATE_LIMITED", "INTERNAL",
}

func TestInput_BadMonthIsBadUserInput(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))
	ops := []struct {
		token, query string
	}{
		{"", `query($m: Month!) { month(month: $m) { status } }`},
		{"", `query($m: Month!) { standing(month: $m, playerId: "ann") { rank } }`},
		{"", `query($m: Month!) { leaderboard(month: $m, first: 5) { total } }`},
		{playerToken(t, "ann"), `query($m: Month!) { myRank(month: $m) { rank } }`},
		{adminToken, `mutation($m: Month!) { closeMonth(month: $m) { status } }`},
	}
	bad := []string{"2026-13", "2026-1", "abc", "2026-00", "", "0000-01", "2026-011", "2026/11", "26-11"}
	for _, month := range bad {
		for _, op := range ops {
			s.expectError(t, op.token, op.query, map[string]any{"m": month}, "BAD_USER_INPUT")
			// The same month written into the query instead of a variable.
			inline := strings.Replace(strings.Replace(op.query, "($m: Month!)", "", 1), "$m", fmt.Sprintf("%q", month), 1)
			s.expectError(t, op.token, inline, nil, "BAD_USER_INPUT")
		}
	}
	// A month that is not a string at all.
	s.expectError(t, "", `query($m: Month!) { month(month: $m) { status } }`, map[string]any{"m": 202611}, "BAD_USER_INPUT")
	s.expectError(t, "", `{ month(month: 202611) { status } }`, nil, "BAD_USER_INPUT")
	if m := s.month(t, cur.month); m == nil || m.Status != "OPEN" {
		t.Errorf("the current month after bad closeMonth calls: %+v, want OPEN", m)
	}
}

func TestInput_OutOfRangeTotalsAreRejectedWithTheBound(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	checkResult(t, s.submit(t, ev("ok", "ann", "SET", 9990, cur.at(1)))[0], "APPLIED", 9990, 1)
	results := s.submit(t,
		ev("1", "ann", "SET", 10001, cur.at(2)),
		ev("2", "ann", "SET", -1, cur.at(2)),
		ev("3", "ann", "BEST", 10001, cur.at(2)),
		ev("4", "ann", "BEST", -5, cur.at(2)),
		ev("5", "ann", "ADD", 11, cur.at(2)),      // 10001
		ev("6", "ann", "ADD", -9991, cur.at(2)),   // -1
		ev("7", "ann", "ADD", 1<<31-1, cur.at(2)), // far above
		ev("8", "bob", "ADD", -1, cur.at(2)),      // a new player below 0
		ev("9", "cat", "SET", 20000, cur.at(2)),   // a new player above 10000
	)
	for _, r := range results {
		checkRejected(t, r, "BAD_USER_INPUT", "0..10000")
	}
	if st := s.mustStanding(t, cur.month, "ann"); st.Score != 9990 || !st.ReachedAt.Equal(*cur.at(1)) || st.Total != 1 {
		t.Errorf("ann after rejected events: score %d reached %s total %d, want 9990 reached %s, 1 player",
			st.Score, st.ReachedAt, st.Total, cur.at(1))
	}
	for _, id := range []string{"bob", "cat"} {
		if st := s.standing(t, cur.month, id); st != nil {
			t.Errorf("rejected new player %s has a standing: %+v", id, st)
		}
	}
	// The bounds themselves are fine.
	results = s.submit(t, ev("10", "ann", "ADD", 10, cur.at(3)), ev("11", "bob", "SET", 0, cur.at(3)))
	checkResult(t, results[0], "APPLIED", 10000, 1)
	checkResult(t, results[1], "APPLIED", 0, 2)
	checkResult(t, s.submit(t, ev("12", "ann", "ADD", -10000, cur.at(4)))[0], "APPLIED", 0, 2)
}

func TestInput_CallOfOnlyRejectedEventsWritesNothing(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	future := time.Now().Add(time.Hour)
	results := s.submit(t,
		ev("1", "ann", "SET", 10001, cur.at(1)),
		ev("2", "bob", "ADD", -1, cur.at(1)),
		ev("3", "cat", "ADD", 10001, cur.at(1)),
		ev("4", strings.Repeat("d", 65), "SET", 1, cur.at(1)),
		ev("5", "eve", "SET", 1, &future),
	)
	for _, r := range results {
		if r.Status != "REJECTED" {
			t.Errorf("event %s: %s, want REJECTED", r.EventID, r.Status)
		}
	}
	if m := s.month(t, cur.month); m != nil {
		t.Errorf("month after a call whose every event was rejected: %+v, want null (no score was taken)", m)
	}
	checkNothingWritten(t, s)
}

func TestInput_BatchOverTheLimitIsRefusedWhole(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	events := make([]scoreEvent, 1001)
	for i := range events {
		events[i] = ev(fmt.Sprintf("e%04d", i), fmt.Sprintf("p%04d", i), "SET", i, cur.at(i%maxTicks))
	}
	r := s.expectError(t, serverToken, submitMutation, map[string]any{"events": events}, "BAD_USER_INPUT")
	if !r.dataIsNull() {
		t.Errorf("data %s, want null", r.Data)
	}
	if len(r.Errors) == 1 && !strings.Contains(r.Errors[0].Message, "1000") {
		t.Errorf("error %q does not give the limit 1000", r.Errors[0].Message)
	}
	checkNothingWritten(t, s)

	// 1000 events are fine.
	results := s.submit(t, events[:1000]...)
	for i, r := range results {
		if r.Status != "APPLIED" {
			t.Fatalf("event %d of a full batch: %s (%s)", i, r.Status, strOr(r.Error, ""))
		}
	}
	if m := s.month(t, cur.month); m == nil || m.Participants != 1000 {
		t.Errorf("after a full batch: month %+v, want 1000 participants", m)
	}
}

func TestInput_NeighbourCountsOutsideZeroToFiftyAreBadUserInput(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))
	token := playerToken(t, "ann")
	for _, args := range []string{"above: 51", "below: 51", "above: -1", "below: -1", "above: 1000000, below: 0"} {
		for _, op := range []struct{ token, field string }{
			{"", `standing(month: $m, playerId: "ann")`},
			{token, `myRank(month: $m)`},
		} {
			q := `query($m: Month!) { ` + op.field + ` { rank neighbours(` + args + `) { rank } } }`
			r := s.expectError(t, op.token, q, map[string]any{"m": cur.month}, "BAD_USER_INPUT")
			if len(r.Errors) == 1 && !strings.Contains(r.Errors[0].Message, "0..50") {
				t.Errorf("%s: error %q does not give the range 0..50", args, r.Errors[0].Message)
			}
		}
		// Through variables too.
		q := `query($m: Month!, $a: Int, $b: Int) { standing(month: $m, playerId: "ann") { neighbours(above: $a, below: $b) { rank } } }`
		for _, vars := range []map[string]any{{"a": 51}, {"b": 51}, {"a": -1}} {
			vars["m"] = cur.month
			s.expectError(t, "", q, vars, "BAD_USER_INPUT")
		}
	}
	// 50 is allowed.
	s.mustDo(t, token, `query($m: Month!) { myRank(month: $m) { neighbours(above: 50, below: 50) { rank } } }`,
		map[string]any{"m": cur.month}, nil)
}

func TestInput_BadEventFieldsAreRejected(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	future := time.Now().Add(time.Hour)
	nextMonth := cur.endsAt.Add(time.Minute)
	longName := strings.Repeat("n", 65)
	bad := []struct {
		event    scoreEvent
		fragment string // what the error must name
	}{
		{ev("1", strings.Repeat("p", 65), "SET", 1, cur.at(1)), "playerId"},
		{ev("2", strings.Repeat("é", 65), "SET", 1, cur.at(1)), "playerId"},
		{ev("3", "", "SET", 1, cur.at(1)), "playerId"},
		{ev("", "ann", "SET", 1, cur.at(1)), "eventId"},
		{ev(strings.Repeat("e", 129), "ann", "SET", 1, cur.at(1)), "eventId"},
		{ev("6", "ann", "SET", 1, &future), "future"},
		{ev("7", "ann", "SET", 1, &nextMonth), "future"},
		{named(ev("8", "ann", "SET", 1, cur.at(1)), longName), "playerName"},
	}
	events := make([]scoreEvent, len(bad))
	for i, b := range bad {
		events[i] = b.event
	}
	for i, r := range s.submit(t, events...) {
		checkRejected(t, r, "BAD_USER_INPUT", bad[i].fragment)
	}
	if got := s.months(t, 12); len(got) != 0 {
		t.Errorf("months after rejected events: %+v, want none", got)
	}

	// The limits count characters, not bytes.
	results := s.submit(t,
		ev("9", strings.Repeat("p", 64), "SET", 1, cur.at(1)),
		named(ev("10", strings.Repeat("é", 64), "SET", 2, cur.at(1)), strings.Repeat("ñ", 64)),
		ev(strings.Repeat("e", 128), "ann", "SET", 3, cur.at(1)),
	)
	checkResult(t, results[0], "APPLIED", 1, 3)
	checkResult(t, results[1], "APPLIED", 2, 2)
	checkResult(t, results[2], "APPLIED", 3, 1)
	if st := s.mustStanding(t, cur.month, strings.Repeat("é", 64)); strOr(st.Player.Name, "") != strings.Repeat("ñ", 64) {
		t.Errorf("64-character name came back as %q", strOr(st.Player.Name, "null"))
	}
}

func TestInput_BadVariablesAreBadUserInputNot500(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	good := map[string]any{"eventId": "1", "playerId": "ann", "mode": "SET", "value": 1, "occurredAt": cur.at(1)}
	with := func(key string, value any) map[string]any {
		e := map[string]any{}
		for k, v := range good {
			e[k] = v
		}
		if value == nil {
			delete(e, key)
		} else {
			e[key] = value
		}
		return map[string]any{"events": []any{e}}
	}
	for _, vars := range []map[string]any{
		with("mode", "DOUBLE"),
		with("mode", "add"), // enums are exact: the validation of variables ignores case
		with("mode", "Set"),
		with("value", 1.5),
		with("value", "10"), // Ints are JSON numbers, not strings of digits
		with("value", 1<<31),
		with("value", -1<<31-1),
		with("mode", nil),
		with("playerId", nil),
		{"events": "not a list"},
		{"events": []any{nil}},
	} {
		r := s.expectError(t, serverToken, submitMutation, vars, "BAD_USER_INPUT")
		if !r.dataIsNull() {
			t.Errorf("vars %v: data %s, want null", vars, r.Data)
		}
	}
	checkNothingWritten(t, s)
}

// A malformed occurredAt rejects its own event; the rest of the call applies.
func TestInput_BadOccurredAtRejectsThatEventOnly(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	events := []any{
		map[string]any{"eventId": "1", "playerId": "ann", "mode": "SET", "value": 1, "occurredAt": "yesterday"},
		map[string]any{"eventId": "2", "playerId": "bob", "mode": "SET", "value": 2, "occurredAt": "2026-11-05 10:00:00"},
		map[string]any{"eventId": "3", "playerId": "cid", "mode": "SET", "value": 3, "occurredAt": 1234},
		// The instant of event 5, but at an offset no zone has: RFC 3339's
		// offsets are hours and minutes, held to ±18:00 here.
		map[string]any{"eventId": "4", "playerId": "eve", "mode": "SET", "value": 4,
			"occurredAt": cur.at(1).In(time.FixedZone("", 24*60*60)).Format(time.RFC3339)},
		map[string]any{"eventId": "5", "playerId": "dan", "mode": "SET", "value": 5,
			"occurredAt": cur.at(1).In(time.FixedZone("", 18*60*60)).Format(time.RFC3339)},
	}
	var data struct {
		SubmitScores []scoreResult `json:"submitScores"`
	}
	s.mustDo(t, serverToken, submitMutation, map[string]any{"events": events}, &data)
	for _, r := range data.SubmitScores[:4] {
		checkRejected(t, r, "BAD_USER_INPUT", "occurredAt")
	}
	checkResult(t, data.SubmitScores[4], "APPLIED", 5, 1)
}

// A top-level Int variable sent as a string, or beyond 32 bits, fails the
// call as the same value inside an event does.
func TestInput_IntVariablesAreNumbersWithin32Bits(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))
	for _, c := range []struct {
		query string
		vars  map[string]any
	}{
		{`query($n: Int) { months(first: $n) { month } }`, map[string]any{"n": "3"}},
		{`query($m: Month!, $n: Int) { leaderboard(month: $m, first: $n) { total } }`, map[string]any{"m": cur.month, "n": "5"}},
		{`query($m: Month!, $n: Int) { leaderboard(month: $m, first: $n) { total } }`, map[string]any{"m": cur.month, "n": 1<<32 + 5}},
		{`query($m: Month!, $a: Int) { standing(month: $m, playerId: "ann") { neighbours(above: $a) { rank } } }`,
			map[string]any{"m": cur.month, "a": "2"}},
		{`query($m: Month!, $a: Int) { standing(month: $m, playerId: "ann") { neighbours(above: $a) { rank } } }`,
			map[string]any{"m": cur.month, "a": 1<<32 + 2}},
	} {
		if r := s.expectError(t, "", c.query, c.vars, "BAD_USER_INPUT"); !r.dataIsNull() {
			t.Errorf("vars %v: data %s, want null", c.vars, r.Data)
		}
	}
}

func TestInput_MalformedRequestsGetACodeNot500(t *testing.T) {
	s := startServer(t)
	for _, q := range []string{
		`{ months { month `,
		`query { noSuchField }`,
		`{ months { noSuchField } }`,
		`query($m: Month!) { month(month: $m) { status } }`, // $m missing
		`mutation { nope }`,
		``,
		`subscription { months { month } }`,
		`{ leaderboard(month: "2026-11", first: "ten") { total } }`,
	} {
		r := s.do(t, "", q, nil)
		if r.Status >= http.StatusInternalServerError {
			t.Errorf("query %q: status %d", q, r.Status)
		}
		if len(r.Errors) == 0 {
			t.Errorf("query %q: no error: %s", q, r.Body)
		}
		for _, code := range r.Codes() {
			if !slices.Contains(contractCodes, code) {
				t.Errorf("query %q: error code %q is not one of the contract's: %s", q, code, r.Body)
			}
		}
	}
	for _, body := range []string{`{"query": `, `not json`, `[]`, `{"query": 42}`} {
		r := s.post(t, http.Header{"Content-Type": {"application/json"}}, []byte(body))
		if r.Status >= http.StatusInternalServerError {
			t.Errorf("body %q: status %d", body, r.Status)
		}
		if codes := r.Codes(); len(codes) == 0 || !slices.Contains(contractCodes, codes[0]) {
			t.Errorf("body %q: error codes %q, want one from the contract: %s", body, codes, r.Body)
		}
	}
	// The service still answers.
	s.months(t, 1)
}

func TestInput_TransportErrorsCarryACode(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	s.submit(t, ev("1", "ann", "SET", 1, prev.at(1)))
	query := `{ months { month } }`
	tests := []struct {
		name        string
		method      string
		contentType string
		target      string
		body        string
	}{
		{"POST text/plain", http.MethodPost, "text/plain", "/graphql", string(mustJSON(t, map[string]any{"query": query}))},
		{"POST without Content-Type", http.MethodPost, "", "/graphql", string(mustJSON(t, map[string]any{"query": query}))},
		{"PUT", http.MethodPut, "application/json", "/graphql", string(mustJSON(t, map[string]any{"query": query}))},
		{"GET mutation", http.MethodGet, "", "/graphql?query=" + url.QueryEscape(
			`mutation { closeMonth(month: "`+prev.month+`") { status } }`), ""},
		{"GET bad variables", http.MethodGet, "", "/graphql?query=" + url.QueryEscape(query) + "&variables=%7Bbad", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, s.url+tt.target, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+adminToken)
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			status, body, err := s.send(req)
			if err != nil {
				t.Fatal(err)
			}
			if status < 400 || status >= 500 {
				t.Errorf("status %d, want a 4xx: %s", status, body)
			}
			var r response
			if err := json.Unmarshal([]byte(body), &r); err != nil || len(r.Errors) == 0 {
				t.Fatalf("answer is not a GraphQL error (%v): %s", err, body)
			}
			for _, code := range r.Codes() {
				if !slices.Contains(contractCodes, code) {
					t.Errorf("error code %q is not one of the contract's: %s", code, body)
				}
			}
		})
	}
	if m := s.month(t, prev.month); m == nil || m.Status != "OPEN" {
		t.Errorf("a refused GET mutation changed the month: %+v", m)
	}
}

// With introspection off (the default), a schema query is refused as
// FORBIDDEN, not reported as an internal failure.
func TestInput_IntrospectionDisabledIsForbidden(t *testing.T) {
	s := startServer(t)
	s.expectError(t, "", `{ __schema { queryType { name } } }`, nil, "FORBIDDEN")
}

// An unknown persisted-query hash keeps the code Apollo clients act on.
func TestInput_UnknownPersistedQueryKeepsApolloCode(t *testing.T) {
	s := startServer(t)
	body := []byte(`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + strings.Repeat("ab", 32) + `"}}}`)
	resp := s.post(t, http.Header{"Content-Type": {"application/json"}}, body)
	if codes := resp.Codes(); len(codes) != 1 || codes[0] != "PERSISTED_QUERY_NOT_FOUND" {
		t.Errorf("codes %v, want [PERSISTED_QUERY_NOT_FOUND]", codes)
	}
}
