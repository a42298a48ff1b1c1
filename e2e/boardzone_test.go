package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
)

// createBoard accepts only the IANA names of the zone data the service
// embeds, the same on every host: none of those a host's zoneinfo folder
// also holds.
func TestBoards_TimeZoneMustBeAnIANAName(t *testing.T) {
	s := startServer(t)
	create := `mutation($zone: String!) { createBoard(id: "zoned", name: "Zoned", reset: DAY, timeZone: $zone) { board { timeZone } } }`
	for _, zone := range []string{"localtime", "Factory", "posixrules", "posix/Europe/Berlin", "right/Europe/Berlin",
		"./UTC", "Etc/./UTC", "Europe//Berlin", "Local", "europe/berlin"} {
		r := s.expectError(t, adminToken, create, map[string]any{"zone": zone}, "BAD_USER_INPUT")
		if len(r.Errors) == 1 && !strings.Contains(r.Errors[0].Message, "such as Europe/Berlin") {
			t.Errorf("%q: message %q does not name an example", zone, r.Errors[0].Message)
		}
	}
	var got struct {
		CreateBoard struct{ Board struct{ TimeZone string } } `json:"createBoard"`
	}
	s.mustDo(t, adminToken, create, map[string]any{"zone": "US/Pacific"}, &got)
	if got.CreateBoard.Board.TimeZone != "US/Pacific" {
		t.Errorf("a backward-compatible IANA name: %+v", got)
	}
}

// A board written before zone names were checked, with one the embedded zone
// data does not hold, breaks neither boards, nor other boards, nor the
// scheduler: it is listed, only the fields that need its calendar answer
// CONFLICT, and its due season closes with the others'.
func TestBoards_AStoredZoneThatCannotBeLoaded(t *testing.T) {
	s := startServer(t, func(c *app.Config) { c.AutoClose = true })
	start := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	end := time.Now().UTC().Add(3 * time.Second).Truncate(time.Second).Add(time.Second)
	for _, b := range []struct{ id, reset string }{{"legacy.day", "DAY"}, {"legacy.season", "SEASON"}, {"other.season", "SEASON"}} {
		s.mustDo(t, adminToken, fmt.Sprintf(`mutation($start: Time!) { createBoard(id: %q, name: "B", reset: %s, timeZone: "UTC",
			closeGrace: 0, startsAt: $start) { created } }`, b.id, b.reset), map[string]any{"start": start.Format(time.RFC3339)}, nil)
		if b.reset == "SEASON" {
			s.mustDo(t, adminToken, `mutation($b: ID!, $start: Time!, $end: Time!) { createSeason(board: $b, key: "s1", startsAt: $start, endsAt: $end) { key } }`,
				map[string]any{"b": b.id, "start": start.Format(time.RFC3339), "end": end.Format(time.RFC3339)}, nil)
		}
	}
	if _, err := sqlConn(t).Exec(context.Background(),
		`UPDATE boards SET time_zone = CASE id WHEN 'legacy.day' THEN 'right/Europe/Berlin' ELSE 'posix/UTC' END
		WHERE id LIKE 'legacy.%'`); err != nil {
		t.Fatal(err)
	}

	r := s.do(t, "", `{ boards { id timeZone status current { key } periods { key } } }`, nil)
	want := `{"boards":[{"id":"legacy.day","timeZone":"right/Europe/Berlin","status":"RUNNING","current":null,"periods":[]},` +
		`{"id":"legacy.season","timeZone":"posix/UTC","status":"RUNNING","current":{"key":"s1"},"periods":[{"key":"s1"}]},` +
		`{"id":"main","timeZone":"UTC","status":"RUNNING","current":{"key":"` + currentMonth(t).month + `"},"periods":[]},` +
		`{"id":"other.season","timeZone":"UTC","status":"RUNNING","current":{"key":"s1"},"periods":[{"key":"s1"}]}]}`
	if string(r.Data) != want || !slices.Equal(r.Codes(), []string{"CONFLICT"}) || fmt.Sprint(r.Errors[0].Path) != "[boards 0 current]" ||
		!strings.Contains(r.Errors[0].Message, `board legacy.day keeps the time zone "right/Europe/Berlin"`) {
		t.Fatalf("boards: %s\nwant data %s and one CONFLICT at boards.0.current naming the board and its zone", r.Body, want)
	}
	r = s.do(t, "", `{ board(id: "legacy.day") { id current { key } } }`, nil)
	if string(r.Data) != `{"board":{"id":"legacy.day","current":null}}` || !slices.Equal(r.Codes(), []string{"CONFLICT"}) {
		t.Errorf("board legacy.day: %s", r.Body)
	}

	now := time.Now().UTC().Format(time.RFC3339)
	results := s.submitRaw(t,
		map[string]any{"eventId": "d1", "board": "legacy.day", "playerId": "ann", "mode": "SET", "value": 1, "occurredAt": now},
		map[string]any{"eventId": "s1", "board": "legacy.season", "playerId": "ann", "mode": "SET", "value": 2, "occurredAt": now},
		map[string]any{"eventId": "o1", "board": "other.season", "playerId": "ann", "mode": "SET", "value": 3, "occurredAt": now})
	if r := results[0]; r.Status != "REJECTED" || r.Code == nil || *r.Code != "CONFLICT" {
		t.Errorf("the DAY board's event: %+v, want REJECTED with CONFLICT", r)
	}
	if results[1].Status != "APPLIED" || results[2].Status != "APPLIED" {
		t.Errorf("the seasons' events: %+v, %+v; want APPLIED", results[1], results[2])
	}

	// The scheduler closes both seasons at their end (every 100 ms here).
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got struct {
			Legacy, Other struct{ Status string }
		}
		s.mustDo(t, "", `{ legacy: period(board: "legacy.season", key: "s1") { status }
			other: period(board: "other.season", key: "s1") { status } }`, nil, &got)
		if got.Legacy.Status == "CLOSED" && got.Other.Status == "CLOSED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("seasons %+v 30 s after their end, want both CLOSED", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
