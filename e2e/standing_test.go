package e2e_test

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// seeded is one player of a seeded month, as the test expects to find it.
type seeded struct {
	id, name  string
	score     int
	reachedAt time.Time
	arrival   int // order in which the player's score was sent
}

// seedPlayers is how many players seedMonth sends.
const seedPlayers = 60

// seedMonth sends one event for each of 60 players into c's month, in three
// calls, with scores and times chosen to make many ties (equal score and
// time within a call and across calls, equal score and different time), and
// returns the players in the
// order the contract ranks them: score high to low, then earlier reachedAt,
// then earlier arrival, computed here by a plain sort.
func seedMonth(t *testing.T, s *server, c clock) []seeded {
	t.Helper()
	modes := []string{"SET", "BEST", "ADD"}
	players := make([]seeded, seedPlayers)
	events := make([]scoreEvent, seedPlayers)
	for k := range seedPlayers {
		// 37 is prime to 60: ids are a permutation that runs against arrival.
		n := k * 37 % seedPlayers
		p := seeded{
			id:        fmt.Sprintf("p%02d", n),
			name:      fmt.Sprintf("Player %02d", n),
			score:     50 * (k * 13 % 29),
			reachedAt: *c.at(k * 7 % 5),
			arrival:   k,
		}
		if k%10 == 3 || k%10 == 4 {
			// 12 players on the same score at the same instant, two in
			// each call: only their arrival orders them.
			p.score, p.reachedAt = 777, *c.at(7)
		}
		players[k] = p
		events[k] = named(ev(c.month+"-"+p.id, p.id, modes[k%3], p.score, &p.reachedAt), p.name)
	}
	for i := 0; i < seedPlayers; i += 20 {
		for _, r := range s.submit(t, events[i:i+20]...) {
			if r.Status != "APPLIED" {
				t.Fatalf("seed event %s: %s (%s)", r.EventID, r.Status, strOr(r.Error, ""))
			}
		}
	}
	slices.SortFunc(players, func(a, b seeded) int {
		return cmp.Or(
			cmp.Compare(b.score, a.score),
			a.reachedAt.Compare(b.reachedAt),
			cmp.Compare(a.arrival, b.arrival),
		)
	})
	return players
}

// checkEntry compares a table row with the player expected at rank.
func checkEntry(t *testing.T, what string, got rankEntry, rank int, want seeded) {
	t.Helper()
	if got.Rank != rank || got.Player.ID != want.id || strOr(got.Player.Name, "") != want.name ||
		got.Score != want.score || !got.ReachedAt.Equal(want.reachedAt) {
		t.Errorf("%s: got rank %d %s (%s) score %d reached %s, want rank %d %s (%s) score %d reached %s",
			what, got.Rank, got.Player.ID, strOr(got.Player.Name, "null"), got.Score, got.ReachedAt,
			rank, want.id, want.name, want.score, want.reachedAt)
	}
}

// checkStanding compares st with the player ranked rank in the expected
// ranking, and its neighbours with the ranks rank-above .. rank+below of it,
// self excluded and clipped at both ends.
func checkStanding(t *testing.T, st *standing, month string, ranking []seeded, rank, above, below int, final bool) {
	t.Helper()
	if st == nil {
		t.Fatalf("standing at rank %d is null", rank)
	}
	want := ranking[rank-1]
	checkEntry(t, "standing", rankEntry{Rank: st.Rank, Score: st.Score, ReachedAt: st.ReachedAt, Player: st.Player}, rank, want)
	if st.Month != month || st.Total != len(ranking) || st.Final != final {
		t.Errorf("standing of %s: month %s total %d final %t, want %s, %d, %t",
			want.id, st.Month, st.Total, st.Final, month, len(ranking), final)
	}
	var ranks []int
	for r := max(1, rank-above); r <= min(len(ranking), rank+below); r++ {
		if r != rank {
			ranks = append(ranks, r)
		}
	}
	if len(st.Neighbours) != len(ranks) {
		got := make([]int, len(st.Neighbours))
		for i, n := range st.Neighbours {
			got[i] = n.Rank
		}
		t.Fatalf("neighbours of rank %d (above %d, below %d): ranks %v, want %v", rank, above, below, got, ranks)
	}
	for i, r := range ranks {
		checkEntry(t, fmt.Sprintf("neighbour %d of rank %d", i, rank), st.Neighbours[i], r, ranking[r-1])
	}
}

// myRank asks for the caller's standing in month with the neighbours
// selection given (such as "neighbours(above: 3)" or "neighbours(above: $a)";
// vars holds the values of $a and $b).
func (s *server) myRank(t *testing.T, token, month, neighbours string, vars map[string]any) *standing {
	t.Helper()
	decl := "$m: Month!"
	for _, v := range []string{"a", "b"} {
		if strings.Contains(neighbours, "$"+v) {
			decl += ", $" + v + ": Int"
		}
	}
	all := map[string]any{"m": month}
	maps.Copy(all, vars)
	var data struct {
		MyRank *standing `json:"myRank"`
	}
	s.mustDo(t, token, `query(`+decl+`) { myRank(month: $m) { `+standingFields+` `+
		neighbours+` { `+rankEntryFields+` } } }`, all, &data)
	return data.MyRank
}

func TestMyRank_ClosedMonthNeighboursAtTopMiddleBottom(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	ranking := seedMonth(t, s, prev)
	s.closeMonth(t, prev.month)

	for _, rank := range []int{1, 2, 11, 12, 30, 49, 50, 55, 59, 60} {
		token := playerToken(t, ranking[rank-1].id)
		st := s.myRank(t, token, prev.month, "neighbours", nil)
		checkStanding(t, st, prev.month, ranking, rank, 10, 10, true)
	}
}

func TestMyRank_CustomNeighbourCounts(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	ranking := seedMonth(t, s, prev)
	s.closeMonth(t, prev.month)
	token := playerToken(t, ranking[29].id) // rank 30

	tests := []struct {
		selection    string
		vars         map[string]any
		above, below int
	}{
		{"neighbours(above: 3, below: 0)", nil, 3, 0},
		{"neighbours(above: 0, below: 4)", nil, 0, 4},
		{"neighbours(above: 0, below: 0)", nil, 0, 0},
		{"neighbours(above: 50, below: 50)", nil, 50, 50},
		{"neighbours(below: 25)", nil, 10, 25},
		{"neighbours(above: $a, below: $b)", map[string]any{"a": 15, "b": 12}, 15, 12},
		{"neighbours(above: $a, below: $b)", map[string]any{"a": 29}, 29, 10},
	}
	for _, tt := range tests {
		st := s.myRank(t, token, prev.month, tt.selection, tt.vars)
		checkStanding(t, st, prev.month, ranking, 30, tt.above, tt.below, true)
	}

	// Two selections of neighbours in one query come from one read that
	// serves both.
	var data struct {
		MyRank struct {
			Rank  int         `json:"rank"`
			Near  []rankEntry `json:"near"`
			Above []rankEntry `json:"above"`
		} `json:"myRank"`
	}
	s.mustDo(t, token, `query($m: Month!) { myRank(month: $m) { rank
		near: neighbours(above: 1, below: 1) { `+rankEntryFields+` }
		above: neighbours(above: 20, below: 0) { `+rankEntryFields+` } } }`, map[string]any{"m": prev.month}, &data)
	if len(data.MyRank.Near) != 2 || len(data.MyRank.Above) != 20 {
		t.Fatalf("aliased neighbours: %d and %d entries, want 2 and 20", len(data.MyRank.Near), len(data.MyRank.Above))
	}
	checkEntry(t, "near[0]", data.MyRank.Near[0], 29, ranking[28])
	checkEntry(t, "near[1]", data.MyRank.Near[1], 31, ranking[30])
	for i, e := range data.MyRank.Above {
		checkEntry(t, fmt.Sprintf("above[%d]", i), e, 10+i, ranking[9+i])
	}
}

func TestStanding_PublicMatchesMyRankAndIsNullWithoutScore(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	ranking := seedMonth(t, s, prev)
	s.closeMonth(t, prev.month)

	for _, rank := range []int{1, 17, 60} {
		st := s.mustStanding(t, prev.month, ranking[rank-1].id)
		checkStanding(t, st, prev.month, ranking, rank, 10, 10, true)
		mine := s.myRank(t, playerToken(t, ranking[rank-1].id), prev.month, "neighbours", nil)
		if !reflect.DeepEqual(mine, st) {
			t.Errorf("rank %d: myRank %+v differs from standing %+v", rank, mine, st)
		}
	}
	if st := s.standing(t, prev.month, "nobody"); st != nil {
		t.Errorf("standing of a player without a score: %+v, want null", st)
	}
	if st := s.myRank(t, playerToken(t, "nobody"), prev.month, "neighbours", nil); st != nil {
		t.Errorf("myRank of a player without a score: %+v, want null", st)
	}
	cur := currentMonth(t)
	if st := s.standing(t, cur.month, ranking[0].id); st != nil {
		t.Errorf("standing in a month without scores: %+v, want null", st)
	}
	if st := s.myRank(t, playerToken(t, ranking[0].id), cur.month, "neighbours", nil); st != nil {
		t.Errorf("myRank in a month without scores: %+v, want null", st)
	}
}

func TestStanding_OpenMonthIsLiveAndNotFinal(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	ranking := seedMonth(t, s, cur)

	for _, rank := range []int{1, 2, 30, 31, 55, 60} {
		st := s.mustStanding(t, cur.month, ranking[rank-1].id)
		checkStanding(t, st, cur.month, ranking, rank, 10, 10, false)
	}
	st := s.myRank(t, playerToken(t, ranking[29].id), cur.month, "neighbours(above: 50, below: 50)", nil)
	checkStanding(t, st, cur.month, ranking, 30, 50, 50, false)
	st = s.myRank(t, playerToken(t, ranking[29].id), cur.month, "neighbours(above: $a, below: $b)",
		map[string]any{"a": 13, "b": 0})
	checkStanding(t, st, cur.month, ranking, 30, 13, 0, false)
}
