package e2e_test

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// boardInfo is a Board as the tests read it.
type boardInfo struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Reset         string   `json:"reset"`
	Order         string   `json:"order"`
	MinScore      int      `json:"minScore"`
	MaxScore      int      `json:"maxScore"`
	Tiebreak      string   `json:"tiebreak"`
	TimeZone      string   `json:"timeZone"`
	CloseGrace    int      `json:"closeGrace"`
	StartsAt      string   `json:"startsAt"`
	EndsAt        *string  `json:"endsAt"`
	RetainPeriods *int     `json:"retainPeriods"`
	Tiers         []tier   `json:"tiers"`
	Status        string   `json:"status"`
	Current       *period  `json:"current"`
	Periods       []period `json:"periods"`
}

type tier struct {
	Name       string  `json:"name"`
	TopPercent float64 `json:"topPercent"`
}

type period struct {
	Board        string  `json:"board"`
	Key          string  `json:"key"`
	Status       string  `json:"status"`
	StartsAt     string  `json:"startsAt"`
	EndsAt       *string `json:"endsAt"`
	ClosesAt     *string `json:"closesAt"`
	Participants int     `json:"participants"`
}

const boardFields = `id name reset order minScore maxScore tiebreak timeZone closeGrace startsAt endsAt retainPeriods
	tiers { name topPercent } status current { board key status startsAt endsAt closesAt participants }
	periods { board key status participants }`

const createLapBoard = `mutation($id: ID!) { createBoard(id: $id, name: "Daily lap times", reset: DAY, order: ASC,
	minScore: 1, maxScore: 600000, tiebreak: SUBSCORE_DESC, timeZone: "Europe/Berlin", closeGrace: 60,
	tiers: [{name: "gold", topPercent: 1}, {name: "silver", topPercent: 10}]) { created board { ` + boardFields + ` } } }`

type creation struct {
	CreateBoard struct {
		Created bool      `json:"created"`
		Board   boardInfo `json:"board"`
	} `json:"createBoard"`
}

func TestBoards_CreateRacedByCallersOnTwoInstancesCreatesOnce(t *testing.T) {
	a := startServer(t)
	b, _ := startInstance(t)
	const callers = 32
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		answers []creation
	)
	for i := range callers {
		wg.Go(func() {
			s := []*server{a, b}[i%2]
			var c creation
			s.mustDo(t, adminToken, createLapBoard, map[string]any{"id": "laps.daily"}, &c)
			mu.Lock()
			defer mu.Unlock()
			if c.CreateBoard.Created {
				created++
			}
			answers = append(answers, c)
		})
	}
	wg.Wait()
	if created != 1 {
		t.Fatalf("%d callers on two instances: %d answers say created, want exactly 1", callers, created)
	}
	first := answers[0].CreateBoard.Board
	for _, c := range answers {
		if c.CreateBoard.Board.StartsAt != first.StartsAt {
			t.Fatalf("answers disagree on the board: %+v and %+v", c.CreateBoard.Board, first)
		}
	}
	if first.Order != "ASC" || first.TimeZone != "Europe/Berlin" || first.CloseGrace != 60 || first.MinScore != 1 ||
		len(first.Tiers) != 2 || first.Tiers[1].TopPercent != 10 || first.Status != "RUNNING" {
		t.Fatalf("board %+v", first)
	}
	today := time.Now().In(mustLocation(t, "Europe/Berlin")).Format(time.DateOnly)
	if first.Current == nil || first.Current.Key != today || first.Current.Status != "OPEN" || first.Current.Participants != 0 {
		t.Fatalf("current period %+v, want today's (%s) open and empty", first.Current, today)
	}

	other := `mutation { createBoard(id: "laps.daily", name: "Daily lap times", reset: DAY) { created } }`
	a.expectError(t, adminToken, other, nil, "CONFLICT")
}

func mustLocation(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestBoards_ReadsAndTheMainBoard(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("m1", "ann", "SET", 10, cur.at(1)))

	var got struct {
		Board  boardInfo   `json:"board"`
		Boards []boardInfo `json:"boards"`
		Period *period     `json:"period"`
	}
	s.mustDo(t, "", `query($m: String!) { board(id: "main") { `+boardFields+` } boards { id } period(board: "main", key: $m) {
		board key status startsAt endsAt closesAt participants } }`,
		map[string]any{"m": cur.month}, &got)
	main := got.Board
	if main.Reset != "MONTH" || main.Order != "DESC" || main.MaxScore != 10000 || main.TimeZone != "UTC" ||
		main.Status != "RUNNING" || main.EndsAt != nil {
		t.Fatalf("main board %+v", main)
	}
	if main.Current == nil || main.Current.Key != cur.month || main.Current.Participants != 1 ||
		len(main.Periods) != 1 || main.Periods[0].Key != cur.month {
		t.Fatalf("main's periods: current %+v, periods %+v; want the month with its one player", main.Current, main.Periods)
	}
	if len(got.Boards) != 1 || got.Boards[0].ID != "main" || got.Period == nil || got.Period.Participants != 1 {
		t.Fatalf("boards %+v, period %+v", got.Boards, got.Period)
	}
}

func TestBoards_SeasonsAndEnd(t *testing.T) {
	s := startServer(t)
	start := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	s.mustDo(t, adminToken, `mutation($start: Time!) { createBoard(id: "ranked", name: "Ranked", reset: SEASON, startsAt: $start) { created } }`,
		map[string]any{"start": start.Format(time.RFC3339)}, nil)
	season := `mutation($key: String!, $start: Time!, $end: Time!) { createSeason(board: "ranked", key: $key, startsAt: $start, endsAt: $end) { key status } }`
	at := func(d time.Duration) string { return start.Add(d).Format(time.RFC3339) }
	s.mustDo(t, adminToken, season, map[string]any{"key": "S1", "start": at(0), "end": at(48 * time.Hour)}, nil)
	s.expectError(t, adminToken, season, map[string]any{"key": "S2", "start": at(47 * time.Hour), "end": at(96 * time.Hour)}, "CONFLICT")
	s.expectError(t, serverToken, season, map[string]any{"key": "S2", "start": at(48 * time.Hour), "end": at(96 * time.Hour)}, "FORBIDDEN")
	s.mustDo(t, adminToken, season, map[string]any{"key": "S2", "start": at(48 * time.Hour), "end": at(96 * time.Hour)}, nil)

	var got struct {
		Board boardInfo `json:"board"`
	}
	s.mustDo(t, "", `{ board(id: "ranked") { `+boardFields+` } }`, nil, &got)
	if got.Board.Current == nil || got.Board.Current.Key != "S1" || len(got.Board.Periods) != 2 ||
		got.Board.Periods[0].Key != "S2" || got.Board.Periods[0].Status != "NOT_STARTED" {
		t.Fatalf("seasons: current %+v, periods %+v", got.Board.Current, got.Board.Periods)
	}

	var ended struct {
		EndBoard boardInfo `json:"endBoard"`
	}
	s.mustDo(t, adminToken, `mutation($at: Time) { endBoard(id: "ranked", at: $at) { `+boardFields+` } }`,
		map[string]any{"at": at(30 * time.Hour)}, &ended)
	if ended.EndBoard.EndsAt == nil || *ended.EndBoard.EndsAt != at(30*time.Hour) || ended.EndBoard.Status != "RUNNING" {
		t.Fatalf("ended board %+v", ended.EndBoard)
	}
}

func TestBoards_BadInput(t *testing.T) {
	s := startServer(t)
	create := func(args string) string {
		return fmt.Sprintf(`mutation { createBoard(id: "b", name: "B", reset: DAY%s) { created } }`, args)
	}
	for name, c := range map[string]struct {
		token, query, code string
	}{
		"bad id":                {adminToken, `mutation { createBoard(id: "Bad Id", name: "B", reset: DAY) { created } }`, "BAD_USER_INPUT"},
		"unknown time zone":     {adminToken, create(`, timeZone: "Mars/Olympus"`), "BAD_USER_INPUT"},
		"min above max":         {adminToken, create(`, minScore: 5, maxScore: 4`), "BAD_USER_INPUT"},
		"ends before it starts": {adminToken, create(`, startsAt: "2026-12-01T00:00:00Z", endsAt: "2026-11-01T00:00:00Z"`), "BAD_USER_INPUT"},
		"a bad time":            {adminToken, create(`, startsAt: "yesterday"`), "BAD_USER_INPUT"},
		"tiers out of order":    {adminToken, create(`, tiers: [{name: "b", topPercent: 10}, {name: "a", topPercent: 1}]`), "BAD_USER_INPUT"},
		"game server creates":   {serverToken, create(``), "FORBIDDEN"},
		"anonymous creates":     {"", create(``), "UNAUTHENTICATED"},
		"unknown board period":  {"", `{ period(board: "nope", key: "all") { key } }`, "NOT_FOUND"},
		"unknown board":         {"", `{ board(id: "nope") { id } }`, "NOT_FOUND"},
		"malformed period":      {"", `{ period(board: "main", key: "2026-W48") { key } }`, "BAD_USER_INPUT"},
		"bad board id read":     {"", `{ board(id: "NOPE") { id } }`, "BAD_USER_INPUT"},
		"boards first 501":      {"", `{ boards(first: 501) { id } }`, "BAD_USER_INPUT"},
		"end an unknown board":  {adminToken, `mutation { endBoard(id: "nope") { id } }`, "NOT_FOUND"},
		"season of a day board": {adminToken, `mutation { createSeason(board: "main", key: "S1", startsAt: "2027-01-01T00:00:00Z", endsAt: "2027-02-01T00:00:00Z") { key } }`, "BAD_USER_INPUT"},
	} {
		t.Run(name, func(t *testing.T) { s.expectError(t, c.token, c.query, nil, c.code) })
	}
	var got struct {
		Boards []boardInfo `json:"boards"`
	}
	s.mustDo(t, "", `{ boards { id } }`, nil, &got)
	if len(got.Boards) != 1 {
		t.Fatalf("bad requests left boards behind: %+v", got.Boards)
	}
}
