package e2e_test

import (
	"encoding/json"
	"fmt"
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
	today := time.Now().In(mustLocation(t, "Europe/Berlin")).Format(time.DateOnly)
	now := time.Now().UTC().Add(-time.Minute)
	at := func(seconds int) string { return now.Add(time.Duration(seconds) * time.Second).Format(time.RFC3339Nano) }
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
