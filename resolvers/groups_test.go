package resolvers

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// groupStore answers every group with the standings of its ids that do not
// start with "nobody", ranked by their place in the list, and counts the
// calls that reach it.
type groupStore struct {
	calls atomic.Int32
}

func (s *groupStore) PeriodGroup(_ context.Context, _ *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	s.calls.Add(1)
	month, err := leaderboard.ParseMonth(key)
	if err != nil {
		return nil, err
	}
	var group []leaderboard.Standing
	for i, id := range playerIDs {
		if len(id) >= 6 && id[:6] == "nobody" {
			continue
		}
		group = append(group, leaderboard.Standing{Month: month, Total: 5000,
			RankEntry: leaderboard.RankEntry{Rank: 3 * (i + 1), Score: 9000 - i, Player: leaderboard.Player{ID: id}}})
	}
	return group, nil
}

// groupHandler serves groups from store, with at most maxGroup ids (0: the
// default), as gqlgen writes them.
func groupHandler(store *groupStore, maxGroup int) http.Handler {
	r := &Resolver{GroupService: store, MaxGroup: maxGroup, BoardService: mainBoard, Logger: slog.New(slog.DiscardHandler)}
	return NewHandler(r, HandlerOptions{})
}

// ids returns n distinct player ids.
func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("p", i)
	}
	return out
}

// groupAnswer is a groupStandings answer.
type groupAnswer struct {
	Data struct {
		GroupStandings []struct {
			GroupRank int
			Standing  struct {
				Rank   int
				Player struct{ ID string }
			}
		}
	}
	Errors []struct {
		Message    string
		Extensions struct{ Code string }
	}
}

const groupQuery = `query G($ids: [ID!]!) { groupStandings(month: "2026-11", playerIds: $ids) {
	groupRank standing { month board period rank score reachedAt total final percentile tier subscore metadata player { id name } } } }`

// A group of no id, of more ids than the limit, with an id twice or with a
// malformed id, and a group that asks for neighbours, fail with
// BAD_USER_INPUT before the store is read.
func TestGroupStandings_BadInputIsRefusedBeforeTheRead(t *testing.T) {
	cases := []struct {
		name     string
		maxGroup int
		query    string
		ids      []string
	}{
		{"no id", 0, groupQuery, []string{}},
		{"1001 ids", 0, groupQuery, ids(1001)},
		{"100,000 ids", 0, groupQuery, ids(100_000)},
		{"3 ids over a limit of 2", 2, groupQuery, ids(3)},
		{"an id twice", 0, groupQuery, append(ids(10), "p3")},
		{"an empty id", 0, groupQuery, append(ids(3), "")},
		{"an id with a NUL", 0, groupQuery, append(ids(3), "p\x00")},
		{"an id with a bidi override", 0, groupQuery, append(ids(3), "p\u202e")},
		{"an id over 64 characters", 0, groupQuery, append(ids(3), fmt.Sprintf("%065d", 1))},
		{"neighbours by default", 0, `query G($ids: [ID!]!) { groupStandings(playerIds: $ids, month: "2026-11") { standing { neighbours { rank } } } }`, ids(3)},
		{"neighbours below", 0, `query G($ids: [ID!]!) { groupStandings(playerIds: $ids, month: "2026-11") { standing { ...S } } } fragment S on Standing { neighbours(above: 0, below: 1) { rank } }`, ids(3)},
		{"both period and month", 0, `query G($ids: [ID!]!) { groupStandings(playerIds: $ids, month: "2026-11", period: "2026-11") { groupRank } }`, ids(3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := &groupStore{}
			status, body := answer(t, groupHandler(store, c.maxGroup), "", c.query, map[string]any{"ids": c.ids})
			var out groupAnswer
			if err := json.Unmarshal([]byte(body), &out); err != nil {
				t.Fatalf("%d %s: %v", status, body, err)
			}
			if status != http.StatusOK || len(out.Errors) != 1 || out.Errors[0].Extensions.Code != leaderboard.EBADINPUT ||
				out.Data.GroupStandings != nil {
				t.Errorf("%d %s, want one BAD_USER_INPUT error and no data", status, body)
			}
			if n := store.calls.Load(); n != 0 {
				t.Errorf("the store was read %d times: %s", n, body)
			}
		})
	}
}

// A full group of the default limit, with every field of Standing, is
// within the cost limit; its entries are ranked 1..n among themselves, ids
// without a standing left out. So is a group at a configured limit, and
// neighbours asked for with none on either side.
func TestGroupStandings_RanksTheGroup(t *testing.T) {
	cases := []struct {
		name     string
		maxGroup int
		query    string
		ids      []string
	}{
		{"1000 ids", 0, groupQuery, ids(1000)},
		{"one id", 0, groupQuery, ids(1)},
		{"ids without a standing", 0, groupQuery, []string{"nobody.a", "p1", "nobody.b", "p2"}},
		{"a configured limit", 3, groupQuery, ids(3)},
		{"no neighbours", 0, `query G($ids: [ID!]!) { groupStandings(playerIds: $ids, month: "2026-11") { groupRank standing { rank player { id } neighbours(above: 0, below: 0) { rank } } } }`, ids(5)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := &groupStore{}
			status, body := answer(t, groupHandler(store, c.maxGroup), "", c.query, map[string]any{"ids": c.ids})
			var out groupAnswer
			if err := json.Unmarshal([]byte(body), &out); err != nil || status != http.StatusOK || len(out.Errors) > 0 {
				t.Fatalf("%d %.500s: %v", status, body, err)
			}
			var want []string
			for _, id := range c.ids {
				if id[0] == 'p' {
					want = append(want, id)
				}
			}
			if len(out.Data.GroupStandings) != len(want) {
				t.Fatalf("%d entries, want %d: %.500s", len(out.Data.GroupStandings), len(want), body)
			}
			for i, g := range out.Data.GroupStandings {
				if g.GroupRank != i+1 || g.Standing.Player.ID != want[i] {
					t.Fatalf("entry %d: groupRank %d player %s, want %d %s", i, g.GroupRank, g.Standing.Player.ID, i+1, want[i])
				}
			}
		})
	}
}

// The direct answer of groupStandings (group_json.go) is byte for byte
// gqlgen's, errors included, and a selection it does not write goes to
// gqlgen.
func TestGroupStandings_DirectAnswerIsGqlgens(t *testing.T) {
	queries := []struct {
		name, query string
		ids         []string
	}{
		{"every field", groupQuery, append(ids(30), "nobody")},
		{"aliases and __typename", `query G($ids: [ID!]!) { friends: groupStandings(month: "2026-11", playerIds: $ids) {
			__typename n: groupRank s: standing { __typename r: rank player { __typename id } n: neighbours(above: 0, below: 0) { rank } } } }`, ids(5)},
		{"a literal list", `{ groupStandings(board: "main", period: "2026-11", playerIds: ["a", "nobody", "b"]) { groupRank standing { rank board period } } }`, nil},
		{"a fragment, left to gqlgen", `query G($ids: [ID!]!) { groupStandings(month: "2026-11", playerIds: $ids) { ...E } } fragment E on GroupStanding { groupRank }`, ids(3)},
		{"no id", groupQuery, []string{}},
		{"an id twice", groupQuery, []string{"a", "a"}},
		{"neighbours", `query G($ids: [ID!]!) { groupStandings(month: "2026-11", playerIds: $ids) { standing { neighbours { rank } } } }`, ids(2)},
		{"an unknown board", `query G($ids: [ID!]!) { groupStandings(board: "nope", playerIds: $ids) { groupRank } }`, ids(2)},
	}
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			var vars map[string]any
			if q.ids != nil {
				vars = map[string]any{"ids": q.ids}
			}
			answers := map[bool]string{}
			for _, viaGqlgen := range []bool{false, true} {
				r := &Resolver{GroupService: &groupStore{}, BoardService: mainBoard, Logger: slog.New(slog.DiscardHandler)}
				_, answers[viaGqlgen] = answer(t, NewHandler(r, HandlerOptions{viaGqlgen: viaGqlgen}), "", q.query, vars)
			}
			if answers[false] != answers[true] {
				t.Errorf("direct:\n%.600s\ngqlgen:\n%.600s", answers[false], answers[true])
			}
		})
	}
}
