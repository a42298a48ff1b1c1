package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// gqlError is one entry of a GraphQL response's errors.
type gqlError struct {
	Message    string `json:"message"`
	Path       []any  `json:"path"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

// response is a decoded GraphQL answer with the HTTP status it came with.
type response struct {
	Status int             `json:"-"`
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
	// Body is the raw body, for failure messages.
	Body string `json:"-"`
}

// Codes returns the extensions.code of every error, in order.
func (r *response) Codes() []string {
	codes := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		codes[i] = e.Extensions.Code
	}
	return codes
}

// do POSTs query with vars to /graphql, sending token as a bearer token when
// it is not empty, and decodes the answer. It fails the test when the server
// cannot be reached or answers something that is not a GraphQL response.
func (s *server) do(t *testing.T, token, query string, vars map[string]any) *response {
	t.Helper()
	body := mustJSON(t, map[string]any{"query": query, "variables": vars})
	header := http.Header{"Content-Type": {"application/json"}}
	if token != "" {
		header.Set("Authorization", "Bearer "+token)
	}
	return s.post(t, header, body)
}

// mustJSON encodes v as JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode JSON: %v", err)
	}
	return b
}

// post sends body to /graphql with the given headers and decodes the answer
// as a GraphQL response, failing the test when that is impossible.
func (s *server) post(t *testing.T, header http.Header, body []byte) *response {
	t.Helper()
	r, err := s.tryPost(t.Context(), header, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tryPost is post for goroutines other than the test's: it returns an error
// where post fails the test.
func (s *server) tryPost(ctx context.Context, header http.Header, body []byte) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = header
	status, raw, err := s.send(req)
	if err != nil {
		return nil, err
	}
	r := &response{Status: status, Body: raw}
	if err := json.Unmarshal([]byte(raw), r); err != nil {
		return nil, fmt.Errorf("POST /graphql answered %d with a body that is not JSON (%v): %s", status, err, raw)
	}
	if len(r.Data) == 0 && len(r.Errors) == 0 {
		return nil, fmt.Errorf("POST /graphql answered %d with neither data nor errors: %s", status, raw)
	}
	return r, nil
}

// get fetches path from the server and returns the status and body.
func (s *server) get(t *testing.T, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+path, nil)
	if err != nil {
		t.Fatalf("build request: %v", err)
	}
	status, body, err := s.send(req)
	if err != nil {
		t.Fatal(err)
	}
	return status, body
}

// send runs req and returns the status and the whole body.
func (s *server) send(req *http.Request) (int, string, error) {
	res, err := s.client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: read body: %w", req.Method, req.URL.Path, err)
	}
	return res.StatusCode, string(raw), nil
}

// mustDo runs the operation and decodes its data into out (when out is not
// nil), failing the test on any GraphQL error or a non-200 status.
func (s *server) mustDo(t *testing.T, token, query string, vars map[string]any, out any) {
	t.Helper()
	r := s.do(t, token, query, vars)
	if len(r.Errors) > 0 || r.Status != http.StatusOK {
		t.Fatalf("operation failed with status %d: %s\nquery: %s", r.Status, r.Body, query)
	}
	if out != nil {
		if err := json.Unmarshal(r.Data, out); err != nil {
			t.Fatalf("decode data: %v: %s", err, r.Data)
		}
	}
}

// expectError runs the operation and checks that it fails with exactly one
// GraphQL error whose extensions.code is code, answered with a status below
// 500. It returns the response for further checks.
func (s *server) expectError(t *testing.T, token, query string, vars map[string]any, code string) *response {
	t.Helper()
	r := s.do(t, token, query, vars)
	if r.Status >= http.StatusInternalServerError {
		t.Errorf("status %d, want below 500: %s", r.Status, r.Body)
	}
	if codes := r.Codes(); !slices.Equal(codes, []string{code}) {
		t.Errorf("error codes %q, want [%s]: %s\nquery: %s", codes, code, r.Body, query)
	}
	return r
}

// dataIsNull reports whether the response's data is absent or JSON null, or
// holds only null fields.
func (r *response) dataIsNull() bool {
	if len(r.Data) == 0 || string(r.Data) == "null" {
		return true
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r.Data, &fields); err != nil {
		return false
	}
	for _, v := range fields {
		if strings.TrimSpace(string(v)) != "null" {
			return false
		}
	}
	return true
}

// GraphQL operations and the shapes of their answers.

const submitMutation = `mutation Submit($events: [ScoreEvent!]!) {
	submitScores(events: $events) { eventId status score rank error code month }
}`

// scoreEvent is the ScoreEvent input.
type scoreEvent struct {
	EventID    string     `json:"eventId"`
	PlayerID   string     `json:"playerId"`
	PlayerName *string    `json:"playerName,omitempty"`
	Mode       string     `json:"mode"`
	Value      int        `json:"value"`
	OccurredAt *time.Time `json:"occurredAt,omitempty"`
}

// scoreResult is a ScoreResult.
type scoreResult struct {
	EventID string  `json:"eventId"`
	Status  string  `json:"status"`
	Score   *int    `json:"score"`
	Rank    *int    `json:"rank"`
	Error   *string `json:"error"`
	Code    *string `json:"code"`
	Month   *string `json:"month"`
}

// player is a Player.
type player struct {
	ID   string  `json:"id"`
	Name *string `json:"name"`
}

// rankEntry is a RankEntry.
type rankEntry struct {
	Rank      int       `json:"rank"`
	Score     int       `json:"score"`
	ReachedAt time.Time `json:"reachedAt"`
	Player    player    `json:"player"`
}

// standing is a Standing with the neighbours its query asked for.
type standing struct {
	Month      string      `json:"month"`
	Rank       int         `json:"rank"`
	Score      int         `json:"score"`
	ReachedAt  time.Time   `json:"reachedAt"`
	Player     player      `json:"player"`
	Total      int         `json:"total"`
	Final      bool        `json:"final"`
	Neighbours []rankEntry `json:"neighbours"`
}

// monthInfo is a MonthInfo.
type monthInfo struct {
	Month        string     `json:"month"`
	Status       string     `json:"status"`
	Participants int        `json:"participants"`
	EndsAt       time.Time  `json:"endsAt"`
	ClosedAt     *time.Time `json:"closedAt"`
	ClosesAt     time.Time  `json:"closesAt"`
	Digest       *string    `json:"digest"`
	Settlement   *struct {
		Status      string     `json:"status"`
		Attempts    int        `json:"attempts"`
		DeliveredAt *time.Time `json:"deliveredAt"`
		LastError   *string    `json:"lastError"`
	} `json:"settlement"`
}

// leaderboardPage is a LeaderboardConnection.
type leaderboardPage struct {
	Edges []struct {
		Cursor string    `json:"cursor"`
		Node   rankEntry `json:"node"`
	} `json:"edges"`
	PageInfo struct {
		HasNextPage bool    `json:"hasNextPage"`
		EndCursor   *string `json:"endCursor"`
	} `json:"pageInfo"`
	Total int `json:"total"`
}

const rankEntryFields = `rank score reachedAt player { id name }`

const standingFields = `month rank score reachedAt player { id name } total final`

const monthFields = `month status participants endsAt closedAt closesAt digest settlement { status attempts deliveredAt lastError }`

// submit sends events with the game-server token and returns one result per
// event, failing the test on a GraphQL error.
func (s *server) submit(t *testing.T, events ...scoreEvent) []scoreResult {
	t.Helper()
	results, err := s.trySubmit(t.Context(), events...)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// trySubmit is submit for goroutines other than the test's: it returns an
// error where submit fails the test.
func (s *server) trySubmit(ctx context.Context, events ...scoreEvent) ([]scoreResult, error) {
	body, err := json.Marshal(map[string]any{"query": submitMutation, "variables": map[string]any{"events": events}})
	if err != nil {
		return nil, err
	}
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + serverToken}}
	r, err := s.tryPost(ctx, header, body)
	if err != nil {
		return nil, err
	}
	if len(r.Errors) > 0 || r.Status != http.StatusOK {
		return nil, fmt.Errorf("submitScores failed with status %d: %s", r.Status, r.Body)
	}
	var data struct {
		SubmitScores []scoreResult `json:"submitScores"`
	}
	if err := json.Unmarshal(r.Data, &data); err != nil {
		return nil, fmt.Errorf("decode data: %w: %s", err, r.Data)
	}
	if len(data.SubmitScores) != len(events) {
		return nil, fmt.Errorf("got %d results for %d events", len(data.SubmitScores), len(events))
	}
	for i, res := range data.SubmitScores {
		if res.EventID != events[i].EventID {
			return nil, fmt.Errorf("result %d is for event %q, want %q", i, res.EventID, events[i].EventID)
		}
	}
	return data.SubmitScores, nil
}

// closeMonth closes month with the admin token and returns the month's info.
func (s *server) closeMonth(t *testing.T, month string) monthInfo {
	t.Helper()
	var data struct {
		CloseMonth monthInfo `json:"closeMonth"`
	}
	s.mustDo(t, adminToken, `mutation($m: Month!) { closeMonth(month: $m) { `+monthFields+` } }`,
		map[string]any{"m": month}, &data)
	return data.CloseMonth
}

// month returns month(month), nil when the service answers null.
func (s *server) month(t *testing.T, month string) *monthInfo {
	t.Helper()
	var data struct {
		Month *monthInfo `json:"month"`
	}
	s.mustDo(t, "", `query($m: Month!) { month(month: $m) { `+monthFields+` } }`, map[string]any{"m": month}, &data)
	return data.Month
}

// months returns months(first: first).
func (s *server) months(t *testing.T, first int) []monthInfo {
	t.Helper()
	var data struct {
		Months []monthInfo `json:"months"`
	}
	s.mustDo(t, "", `query($n: Int) { months(first: $n) { `+monthFields+` } }`, map[string]any{"n": first}, &data)
	return data.Months
}

// standing returns standing(month, playerId) with its default neighbours,
// nil when the service answers null.
func (s *server) standing(t *testing.T, month, playerID string) *standing {
	t.Helper()
	var data struct {
		Standing *standing `json:"standing"`
	}
	s.mustDo(t, "", `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { `+standingFields+
		` neighbours { `+rankEntryFields+` } } }`, map[string]any{"m": month, "p": playerID}, &data)
	return data.Standing
}

// leaderboard returns one page of month's table.
func (s *server) leaderboard(t *testing.T, month string, first int, after *string) leaderboardPage {
	t.Helper()
	var data struct {
		Leaderboard leaderboardPage `json:"leaderboard"`
	}
	s.mustDo(t, "", `query($m: Month!, $n: Int, $after: String) {
		leaderboard(month: $m, first: $n, after: $after) {
			edges { cursor node { `+rankEntryFields+` } }
			pageInfo { hasNextPage endCursor }
			total
		}
	}`, map[string]any{"m": month, "n": first, "after": after}, &data)
	return data.Leaderboard
}
