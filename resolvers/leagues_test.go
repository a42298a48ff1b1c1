package resolvers

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/loaders"
)

// leagueHandler is r's handler behind the request's loaders, as the server
// wires it.
func leagueHandler(r *Resolver) http.Handler {
	sources := loaders.Sources{Ranks: echoStore{}, Boards: r.BoardService, Cohorts: r.CohortService}
	return loaders.Middleware(sources)(NewHandler(r, HandlerOptions{}))
}

// closedCohorts answers every player's cohort as a CLOSED period's: its
// next league is set, as it is once the close has committed.
type closedCohorts struct {
	leaderboard.CohortService
}

func (closedCohorts) CohortsOf(_ context.Context, _ *leaderboard.Board, _ string, players []string) (map[string]*leaderboard.CohortRef, error) {
	refs := map[string]*leaderboard.CohortRef{}
	for _, p := range players {
		refs[p] = &leaderboard.CohortRef{ID: "1-1", League: new("bronze"), Rank: 1, Size: 3, NextLeague: new("silver")}
	}
	return refs, nil
}

// A standing's cohort is read after the standing: a standing (or a group)
// read before its period's close committed, whose cohort is read after it,
// must not say a next league while it says final: false. nextLeague is set
// once the period is CLOSED, and a group's standings come from one snapshot.
func TestStandingCohort_NextLeagueOnlyOnAFinalStanding(t *testing.T) {
	for _, final := range []bool{false, true} {
		standing := testBoardStanding(false)
		standing.Final = final
		boards := leagueBoards(standing)
		r := &Resolver{BoardService: boards, PeriodService: boards, StandingService: boards,
			CohortService: closedCohorts{}, Logger: slog.New(slog.DiscardHandler)}
		status, body := answer(t, leagueHandler(r), "",
			`{ standing(board: "league", playerId: "p-a") { final cohort { id nextLeague } } }`, nil)
		want := `"nextLeague":null`
		if final {
			want = `"nextLeague":"silver"`
		}
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("final %v: %d %s, want %s", final, status, body, want)
		}
	}
}

// leagueBoards is testBoards with "league", a DAY board with cohorts of 3
// in two leagues, whose current period is 2026-11-19.
func leagueBoards(standing *leaderboard.Standing) boardStore {
	boards := testBoards(standing, nil)
	boards.boards["league"] = &leaderboard.Board{ID: "league", Reset: leaderboard.ResetDay,
		Order: leaderboard.OrderDesc, Location: time.UTC, MaxScore: 10000, CohortSize: new(3),
		StartsAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Leagues:  []leaderboard.League{{Name: "bronze", Promote: 1}, {Name: "silver", Demote: 1}}}
	boards.current["league"] = "2026-11-19"
	return boards
}

// leagueGroup ranks a group in the order of its ids, on the board and
// period asked.
type leagueGroup struct{}

func (leagueGroup) PeriodGroup(_ context.Context, b *leaderboard.Board, key string, ids []string) ([]leaderboard.Standing, error) {
	group := make([]leaderboard.Standing, len(ids))
	for i, id := range ids {
		group[i] = leaderboard.Standing{Board: b.ID, Period: key, Total: len(ids),
			RankEntry: leaderboard.RankEntry{Rank: i + 1, Player: leaderboard.Player{ID: id}}}
	}
	return group, nil
}

// countedCohorts is closedCohorts counting its calls.
type countedCohorts struct {
	closedCohorts
	calls atomic.Int32
}

func (c *countedCohorts) CohortsOf(ctx context.Context, b *leaderboard.Board, key string, players []string) (map[string]*leaderboard.CohortRef, error) {
	c.calls.Add(1)
	return c.closedCohorts.CohortsOf(ctx, b, key, players)
}

// The cohorts of a group's standings are read together: a friends screen
// of 1,000 on a league board is a few reads of its cohorts, not 1,000.
func TestGroupStandings_CohortsAreReadInOneCall(t *testing.T) {
	boards := leagueBoards(nil)
	cohorts := &countedCohorts{}
	r := &Resolver{BoardService: boards, PeriodService: boards, GroupService: leagueGroup{},
		CohortService: cohorts, Logger: slog.New(slog.DiscardHandler)}
	status, body := answer(t, leagueHandler(r), "",
		`query($ids: [ID!]!) { groupStandings(board: "league", playerIds: $ids) { standing { cohort { id } } } }`,
		map[string]any{"ids": ids(1000)})
	if status != 200 || strings.Count(body, `"cohort":{"id":"1-1"}`) != 1000 {
		t.Fatalf("%d %.300s", status, body)
	}
	// Each read takes the standings that arrive within the loader's wait
	// (a few on a loaded machine); one a standing would be 1,000.
	if n := cohorts.calls.Load(); n > 100 {
		t.Errorf("%d reads of the cohorts for 1,000 standings", n)
	}
}
