package e2e_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// boardResult is a ScoreResult with the fields of boards.
type boardResult struct {
	EventID string  `json:"eventId"`
	Status  string  `json:"status"`
	Score   *int    `json:"score"`
	Rank    *int    `json:"rank"`
	Code    *string `json:"code"`
	Error   *string `json:"error"`
	Board   string  `json:"board"`
	Period  *string `json:"period"`
	Month   *string `json:"month"`
}

func (s *server) submitRaw(t *testing.T, events ...map[string]any) []boardResult {
	t.Helper()
	var data struct {
		SubmitScores []boardResult `json:"submitScores"`
	}
	s.mustDo(t, serverToken, `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status score rank code error board period month } }`,
		map[string]any{"e": events}, &data)
	return data.SubmitScores
}

type boardEntry struct {
	Rank     int             `json:"rank"`
	Score    int             `json:"score"`
	Subscore *int            `json:"subscore"`
	Metadata json.RawMessage `json:"metadata"`
	Player   struct {
		ID   string  `json:"id"`
		Name *string `json:"name"`
	} `json:"player"`
}

type boardStanding struct {
	boardEntry
	Board      string       `json:"board"`
	Period     string       `json:"period"`
	Month      string       `json:"month"`
	Total      int          `json:"total"`
	Final      bool         `json:"final"`
	Percentile float64      `json:"percentile"`
	Neighbours []boardEntry `json:"neighbours"`
}

const boardStandingFields = `rank score subscore metadata player { id name } board period month total final percentile
	neighbours(above: 2, below: 2) { rank score subscore metadata player { id name } }`

func TestBoardScores_LapTimesRankLowestFirstWithSubscoresAndMetadata(t *testing.T) {
	s := startServer(t)
	s.mustDo(t, adminToken, `mutation { createBoard(id: "laps", name: "Lap times", reset: DAY, order: ASC, minScore: 1,
		maxScore: 600000, tiebreak: SUBSCORE_DESC, timeZone: "Europe/Berlin", closeGrace: 60, startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	now := time.Now().UTC().Add(-time.Minute)
	today := now.In(mustLocation(t, "Europe/Berlin")).Format(time.DateOnly) // the day of the events
	at := func(seconds int) string {
		return now.Add(time.Duration(seconds) * time.Second).Format(time.RFC3339Nano)
	}
	lap := func(id, player string, mode string, ms int, sub any, meta any, when int) map[string]any {
		e := map[string]any{"eventId": id, "playerId": player, "playerName": "Driver " + player, "mode": mode, "value": ms,
			"board": "laps", "occurredAt": at(when)}
		if sub != nil {
			e["subscore"] = sub
		}
		if meta != nil {
			e["metadata"] = meta
		}
		return e
	}
	results := s.submitRaw(t,
		lap("l1", "ann", "BEST", 61000, 3, map[string]any{"car": "red"}, 1),
		lap("l2", "bob", "BEST", 59000, nil, nil, 2),
		lap("l3", "cid", "BEST", 61000, 5, nil, 3),              // same time as ann, higher subscore: ahead of her
		lap("l4", "ann", "BEST", 62000, 9, map[string]any{}, 4), // slower: unchanged
		lap("l5", "dan", "SET", 600001, nil, nil, 5),            // past maxScore
		lap("l6", "eve", "BEST", 70000, nil, []any{1}, 6),       // metadata not an object
		map[string]any{"eventId": "l7", "playerId": "fay", "mode": "SET", "value": 5, "board": "nope"},
		map[string]any{"eventId": "m1", "playerId": "ann", "mode": "SET", "value": 10},
	)
	want := []struct {
		status, code string
		rank         int
	}{{"APPLIED", "", 1}, {"APPLIED", "", 1}, {"APPLIED", "", 2}, {"UNCHANGED", "", 3}, {"REJECTED", "BAD_USER_INPUT", 0},
		{"REJECTED", "BAD_USER_INPUT", 0}, {"REJECTED", "NOT_FOUND", 0}, {"APPLIED", "", 1}}
	for i, r := range results {
		code := ""
		if r.Code != nil {
			code = *r.Code
		}
		rank := 0
		if r.Rank != nil {
			rank = *r.Rank
		}
		if r.Status != want[i].status || code != want[i].code || (want[i].status != "REJECTED" && i < 4 && rank == 0) {
			t.Errorf("result %d: %s %s %q rank %v, want %s %s", i, r.Status, code, deref(r.Error), r.Rank, want[i].status, want[i].code)
		}
	}
	if results[0].Board != "laps" || results[0].Period == nil || *results[0].Period != today || results[0].Month != nil {
		t.Errorf("a board event's result: %+v, want board laps, period %s, no month", results[0], today)
	}
	if results[7].Board != "main" || results[7].Period == nil || results[7].Month == nil || *results[7].Period != *results[7].Month {
		t.Errorf("a main event's result: %+v, want board main and its month as period", results[7])
	}

	var got struct {
		Standing *boardStanding `json:"standing"`
	}
	s.mustDo(t, "", `{ standing(board: "laps", playerId: "ann") { `+boardStandingFields+` } }`, nil, &got)
	st := got.Standing
	if st == nil || st.Rank != 3 || st.Score != 61000 || st.Subscore == nil || *st.Subscore != 3 || st.Total != 3 ||
		st.Board != "laps" || st.Period != today || st.Final || string(st.Metadata) != `{"car":"red"}` {
		t.Fatalf("ann's standing: %+v", st)
	}
	if fmt.Sprintf("%.4f", st.Percentile) != "33.3333" {
		t.Errorf("percentile of the last of 3: %v", st.Percentile)
	}
	if len(st.Neighbours) != 2 || st.Neighbours[0].Player.ID != "bob" || st.Neighbours[1].Player.ID != "cid" ||
		st.Neighbours[1].Rank != 2 || *st.Neighbours[1].Subscore != 5 {
		t.Fatalf("ann's neighbours: %+v", st.Neighbours)
	}

	var page struct {
		Leaderboard struct {
			Total int `json:"total"`
			Edges []struct {
				Cursor string     `json:"cursor"`
				Node   boardEntry `json:"node"`
			} `json:"edges"`
			PageInfo struct {
				HasNextPage bool    `json:"hasNextPage"`
				EndCursor   *string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"leaderboard"`
	}
	s.mustDo(t, "", `query($p: String!) { leaderboard(board: "laps", period: $p, first: 2) { total edges { cursor node { rank score player { id } } }
		pageInfo { hasNextPage endCursor } } }`, map[string]any{"p": today}, &page)
	if page.Leaderboard.Total != 3 || len(page.Leaderboard.Edges) != 2 || !page.Leaderboard.PageInfo.HasNextPage ||
		page.Leaderboard.Edges[0].Node.Player.ID != "bob" {
		t.Fatalf("first page: %+v", page.Leaderboard)
	}
	s.mustDo(t, "", `query($p: String!, $after: String) { leaderboard(board: "laps", period: $p, first: 2, after: $after) { total
		edges { cursor node { rank score player { id } } } pageInfo { hasNextPage endCursor } } }`,
		map[string]any{"p": today, "after": *page.Leaderboard.PageInfo.EndCursor}, &page)
	if len(page.Leaderboard.Edges) != 1 || page.Leaderboard.Edges[0].Node.Player.ID != "ann" || page.Leaderboard.Edges[0].Node.Rank != 3 ||
		page.Leaderboard.PageInfo.HasNextPage {
		t.Fatalf("second page: %+v", page.Leaderboard)
	}

	// main is untouched by the board's events: ann has 10 there, alone.
	var mainStanding struct {
		Standing *struct {
			Rank, Score, Total int
			Board, Period      string
		} `json:"standing"`
	}
	s.mustDo(t, "", `{ standing(playerId: "ann") { rank score total board period } }`, nil, &mainStanding)
	if m := mainStanding.Standing; m == nil || m.Score != 10 || m.Total != 1 || m.Board != "main" || m.Period != *results[7].Month {
		t.Fatalf("ann on main: %+v", mainStanding.Standing)
	}
}

func TestBoardScores_ReadsRefuseWhatTheContractRefuses(t *testing.T) {
	s := startServer(t)
	s.mustDo(t, adminToken, `mutation { createBoard(id: "weekly", name: "Weekly", reset: WEEK) { created }
		later: createBoard(id: "later", name: "Later", reset: DAY, startsAt: "2099-01-01T00:00:00Z") { created } }`, nil, nil)
	for name, c := range map[string]struct{ query, code string }{
		"both period and month":     {`{ standing(board: "weekly", period: "2026-W48", month: "2026-11", playerId: "p") { rank } }`, "BAD_USER_INPUT"},
		"month on a weekly board":   {`{ leaderboard(board: "weekly", month: "2026-11") { total } }`, "BAD_USER_INPUT"},
		"a day key on a week board": {`{ leaderboard(board: "weekly", period: "2026-11-25") { total } }`, "BAD_USER_INPUT"},
		"an unknown board":          {`{ standing(board: "nope", playerId: "p") { rank } }`, "NOT_FOUND"},
		"a malformed board id":      {`{ leaderboard(board: "No Pe") { total } }`, "BAD_USER_INPUT"},
		"a bad period key on main":  {`{ standing(period: "2026-W48", playerId: "p") { rank } }`, "BAD_USER_INPUT"},
	} {
		t.Run(name, func(t *testing.T) { s.expectError(t, "", c.query, nil, c.code) })
	}
	var got struct {
		Leaderboard struct {
			Total int `json:"total"`
		} `json:"leaderboard"`
		Standing *struct{ Rank int } `json:"standing"`
	}
	s.mustDo(t, "", `{ leaderboard(board: "later") { total } standing(board: "weekly", playerId: "p") { rank } }`, nil, &got)
	if got.Leaderboard.Total != 0 || got.Standing != nil {
		t.Fatalf("a board not started and a player without a score: %+v", got)
	}
	results := s.submitRaw(t, map[string]any{"eventId": "x", "playerId": "p", "mode": "SET", "value": 1, "board": "later"})
	if results[0].Status != "REJECTED" || results[0].Code == nil || *results[0].Code != "NOT_STARTED" {
		t.Fatalf("an event before the board starts: %+v", results[0])
	}
}

func TestBoardScores_ClosePeriodFreezesItWithTiersAndRefusesLaterEvents(t *testing.T) {
	s := startServer(t)
	s.mustDo(t, adminToken, `mutation { createBoard(id: "pvp", name: "PvP", reset: WEEK, startsAt: "2026-01-01T00:00:00Z",
		tiers: [{name: "gold", topPercent: 25}, {name: "silver", topPercent: 50}]) { created } }`, nil, nil)
	events := make([]map[string]any, 0, 8)
	for i := range 8 {
		events = append(events, map[string]any{"eventId": fmt.Sprintf("e%d", i), "playerId": fmt.Sprintf("p%d", i),
			"mode": "SET", "value": 100 * (i + 1), "board": "pvp"})
	}
	results := s.submitRaw(t, events...)
	week := *results[0].Period

	var open struct {
		Period struct {
			Status       string `json:"status"`
			Participants int    `json:"participants"`
		} `json:"period"`
	}
	s.mustDo(t, "", `query($k: String!) { period(board: "pvp", key: $k) { status participants } }`, map[string]any{"k": week}, &open)
	if open.Period.Status != "OPEN" || open.Period.Participants != 8 {
		t.Fatalf("the open week: %+v, want OPEN with 8 players counted live", open.Period)
	}

	var closed struct {
		ClosePeriod struct {
			Status       string  `json:"status"`
			Participants int     `json:"participants"`
			Digest       *string `json:"digest"`
			ClosedAt     *string `json:"closedAt"`
		} `json:"closePeriod"`
	}
	s.mustDo(t, adminToken, `mutation($k: String!) { closePeriod(board: "pvp", period: $k) { status participants digest closedAt } }`,
		map[string]any{"k": week}, &closed)
	c := closed.ClosePeriod
	if c.Status != "CLOSED" || c.Participants != 8 || c.Digest == nil || len(*c.Digest) != 64 || c.ClosedAt == nil {
		t.Fatalf("closePeriod answered %+v", c)
	}

	var got struct {
		Top  *boardStanding `json:"top"`
		Mid  *boardStanding `json:"mid"`
		Last *boardStanding `json:"last"`
	}
	const fields = `rank final percentile tier`
	s.mustDo(t, "", `query($k: String!) { top: standing(board: "pvp", period: $k, playerId: "p7") { `+fields+` }
		mid: standing(board: "pvp", period: $k, playerId: "p4") { `+fields+` }
		last: standing(board: "pvp", period: $k, playerId: "p0") { `+fields+` } }`, map[string]any{"k": week}, &got)
	if got.Top == nil || got.Top.Rank != 1 || !got.Top.Final || got.Mid.Rank != 4 || got.Last.Rank != 8 {
		t.Fatalf("final standings: top %+v mid %+v last %+v", got.Top, got.Mid, got.Last)
	}
	raw := s.do(t, "", `query($k: String!) { top: standing(board: "pvp", period: $k, playerId: "p6") { tier }
		mid: standing(board: "pvp", period: $k, playerId: "p4") { tier } last: standing(board: "pvp", period: $k, playerId: "p0") { tier } }`,
		map[string]any{"k": week})
	if want := `{"top":{"tier":"gold"},"mid":{"tier":"silver"},"last":{"tier":null}}`; string(raw.Data) != want {
		t.Errorf("tiers %s, want %s (rank 2 of 8 is the top 25 %%, rank 4 the top 50 %%)", raw.Data, want)
	}

	late := s.submitRaw(t, map[string]any{"eventId": "late", "playerId": "p9", "mode": "SET", "value": 5, "board": "pvp",
		"occurredAt": time.Now().UTC().Add(-time.Second).Format(time.RFC3339Nano)})
	if late[0].Status != "REJECTED" || late[0].Code == nil || *late[0].Code != "MONTH_CLOSED" {
		t.Fatalf("an event for the closed week: %+v", late[0])
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+"/admin/boards/pvp/periods/"+week+"/standings.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	status, csv, err := s.send(req)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if err != nil || status != http.StatusOK || len(lines) != 9 ||
		lines[0] != "rank,player_id,player_name,score,reached_at,percentile,subscore,tier,claimed_at" ||
		!strings.HasPrefix(lines[1], "1,p7,,800,") || !strings.Contains(lines[1], ",gold,") {
		t.Fatalf("export: %d %v\n%s", status, err, csv)
	}
	cleared := s.do(t, adminToken, `mutation($k: String!) { clearPeriod(board: "pvp", period: $k, reason: "test phase") { status } }`, map[string]any{"k": week})
	if codes := cleared.Codes(); len(codes) != 1 || codes[0] != "CONFLICT" {
		t.Errorf("clearPeriod of a closed week: %s, want CONFLICT", cleared.Body)
	}
}
