package e2e_test

import (
	"encoding/base64"
	"fmt"
	"testing"
)

// walkLeaderboard reads month's table pages of first entries from the top
// to the end and checks every page against the expected ranking: the rows in
// rank order, total, hasNextPage and endCursor.
func walkLeaderboard(t *testing.T, s *server, month string, first int, ranking []seeded) {
	t.Helper()
	var (
		after   *string
		rank    = 1
		cursors = map[string]bool{}
	)
	for pageNo := 1; ; pageNo++ {
		if pageNo > len(ranking)+1 {
			t.Fatalf("first %d: still paging after %d pages", first, pageNo-1)
		}
		page := s.leaderboard(t, month, first, after)
		what := fmt.Sprintf("%s first %d page %d", month, first, pageNo)
		if page.Total != len(ranking) {
			t.Errorf("%s: total %d, want %d", what, page.Total, len(ranking))
		}
		wantLen := min(first, len(ranking)-rank+1)
		if len(page.Edges) != wantLen {
			t.Fatalf("%s: %d edges, want %d", what, len(page.Edges), wantLen)
		}
		for i, e := range page.Edges {
			checkEntry(t, fmt.Sprintf("%s edge %d", what, i), e.Node, rank, ranking[rank-1])
			if e.Cursor == "" || cursors[e.Cursor] {
				t.Errorf("%s edge %d: cursor %q is empty or repeated", what, i, e.Cursor)
			}
			cursors[e.Cursor] = true
			rank++
		}
		last := rank > len(ranking)
		if page.PageInfo.HasNextPage == last {
			t.Errorf("%s: hasNextPage %t after rank %d of %d", what, page.PageInfo.HasNextPage, rank-1, len(ranking))
		}
		if n := len(page.Edges); n > 0 && (page.PageInfo.EndCursor == nil || *page.PageInfo.EndCursor != page.Edges[n-1].Cursor) {
			t.Errorf("%s: endCursor %v is not the last edge's cursor %q", what, page.PageInfo.EndCursor, page.Edges[n-1].Cursor)
		}
		if last || !page.PageInfo.HasNextPage {
			break
		}
		after = page.PageInfo.EndCursor
	}
	if rank != len(ranking)+1 {
		t.Errorf("%s first %d: the walk ended after rank %d of %d", month, first, rank-1, len(ranking))
	}
}

func TestLeaderboard_CursorPagesWalkWholeTableOpenAndClosed(t *testing.T) {
	s := startServer(t)
	prev, cur := previousMonth(t), currentMonth(t)
	closedRanking := seedMonth(t, s, prev)
	openRanking := seedMonth(t, s, cur)
	s.closeMonth(t, prev.month)

	for _, first := range []int{1, 7, 20, 59, 60, 500} {
		walkLeaderboard(t, s, cur.month, first, openRanking)
		walkLeaderboard(t, s, prev.month, first, closedRanking)
	}

	// first defaults to 100.
	var data struct {
		Leaderboard leaderboardPage `json:"leaderboard"`
	}
	s.mustDo(t, "", `query($m: Month!) { leaderboard(month: $m) { edges { cursor } pageInfo { hasNextPage } total } }`,
		map[string]any{"m": cur.month}, &data)
	if len(data.Leaderboard.Edges) != seedPlayers || data.Leaderboard.PageInfo.HasNextPage || data.Leaderboard.Total != seedPlayers {
		t.Errorf("default page: %d edges, hasNextPage %t, total %d; want all %d on one page",
			len(data.Leaderboard.Edges), data.Leaderboard.PageInfo.HasNextPage, data.Leaderboard.Total, seedPlayers)
	}
}

func TestLeaderboard_OpenMonthCursorSurvivesNewScores(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t,
		ev("1", "a", "SET", 500, cur.at(1)),
		ev("2", "b", "SET", 400, cur.at(1)),
		ev("3", "c", "SET", 300, cur.at(1)),
		ev("4", "d", "SET", 200, cur.at(1)),
	)
	page := s.leaderboard(t, cur.month, 2, nil)
	if len(page.Edges) != 2 {
		t.Fatalf("first page: %d edges, want 2", len(page.Edges))
	}
	checkOrder(t, []rankEntry{page.Edges[0].Node, page.Edges[1].Node}, "a", "b")
	// A new player above the cursor does not repeat b on the next page.
	s.submit(t, ev("5", "e", "SET", 9000, cur.at(2)))
	next := s.leaderboard(t, cur.month, 2, page.PageInfo.EndCursor)
	if len(next.Edges) != 2 || next.Edges[0].Node.Player.ID != "c" || next.Edges[1].Node.Player.ID != "d" ||
		next.PageInfo.HasNextPage || next.Total != 5 {
		t.Errorf("page after b: %+v, want c then d, no next page, total 5", next)
	}
}

func TestLeaderboard_OpenMonthPageRanksAreLive(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t,
		ev("1", "a", "SET", 500, cur.at(1)),
		ev("2", "b", "SET", 400, cur.at(1)),
		ev("3", "c", "SET", 300, cur.at(1)),
		ev("4", "d", "SET", 200, cur.at(1)),
	)
	page := s.leaderboard(t, cur.month, 2, nil)
	// Two players overtake everyone between the pages: c and d are now 5th
	// and 6th, and every answer must say so.
	s.submit(t, ev("5", "e", "SET", 9000, cur.at(2)), ev("6", "f", "SET", 8000, cur.at(2)))
	next := s.leaderboard(t, cur.month, 2, page.PageInfo.EndCursor)
	if len(next.Edges) != 2 {
		t.Fatalf("page after b: %d edges, want 2", len(next.Edges))
	}
	for i, id := range []string{"c", "d"} {
		node := next.Edges[i].Node
		st := s.mustStanding(t, cur.month, id)
		if node.Player.ID != id || node.Rank != 5+i || st.Rank != 5+i {
			t.Errorf("page row %d: %s at rank %d (its standing says rank %d), want %s at live rank %d",
				i, node.Player.ID, node.Rank, st.Rank, id, 5+i)
		}
	}
}

func TestLeaderboard_EmptyMonthHasNoRows(t *testing.T) {
	s := startServer(t)
	page := s.leaderboard(t, currentMonth(t).month, 10, nil)
	if len(page.Edges) != 0 || page.PageInfo.HasNextPage || page.Total != 0 || page.PageInfo.EndCursor != nil {
		t.Errorf("empty month: %+v, want no edges, no next page, total 0, no endCursor", page)
	}
}

func TestLeaderboard_BadFirstOrCursorIsBadUserInput(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "a", "SET", 1, cur.at(1)), ev("2", "b", "SET", 2, cur.at(1)))
	const q = `query($m: Month!, $n: Int, $after: String) {
		leaderboard(month: $m, first: $n, after: $after) { edges { cursor } total } }`
	for _, first := range []int{0, -1, 501} {
		r := s.expectError(t, "", q, map[string]any{"m": cur.month, "n": first}, "BAD_USER_INPUT")
		if !r.dataIsNull() {
			t.Errorf("first %d: data %s, want null", first, r.Data)
		}
	}
	s.mustDo(t, "", q, map[string]any{"m": cur.month, "n": 500}, nil)
	garbage := []string{
		"garbage",
		"!!!",
		base64.RawURLEncoding.EncodeToString([]byte("v1:1:2:3")),
		base64.RawURLEncoding.EncodeToString([]byte("v2:1:2:3:4")),
		base64.RawURLEncoding.EncodeToString([]byte("v1:x:2:3:4")),
		base64.RawURLEncoding.EncodeToString([]byte("v1:-1:2:3:4")),
	}
	for _, after := range garbage {
		s.expectError(t, "", q, map[string]any{"m": cur.month, "n": 10, "after": after}, "BAD_USER_INPUT")
	}
}
