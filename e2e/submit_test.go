package e2e_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// checkResult compares one ScoreResult with the wanted status, score and
// rank; a negative score or rank means null.
func checkResult(t *testing.T, r scoreResult, status string, score, rank int) {
	t.Helper()
	if r.Status != status || intOr(r.Score, -1) != score || intOr(r.Rank, -1) != rank {
		t.Errorf("event %s: got %s score %s rank %s, want %s score %d rank %d (error %s)",
			r.EventID, r.Status, fmtInt(r.Score), fmtInt(r.Rank), status, score, rank, strOr(r.Error, "null"))
	}
	if status != "REJECTED" && (r.Error != nil || r.Code != nil) {
		t.Errorf("event %s is %s but carries error %q code %q", r.EventID, r.Status, strOr(r.Error, ""), strOr(r.Code, ""))
	}
}

// checkRejected checks that r is REJECTED with the given code, no score or
// rank, and an error message that contains each of the given fragments.
func checkRejected(t *testing.T, r scoreResult, code string, fragments ...string) {
	t.Helper()
	if r.Status != "REJECTED" || r.Score != nil || r.Rank != nil {
		t.Errorf("event %s: got %s score %s rank %s, want REJECTED without score or rank",
			r.EventID, r.Status, fmtInt(r.Score), fmtInt(r.Rank))
	}
	if strOr(r.Code, "") != code {
		t.Errorf("event %s: code %q, want %q", r.EventID, strOr(r.Code, "null"), code)
	}
	for _, f := range fragments {
		if !strings.Contains(strOr(r.Error, ""), f) {
			t.Errorf("event %s: error %q does not mention %q", r.EventID, strOr(r.Error, "null"), f)
		}
	}
}

// intOr returns *p, or def for nil.
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// strOr returns *p, or def for nil.
func strOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// fmtInt prints *p, or null.
func fmtInt(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// mustStanding returns the public standing of playerID in month and fails
// the test when it is null.
func (s *server) mustStanding(t *testing.T, month, playerID string) *standing {
	t.Helper()
	st := s.standing(t, month, playerID)
	if st == nil {
		t.Fatalf("player %s has no standing in %s", playerID, month)
	}
	return st
}

func TestSubmit_StatusesScoresAndLiveRanksCallByCall(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	steps := []struct {
		event        scoreEvent
		status       string
		score, rank  int
		reachedAtIdx int // the clock tick of the player's reachedAt after the event
	}{
		{ev("a1", "alice", "ADD", 100, c.at(10)), "APPLIED", 100, 1, 10},
		{ev("b1", "bob", "SET", 300, c.at(11)), "APPLIED", 300, 1, 11},
		// A retry of an applied event is applied once, whenever it comes.
		{ev("a1", "alice", "ADD", 100, c.at(12)), "DUPLICATE", 100, 2, 10},
		{ev("a2", "alice", "ADD", 0, c.at(13)), "UNCHANGED", 100, 2, 10},
		{ev("a3", "alice", "BEST", 50, c.at(14)), "UNCHANGED", 100, 2, 10},
		{ev("a4", "alice", "SET", 100, c.at(15)), "UNCHANGED", 100, 2, 10},
		{ev("a5", "alice", "BEST", 400, c.at(16)), "APPLIED", 400, 1, 16},
		{ev("b2", "bob", "ADD", 150, c.at(17)), "APPLIED", 450, 1, 17},
		{ev("a6", "alice", "ADD", -50, c.at(18)), "APPLIED", 350, 2, 18},
		{ev("a7", "alice", "SET", 0, c.at(19)), "APPLIED", 0, 2, 19},
		// A player's first event is APPLIED even when its total is 0.
		{ev("c1", "carol", "BEST", 0, c.at(20)), "APPLIED", 0, 3, 20},
		{ev("d1", "dave", "ADD", 0, c.at(21)), "APPLIED", 0, 4, 21},
		{ev("b3", "bob", "SET", 10000, c.at(22)), "APPLIED", 10000, 1, 22},
		{ev("c2", "carol", "SET", 10000, c.at(23)), "APPLIED", 10000, 2, 23},
	}
	for _, step := range steps {
		r := s.submit(t, step.event)[0]
		checkResult(t, r, step.status, step.score, step.rank)
		if strOr(r.Month, "") != c.month {
			t.Errorf("event %s: month %s, want %s", r.EventID, strOr(r.Month, "null"), c.month)
		}
		st := s.mustStanding(t, c.month, step.event.PlayerID)
		if st.Score != step.score || st.Rank != step.rank || !st.ReachedAt.Equal(*c.at(step.reachedAtIdx)) {
			t.Errorf("after %s: standing of %s is score %d rank %d reached %s, want %d, %d, %s", step.event.EventID,
				step.event.PlayerID, st.Score, st.Rank, st.ReachedAt, step.score, step.rank, c.at(step.reachedAtIdx))
		}
	}
	// An event id reused for another event is refused, saying so.
	checkRejected(t, s.submit(t, ev("a1", "alice", "ADD", 9999, c.at(24)))[0], "BAD_USER_INPUT", "used before")
	if st := s.mustStanding(t, c.month, "alice"); st.Total != 4 || st.Final {
		t.Errorf("alice: total %d final %t, want 4 players, not final", st.Total, st.Final)
	}
}

func TestSubmit_BatchAppliesInOrderEachEventOnItsOwn(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	results := s.submit(t,
		ev("f1", "frank", "SET", 9000, c.at(1)),
		ev("f2", "frank", "ADD", 2000, c.at(2)), // 11000: out of range, frank stays at 9000
		ev("f3", "frank", "ADD", 500, c.at(3)),
		ev("e1", "erin", "ADD", 5, c.at(4)),
		ev("e1", "erin", "ADD", 5, c.at(5)), // the same event id again in the same call
		ev("e2", "erin", "SET", 5, c.at(6)),
		ev("f4", "frank", "BEST", 9400, c.at(7)),
	)
	checkResult(t, results[0], "APPLIED", 9000, 1)
	checkRejected(t, results[1], "BAD_USER_INPUT", "0..10000")
	checkResult(t, results[2], "APPLIED", 9500, 1)
	checkResult(t, results[3], "APPLIED", 5, 2)
	checkResult(t, results[4], "DUPLICATE", 5, 2)
	checkResult(t, results[5], "UNCHANGED", 5, 2)
	checkResult(t, results[6], "UNCHANGED", 9500, 1)

	if st := s.mustStanding(t, c.month, "frank"); st.Score != 9500 || !st.ReachedAt.Equal(*c.at(3)) {
		t.Errorf("frank: score %d reached %s, want 9500 reached %s", st.Score, st.ReachedAt, c.at(3))
	}
	if st := s.mustStanding(t, c.month, "erin"); st.Score != 5 || !st.ReachedAt.Equal(*c.at(4)) {
		t.Errorf("erin: score %d reached %s, want 5 reached %s", st.Score, st.ReachedAt, c.at(4))
	}
	// The rejected event was not recorded: sent again within range, it applies.
	r := s.submit(t, ev("f2", "frank", "SET", 100, c.at(8)))[0]
	checkResult(t, r, "APPLIED", 100, 1)
}

func TestSubmit_ReachedAtFollowsChangesAndNeverMovesBackwards(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	steps := []struct {
		event     scoreEvent
		status    string
		score     int
		reachedAt int
	}{
		{ev("1", "p", "SET", 100, c.at(50)), "APPLIED", 100, 50},
		{ev("2", "p", "ADD", 10, c.at(40)), "APPLIED", 110, 50}, // late: reachedAt stays
		{ev("3", "p", "ADD", 0, c.at(60)), "UNCHANGED", 110, 50},
		{ev("4", "p", "BEST", 90, c.at(61)), "UNCHANGED", 110, 50},
		{ev("5", "p", "ADD", 1, c.at(70)), "APPLIED", 111, 70},
		{ev("6", "p", "SET", 5, c.at(71)), "APPLIED", 5, 71},
	}
	for _, step := range steps {
		r := s.submit(t, step.event)[0]
		checkResult(t, r, step.status, step.score, 1)
		st := s.mustStanding(t, c.month, "p")
		if st.Score != step.score || !st.ReachedAt.Equal(*c.at(step.reachedAt)) {
			t.Errorf("after event %s: score %d reached %s, want %d reached %s",
				step.event.EventID, st.Score, st.ReachedAt, step.score, c.at(step.reachedAt))
		}
	}
}

func TestSubmit_OccurredAtDefaultsToServerTime(t *testing.T) {
	s := startServer(t)
	before := time.Now()
	r := s.submit(t, ev("now", "p", "SET", 42, nil))[0]
	after := time.Now()
	checkResult(t, r, "APPLIED", 42, 1)
	month := strOr(r.Month, "")
	if month != before.UTC().Format("2006-01") && month != after.UTC().Format("2006-01") {
		t.Fatalf("month %q, want the current month", month)
	}
	st := s.mustStanding(t, month, "p")
	if st.ReachedAt.Before(before.Truncate(time.Microsecond)) || st.ReachedAt.After(after) {
		t.Errorf("reachedAt %s, want the time of the call, between %s and %s", st.ReachedAt, before, after)
	}
}

func TestSubmit_PlayerNameStoredAndUpdated(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	nameOf := func(id string) string {
		t.Helper()
		return strOr(s.mustStanding(t, c.month, id).Player.Name, "<null>")
	}
	s.submit(t, named(ev("1", "p", "ADD", 1, c.at(1)), "Alice"), ev("2", "q", "ADD", 1, c.at(1)))
	if got := nameOf("p"); got != "Alice" {
		t.Errorf("name %q, want Alice", got)
	}
	if got := nameOf("q"); got != "<null>" {
		t.Errorf("player without a name: name %q, want null", got)
	}
	s.submit(t, named(ev("3", "p", "ADD", 1, c.at(2)), "Alice the Great"))
	if got := nameOf("p"); got != "Alice the Great" {
		t.Errorf("name %q, want the updated Alice the Great", got)
	}
	// An event without a name keeps the stored one.
	s.submit(t, ev("4", "p", "ADD", 1, c.at(3)))
	if got := nameOf("p"); got != "Alice the Great" {
		t.Errorf("after an event without a name: name %q, want Alice the Great", got)
	}
}

func TestRanking_TiesGoToEarlierTimeThenToEarlierArrival(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	// Arrival order z, y (one call), then x and t (next call); player ids run
	// against arrival so that an order by id would show.
	s.submit(t, ev("z", "z", "SET", 500, c.at(100)), ev("y", "y", "SET", 500, c.at(100)))
	s.submit(t,
		ev("x", "x", "SET", 500, c.at(100)),
		ev("t1", "t", "ADD", 250, c.at(50)),
		ev("t2", "t", "ADD", 250, c.at(100)), // t reaches 500 at tick 100 after x
	)
	// Arriving last, w reached 500 earlier than anyone; v scores higher.
	s.submit(t, ev("w", "w", "SET", 500, c.at(99)))
	s.submit(t, ev("u", "u", "SET", 400, c.at(1)))
	results := s.submit(t, ev("v", "v", "SET", 600, c.at(200)))
	checkResult(t, results[0], "APPLIED", 600, 1)

	checkOrder(t, s.table(t, c.month), "v", "w", "z", "y", "x", "t", "u")

	// y drops and reaches 500 again at the same instant: it arrived last now.
	results = s.submit(t, ev("y2", "y", "SET", 400, c.at(100)), ev("y3", "y", "SET", 500, c.at(100)))
	checkResult(t, results[1], "APPLIED", 500, 6)
	checkOrder(t, s.table(t, c.month), "v", "w", "z", "x", "t", "y", "u")
	for rank, id := range []string{"v", "w", "z", "x", "t", "y", "u"} {
		if st := s.mustStanding(t, c.month, id); st.Rank != rank+1 {
			t.Errorf("standing of %s: rank %d, want %d", id, st.Rank, rank+1)
		}
	}
}

// table returns month's whole table, read page by page.
func (s *server) table(t *testing.T, month string) []rankEntry {
	t.Helper()
	var (
		entries []rankEntry
		after   *string
	)
	for {
		page := s.leaderboard(t, month, 500, after)
		for _, e := range page.Edges {
			entries = append(entries, e.Node)
		}
		if !page.PageInfo.HasNextPage {
			return entries
		}
		after = page.PageInfo.EndCursor
	}
}

// checkOrder checks that entries hold the players ids in this order, ranked
// 1, 2, 3...
func checkOrder(t *testing.T, entries []rankEntry, ids ...string) {
	t.Helper()
	got := make([]string, len(entries))
	for i, e := range entries {
		got[i] = e.Player.ID
		if e.Rank != i+1 {
			t.Errorf("entry %d (%s) has rank %d, want %d", i, e.Player.ID, e.Rank, i+1)
		}
	}
	if !slices.Equal(got, ids) {
		t.Errorf("table order %q, want %q", got, ids)
	}
}
