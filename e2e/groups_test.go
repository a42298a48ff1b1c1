package e2e_test

import (
	"fmt"
	"slices"
	"testing"
)

// groupEntry is a GroupStanding.
type groupEntry struct {
	GroupRank int `json:"groupRank"`
	Standing  struct {
		Board  string  `json:"board"`
		Period string  `json:"period"`
		Rank   int     `json:"rank"`
		Score  int     `json:"score"`
		Player player  `json:"player"`
		Total  int     `json:"total"`
		Final  bool    `json:"final"`
		Tier   *string `json:"tier"`
	} `json:"standing"`
}

const groupStandingsQuery = `query($board: ID, $period: String, $ids: [ID!]!) {
	groupStandings(board: $board, period: $period, playerIds: $ids) {
		groupRank standing { board period rank score player { id name } total final tier } } }`

// group reads the group of ids in period of board over HTTP.
func (s *server) group(t *testing.T, board, period string, ids []string) []groupEntry {
	t.Helper()
	var data struct {
		GroupStandings []groupEntry `json:"groupStandings"`
	}
	s.mustDo(t, "", groupStandingsQuery, map[string]any{"board": board, "period": period, "ids": ids}, &data)
	return data.GroupStandings
}

// A game reads a friends board with one call, without a token: the friends
// with a standing ranked among themselves and on the board, those without
// one left out, live while the month is open and final once it is closed
// (then from memory); a board's period likewise; bad input answers
// BAD_USER_INPUT.
func TestGroupStandings_FriendsOverHTTP(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	ranking := seedMonth(t, s, prev)
	// Rank 30, the tie group's players (ranks 12 and 13 among them), the
	// first and the last, and two friends who never played, in no order.
	friendRanks := []int{30, 13, 60, 1, 12}
	ids := []string{"never.played"}
	for _, r := range friendRanks {
		ids = append(ids, ranking[r-1].id)
	}
	ids = append(ids, "also.never")
	slices.Sort(friendRanks)
	check := func(what string, got []groupEntry, final bool) {
		t.Helper()
		if len(got) != len(friendRanks) {
			t.Fatalf("%s: %d entries, want %d: %+v", what, len(got), len(friendRanks), got)
		}
		for i, g := range got {
			want := ranking[friendRanks[i]-1]
			st := g.Standing
			if g.GroupRank != i+1 || st.Rank != friendRanks[i] || st.Player.ID != want.id || strOr(st.Player.Name, "") != want.name ||
				st.Score != want.score || st.Total != len(ranking) || st.Final != final || st.Board != "main" || st.Period != prev.month {
				t.Errorf("%s: entry %d %+v, want groupRank %d rank %d %s score %d of %d, final %t, main %s",
					what, i, g, i+1, friendRanks[i], want.id, want.score, len(ranking), final, prev.month)
			}
		}
	}
	check("open month", s.group(t, "main", prev.month, ids), false)
	s.closeMonth(t, prev.month)
	check("closed month", s.group(t, "main", prev.month, ids), true)

	// A board: lower is better; its current period when none is named.
	s.mustDo(t, adminToken, createLapBoard, map[string]any{"id": "laps"}, nil)
	// At the server's time: the board starts when it is created.
	var events []map[string]any
	for i, lap := range []int{90_000, 61_000, 75_500, 61_000} {
		events = append(events, map[string]any{"board": "laps", "eventId": fmt.Sprint("lap", i),
			"playerId": fmt.Sprint("driver", i), "mode": "BEST", "value": lap})
	}
	var submitted struct {
		SubmitScores []scoreResult `json:"submitScores"`
	}
	s.mustDo(t, serverToken, `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status error } }`,
		map[string]any{"e": events}, &submitted)
	for _, r := range submitted.SubmitScores {
		if r.Status != "APPLIED" {
			t.Fatalf("lap event %s: %s (%s)", r.EventID, r.Status, strOr(r.Error, ""))
		}
	}
	var data struct {
		GroupStandings []groupEntry `json:"groupStandings"`
	}
	s.mustDo(t, "", `query($ids: [ID!]!) { groupStandings(board: "laps", playerIds: $ids) { groupRank standing { rank score player { id } final } } }`,
		map[string]any{"ids": []string{"driver0", "driver3", "nobody", "driver1"}}, &data)
	var got []string
	for _, g := range data.GroupStandings {
		got = append(got, fmt.Sprintf("%d:%d:%s:%d", g.GroupRank, g.Standing.Rank, g.Standing.Player.ID, g.Standing.Score))
	}
	// driver1 reached 61000 before driver3; driver2 (75500) is not a friend.
	if want := []string{"1:1:driver1:61000", "2:2:driver3:61000", "3:4:driver0:90000"}; !slices.Equal(got, want) {
		t.Errorf("lap board's group: %v, want %v", got, want)
	}

	many := make([]string, 1001)
	for i := range many {
		many[i] = fmt.Sprint("p", i)
	}
	for name, ids := range map[string][]string{"1001 ids": many, "a duplicate": {"a", "b", "a"}, "none": {}, "a bad id": {"ok", "bad\u202e"}} {
		if r := s.expectError(t, "", groupStandingsQuery, map[string]any{"board": "main", "period": prev.month, "ids": ids}, "BAD_USER_INPUT"); !r.dataIsNull() {
			t.Errorf("%s: data %s, want null", name, r.Data)
		}
	}
	s.expectError(t, "", groupStandingsQuery, map[string]any{"board": "no.such.board", "ids": []string{"a"}}, "NOT_FOUND")
}
