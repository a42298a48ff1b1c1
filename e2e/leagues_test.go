package e2e_test

import (
	"fmt"
	"testing"
)

// createLeagueBoard is a DAY board in UTC with cohorts of $size in three
// leagues.
const createLeagueBoard = `mutation($id: ID!, $size: Int, $leagues: [LeagueInput!], $reset: Reset! = DAY) {
	createBoard(id: $id, name: "Daily league", reset: $reset, timeZone: "UTC", closeGrace: 60,
		startsAt: "2026-01-01T00:00:00Z", tiers: [{name: "top", topPercent: 50}], cohortSize: $size, leagues: $leagues) {
		created board { cohortSize leagues { name promote demote } } } }`

// threeLeagues are bronze, silver and gold: the top 2 of a cohort move up,
// the bottom 1 down.
var threeLeagues = []map[string]any{{"name": "bronze", "promote": 2, "demote": 0},
	{"name": "silver", "promote": 2, "demote": 1}, {"name": "gold", "promote": 0, "demote": 1}}

// cohortRef is a standing's cohort as the tests read it.
type cohortRef struct {
	ID         string  `json:"id"`
	League     *string `json:"league"`
	Rank       int     `json:"rank"`
	Size       int     `json:"size"`
	NextLeague *string `json:"nextLeague"`
}

// cohortTable is a Cohort as the tests read it.
type cohortTable struct {
	ID      string  `json:"id"`
	League  *string `json:"league"`
	Size    int     `json:"size"`
	Members []struct {
		Rank   int `json:"rank"`
		Score  int `json:"score"`
		Player struct {
			ID string `json:"id"`
		} `json:"player"`
	} `json:"members"`
}

// The league screen in two calls: standing { cohort } names the player's
// cohort, cohort(...) lists it; once the period is CLOSED the standing's
// cohort says the league the player plays next.
func TestLeagues_ALeagueScreenInTwoCallsThenTheClose(t *testing.T) {
	s := startServer(t)
	var created struct {
		CreateBoard struct {
			Board struct {
				CohortSize *int             `json:"cohortSize"`
				Leagues    []map[string]any `json:"leagues"`
			} `json:"board"`
		} `json:"createBoard"`
	}
	s.mustDo(t, adminToken, createLeagueBoard, map[string]any{"id": "league", "size": 3, "leagues": threeLeagues}, &created)
	if b := created.CreateBoard.Board; b.CohortSize == nil || *b.CohortSize != 3 || len(b.Leagues) != 3 {
		t.Fatalf("created %+v", b)
	}
	var events []map[string]any
	for i := range 5 {
		events = append(events, map[string]any{"eventId": fmt.Sprintf("e%d", i), "playerId": fmt.Sprintf("p%d", i),
			"mode": "SET", "value": 10 * (i + 1), "board": "league"})
	}
	period := *s.submitRaw(t, events...)[0].Period

	const standing = `query($p: String!, $id: ID!) { standing(board: "league", period: $p, playerId: $id) {
		rank cohort { id league rank size nextLeague } } }`
	const cohort = `query($p: String!, $c: ID!) { cohort(board: "league", period: $p, id: $c) {
		id league size members { rank score player { id } } } }`
	var mine struct {
		Standing struct {
			Rank   int        `json:"rank"`
			Cohort *cohortRef `json:"cohort"`
		} `json:"standing"`
	}
	s.mustDo(t, "", standing, map[string]any{"p": period, "id": "p1"}, &mine)
	if c := mine.Standing.Cohort; mine.Standing.Rank != 4 || c == nil || c.ID != "1-1" || *c.League != "bronze" ||
		c.Rank != 2 || c.Size != 3 || c.NextLeague != nil {
		t.Fatalf("standing of p1: %+v %+v", mine.Standing, c)
	}
	var table struct {
		Cohort *cohortTable `json:"cohort"`
	}
	s.mustDo(t, "", cohort, map[string]any{"p": period, "c": mine.Standing.Cohort.ID}, &table)
	if c := table.Cohort; c == nil || c.Size != 3 || len(c.Members) != 3 || c.Members[0].Player.ID != "p2" ||
		c.Members[1].Player.ID != "p1" || c.Members[2].Rank != 3 {
		t.Fatalf("cohort 1-1: %+v", c)
	}
	s.mustDo(t, "", cohort, map[string]any{"p": period, "c": "3-9"}, &table)
	if table.Cohort != nil {
		t.Fatalf("cohort 3-9: %+v", table.Cohort)
	}

	s.closeBoardPeriod(t, "league", period)
	// Tiers apply within the cohort: p2 is first of 3 (33 %: top) though
	// third of 5 on the board; p3 second of 2 (100 %) though second of 5.
	const final = `query($p: String!, $id: ID!) { standing(board: "league", period: $p, playerId: $id) {
		tier cohort { nextLeague } } }`
	for player, want := range map[string]string{"p2": "silver top", "p1": "silver ", "p0": "bronze ",
		"p4": "silver top", "p3": "silver "} {
		var got struct {
			Standing struct {
				Tier   *string    `json:"tier"`
				Cohort *cohortRef `json:"cohort"`
			} `json:"standing"`
		}
		s.mustDo(t, "", final, map[string]any{"p": period, "id": player}, &got)
		c, tier := got.Standing.Cohort, ""
		if got.Standing.Tier != nil {
			tier = *got.Standing.Tier
		}
		if c == nil || c.NextLeague == nil || *c.NextLeague+" "+tier != want {
			t.Errorf("%s after the close: %+v, tier %q; want %s", player, c, tier, want)
		}
	}
}

// createBoard refuses cohorts and leagues a board may not have with
// BAD_USER_INPUT, and stores nothing.
func TestLeagues_CreateBoardErrBadInput(t *testing.T) {
	s := startServer(t)
	over := []map[string]any{{"name": "bronze", "promote": 2, "demote": 2}}
	twice := []map[string]any{{"name": "a", "promote": 1, "demote": 0}, {"name": "a", "promote": 0, "demote": 1}}
	for name, vars := range map[string]map[string]any{
		"cohortSize 1":            {"size": 1},
		"cohortSize 1001":         {"size": 1001},
		"leagues without size":    {"leagues": threeLeagues},
		"leagues on a NONE board": {"size": 30, "leagues": threeLeagues, "reset": "NONE"},
		"promote+demote > size":   {"size": 3, "leagues": over},
		"a league named twice":    {"size": 3, "leagues": twice},
	} {
		t.Run(name, func(t *testing.T) {
			vars["id"] = "bad"
			s.expectError(t, adminToken, createLeagueBoard, vars, "BAD_USER_INPUT")
		})
	}
	if r := s.do(t, "", `{ board(id: "bad") { id } }`, nil); !r.dataIsNull() {
		t.Fatalf("a refused board was stored: %s", r.Body)
	}
}
