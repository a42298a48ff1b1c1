package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// claimAnswer is a Claim as the tests read it.
type claimAnswer struct {
	Status    string  `json:"status"`
	ClaimedAt *string `json:"claimedAt"`
	ClaimID   *string `json:"claimId"`
	Standing  *struct {
		Board     string  `json:"board"`
		Period    string  `json:"period"`
		Rank      int     `json:"rank"`
		Score     int     `json:"score"`
		Total     int     `json:"total"`
		Tier      *string `json:"tier"`
		Final     bool    `json:"final"`
		ClaimedAt *string `json:"claimedAt"`
	} `json:"standing"`
}

// summary is the claim in one line, for comparisons.
func (c claimAnswer) summary() string {
	s := c.Status
	if c.ClaimID != nil {
		s += " " + *c.ClaimID + " at " + *c.ClaimedAt
	}
	if st := c.Standing; st != nil {
		tier := "-"
		if st.Tier != nil {
			tier = *st.Tier
		}
		s += fmt.Sprintf(" %s/%s #%d/%d %d %s final=%v claimedAt=%v", st.Board, st.Period, st.Rank, st.Total, st.Score,
			tier, st.Final, st.ClaimedAt != nil && *st.ClaimedAt == *c.ClaimedAt)
	}
	return s
}

const claimMutation = `mutation($b: ID!, $p: String!, $player: ID!, $c: ID!) {
	claimReward(board: $b, period: $p, playerId: $player, claimId: $c) {
		status claimedAt claimId standing { board period rank score total tier final claimedAt } } }`

// claimBody is the request body of a claim.
func claimBody(t *testing.T, board, period, player, claimID string) []byte {
	return mustJSON(t, map[string]any{"query": claimMutation,
		"variables": map[string]any{"b": board, "p": period, "player": player, "c": claimID}})
}

var serverHeader = http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + serverToken}}

// decodeClaim reads a claim's answer.
func decodeClaim(r *response) (claimAnswer, error) {
	var data struct {
		ClaimReward claimAnswer `json:"claimReward"`
	}
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		return claimAnswer{}, fmt.Errorf("claim answered %d: %s", r.Status, r.Body)
	}
	err := json.Unmarshal(r.Data, &data)
	return data.ClaimReward, err
}

// claim claims on s and fails the test on anything but an answer.
func (s *server) claim(t *testing.T, board, period, player, claimID string) claimAnswer {
	t.Helper()
	c, err := decodeClaim(s.post(t, serverHeader, claimBody(t, board, period, player, claimID)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// closeBoardPeriod closes period of board by hand.
func (s *server) closeBoardPeriod(t *testing.T, board, period string) {
	t.Helper()
	s.mustDo(t, adminToken, `mutation($b: ID!, $p: String!) { closePeriod(board: $b, period: $p) { status } }`,
		map[string]any{"b": board, "p": period}, nil)
}

// arena creates a DAY board in UTC with tiers gold (top 25 %) and silver
// (top 50 %), sends players 0..n-1 scores 10, 20, ... to today's period and
// closes it: player n-1 ranks first. It returns the period's key.
func arena(t *testing.T, s *server, id, order string, n int) string {
	t.Helper()
	s.mustDo(t, adminToken, `mutation($id: ID!, $o: SortOrder!) { createBoard(id: $id, name: "Arena", reset: DAY, order: $o,
		timeZone: "UTC", closeGrace: 60, startsAt: "2026-01-01T00:00:00Z",
		tiers: [{name: "gold", topPercent: 25}, {name: "silver", topPercent: 50}]) { created } }`,
		map[string]any{"id": id, "o": order}, nil)
	var events []map[string]any
	for i := range n {
		events = append(events, map[string]any{"eventId": fmt.Sprintf("%s-%d", id, i), "playerId": fmt.Sprintf("p%d", i),
			"mode": "SET", "value": 10 * (i + 1), "board": id})
	}
	period := *s.submitRaw(t, events...)[0].Period
	s.closeBoardPeriod(t, id, period)
	return period
}

func TestRewards_ThirtyTwoClaimsThroughTwoInstancesWithRetriesAfterCutConnections(t *testing.T) {
	a := startServer(t)
	b, _ := startInstance(t)
	period := arena(t, a, "arena", "DESC", 4)

	const claimers = 32
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = map[string][]claimAnswer{}
		cuts    int
	)
	for i := range claimers {
		wg.Go(func() {
			id := fmt.Sprintf("grant-%02d", i)
			body := claimBody(t, "arena", period, "p2", id)
			// Every claimer sends until it has an answer from each
			// instance; half of them have their first tries cut off a
			// moment after sending, as a dropped connection does.
			for try := 0; try < 20; try++ {
				s := []*server{a, b}[(i+try)%2]
				ctx, cancel := context.WithCancel(t.Context())
				if i%2 == 1 && try < 2 {
					time.AfterFunc(time.Duration(try+1)*time.Millisecond, cancel)
				}
				r, err := s.tryPost(ctx, serverHeader, body)
				cancel()
				mu.Lock()
				if err != nil {
					cuts++
					mu.Unlock()
					continue
				}
				c, err := decodeClaim(r)
				if err != nil {
					mu.Unlock()
					t.Error(err)
					return
				}
				answers[id] = append(answers[id], c)
				done := len(answers[id]) >= 2
				mu.Unlock()
				if done {
					return
				}
			}
			t.Errorf("claimer %s got no two answers in 20 tries", id)
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	var winners []string
	for id, cs := range answers {
		if cs[0].Status == "CLAIMED" {
			winners = append(winners, id)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("claim ids answered CLAIMED: %v, want one", winners)
	}
	winner := winners[0]
	first := answers[winner][0]
	for id, cs := range answers {
		for _, c := range cs {
			want := strings.Replace(first.summary(), "CLAIMED", "ALREADY_CLAIMED", 1)
			if id == winner {
				want = first.summary()
			}
			if c.summary() != want {
				t.Fatalf("%s answered %q, want %q", id, c.summary(), want)
			}
		}
	}
	if want := "CLAIMED " + winner + " at " + *first.ClaimedAt + " arena/" + period + " #2/4 30 silver final=true claimedAt=true"; first.summary() != want {
		t.Fatalf("the winner's answer %q, want %q", first.summary(), want)
	}
	var claims int
	if err := sqlConn(t).QueryRow(t.Context(), `SELECT count(*) FROM claims`).Scan(&claims); err != nil || claims != 1 {
		t.Fatalf("%d claims (%v), want 1", claims, err)
	}
	t.Logf("%d tries cut off", cuts)
}

func TestRewards_ClaimWhoseAnswerIsLostIsRetriedOnAnotherInstance(t *testing.T) {
	a := startServer(t)
	b, _ := startInstance(t)
	period := arena(t, a, "arena", "DESC", 4)

	// A proxy in front of a hands the claim on, waits for a's whole answer
	// (the claim is committed) and then cuts the caller's connection.
	answers := make(chan string, 1)
	lossy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, a.url+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			answers <- string(raw)
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer lossy.Close()
	lost := &server{url: lossy.URL, client: &http.Client{Timeout: 10 * time.Second}}
	if _, err := lost.tryPost(t.Context(), serverHeader, claimBody(t, "arena", period, "p3", "grant-1")); err == nil {
		t.Fatal("the proxy answered")
	}
	committed := <-answers
	if !strings.Contains(committed, `"status":"CLAIMED"`) {
		t.Fatalf("the lost answer was %s", committed)
	}
	var claimedAt time.Time
	if err := sqlConn(t).QueryRow(t.Context(), `SELECT claimed_at FROM claims WHERE player_id = 'p3'`).Scan(&claimedAt); err != nil {
		t.Fatal(err)
	}
	retry := b.claim(t, "arena", period, "p3", "grant-1")
	if retry.Status != "CLAIMED" || retry.ClaimedAt == nil || !mustTime(t, *retry.ClaimedAt).Equal(claimedAt) {
		t.Fatalf("retry answered %q, committed claimedAt %s", retry.summary(), claimedAt)
	}
	if !strings.Contains(committed, `"claimedAt":"`+*retry.ClaimedAt+`"`) {
		t.Fatalf("the lost answer %s and the retry's %q disagree", committed, retry.summary())
	}
	other := a.claim(t, "arena", period, "p3", "grant-2")
	if other.Status != "ALREADY_CLAIMED" || *other.ClaimID != "grant-1" || *other.ClaimedAt != *retry.ClaimedAt {
		t.Fatalf("another claim id answered %q", other.summary())
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func TestRewards_UnclaimedAcrossBoardsAndEveryStatus(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	s.submit(t, ev("m1", "p1", "SET", 7, prev.at(1)), ev("m2", "p0", "SET", 9, prev.at(2)))
	s.closeMonth(t, prev.month)
	today := arena(t, s, "arena", "DESC", 4) // p3 first
	arena(t, s, "laps", "ASC", 2)            // p0 first
	s.mustDo(t, adminToken, `mutation { createBoard(id: "forever", name: "Forever", reset: NONE) { created } }`, nil, nil)
	s.submitRaw(t, map[string]any{"eventId": "f1", "playerId": "p1", "mode": "SET", "value": 5, "board": "forever"})

	unclaimed := func(player string, first int) []string {
		t.Helper()
		var data struct {
			UnclaimedRewards []struct {
				Board     string  `json:"board"`
				Period    string  `json:"period"`
				Rank      int     `json:"rank"`
				Tier      *string `json:"tier"`
				ClaimedAt *string `json:"claimedAt"`
			} `json:"unclaimedRewards"`
		}
		s.mustDo(t, serverToken, `query($p: ID!, $n: Int) { unclaimedRewards(playerId: $p, first: $n) { board period rank tier claimedAt } }`,
			map[string]any{"p": player, "n": first}, &data)
		out := []string{}
		for _, u := range data.UnclaimedRewards {
			tier := "-"
			if u.Tier != nil {
				tier = *u.Tier
			}
			if u.ClaimedAt != nil {
				t.Fatalf("an unclaimed standing has claimedAt %s", *u.ClaimedAt)
			}
			out = append(out, fmt.Sprintf("%s #%d %s", u.Board, u.Rank, tier))
		}
		return out
	}
	assertList := func(got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("unclaimed %q, want %q", got, want)
		}
	}
	// Today's two boards end together (by board id), after last month.
	assertList(unclaimed("p1", 50), "arena #3 -", "laps #2 -", "main #2 -")
	assertList(unclaimed("p0", 50), "arena #4 -", "laps #1 silver", "main #1 -")
	assertList(unclaimed("p0", 1), "arena #4 -")
	assertList(unclaimed("nobody", 50))

	for _, c := range []struct{ board, period, player, want string }{
		{"main", prev.month, "p1", "CLAIMED g1"},
		{"laps", today, "p1", "CLAIMED g1"},
		{"laps", today, "p1", "CLAIMED g1"},
		{"main", time.Now().UTC().Format("2006-01"), "p1", "NOT_FINAL"},
		{"forever", "all", "p1", "NOT_FINAL"},
		{"arena", time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly), "p1", "NOT_FINAL"},
		{"arena", today, "zed", "NO_STANDING"},
		{"nope", today, "p1", "GONE"},
		{"arena", "2026-01-01", "p1", "GONE"},
	} {
		got := s.claim(t, c.board, c.period, c.player, "g1")
		if sum := got.summary(); !strings.HasPrefix(sum, c.want) {
			t.Fatalf("claim of %s/%s for %s: %q, want %s", c.board, c.period, c.player, sum, c.want)
		}
	}
	assertList(unclaimed("p1", 50), "arena #3 -")
	assertList(unclaimed("p0", 50), "arena #4 -", "laps #1 silver", "main #1 -")

	// The claim shows in the standing, to the game server and admins only,
	// and in the export.
	var st struct {
		Standing struct {
			ClaimedAt *string `json:"claimedAt"`
		} `json:"standing"`
	}
	const claimedAtQuery = `query($p: String) { standing(board: "laps", period: $p, playerId: "p1") { claimedAt } }`
	s.mustDo(t, "", claimedAtQuery, map[string]any{"p": today}, &st)
	if st.Standing.ClaimedAt != nil {
		t.Fatalf("a caller without a token reads claimedAt %s", *st.Standing.ClaimedAt)
	}
	s.mustDo(t, serverToken, claimedAtQuery, map[string]any{"p": today}, &st)
	if st.Standing.ClaimedAt == nil {
		t.Fatal("the claimed standing has no claimedAt")
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+"/admin/boards/laps/periods/"+today+"/standings.csv", nil)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	status, csv, err := s.send(req)
	if err != nil || status != http.StatusOK {
		t.Fatalf("export: %d %v", status, err)
	}
	claimedAt := mustTime(t, *st.Standing.ClaimedAt).UTC().Format("2006-01-02T15:04:05.000000Z")
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 3 || !strings.HasSuffix(lines[2], ","+claimedAt) ||
		!strings.HasSuffix(lines[1], ",") {
		t.Fatalf("export %q, want p1's claimed_at %s", csv, claimedAt)
	}

	// Roles and input.
	s.expectError(t, adminToken, claimMutation, map[string]any{"b": "laps", "p": today, "player": "p1", "c": "g"}, "FORBIDDEN")
	s.expectError(t, playerToken(t, "p1"), `{ unclaimedRewards(playerId: "p1") { rank } }`, nil, "FORBIDDEN")
	s.expectError(t, serverToken, claimMutation, map[string]any{"b": "laps", "p": "yesterday", "player": "p1", "c": "g"}, "BAD_USER_INPUT")

	// Retention drops periods with their claims: no one's reward any more.
	// (A claim of a dropped period answers GONE once the period's close
	// grace is over: db's TestClaimReward_StatusesOfEveryOtherCase; these
	// instances give last month 45 days.)
	conn := sqlConn(t)
	for _, drop := range []string{`DELETE FROM periods WHERE board_id = 'laps'`, `DELETE FROM periods WHERE board_id = 'main' AND key < to_char(now(), 'YYYY-MM')`} {
		if _, err := conn.Exec(t.Context(), drop); err != nil {
			t.Fatal(err)
		}
	}
	assertList(unclaimed("p0", 50), "arena #4 -")
	var left int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM claims`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d claims left (%v)", left, err)
	}
}

// A game server's claim whose instance is killed (SIGKILL) right after the
// claim's commit, whatever it managed to answer, is retried on another
// instance: CLAIMED with the committed claimedAt, one row.
func TestRewards_ClaimOfAKilledInstanceIsRetriedOnAnother(t *testing.T) {
	a := startServer(t)
	period := arena(t, a, "arena", "DESC", 4)
	child := startChild(t, "DATABASE_URL="+pg.URL, "LISTEN_ADDR=127.0.0.1:0", "LEADERBOARD_SERVER_TOKEN="+serverToken,
		"LEADERBOARD_CLOSE_GRACE=1080h", "LEADERBOARD_AUTO_CLOSE=false")
	var doomed *server
	select {
	case url := <-child.url:
		doomed = &server{url: url, client: &http.Client{Timeout: 10 * time.Second}}
	case <-child.done:
		t.Fatalf("the program ended (%v):\n%s", child.err, child.log())
	case <-time.After(time.Minute):
		t.Fatalf("the program did not serve within a minute:\n%s", child.log())
	}
	go doomed.tryPost(t.Context(), serverHeader, claimBody(t, "arena", period, "p3", "grant-7"))

	conn := sqlConn(t)
	var claimedAt time.Time
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := conn.QueryRow(t.Context(), `SELECT claimed_at FROM claims WHERE player_id = 'p3'`).Scan(&claimedAt)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the claim was not committed: %v\n%s", err, child.log())
		}
		time.Sleep(time.Millisecond)
	}
	if err := child.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-child.done

	retry := a.claim(t, "arena", period, "p3", "grant-7")
	if retry.Status != "CLAIMED" || retry.ClaimedAt == nil || !mustTime(t, *retry.ClaimedAt).Equal(claimedAt) {
		t.Fatalf("retry after the kill answered %q, committed claimedAt %s", retry.summary(), claimedAt)
	}
	var rows int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM claims WHERE player_id = 'p3'`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d claims of p3 (%v), want 1", rows, err)
	}
}
