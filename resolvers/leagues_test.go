package resolvers

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// closedCohorts answers every player's cohort as a CLOSED period's: its
// next league is set, as it is once the close has committed.
type closedCohorts struct {
	leaderboard.CohortService
}

func (closedCohorts) CohortOf(context.Context, *leaderboard.Board, string, string) (*leaderboard.CohortRef, error) {
	return &leaderboard.CohortRef{ID: "1-1", League: new("bronze"), Rank: 1, Size: 3, NextLeague: new("silver")}, nil
}

// A standing's cohort is read after the standing: a standing (or a group)
// read before its period's close committed, whose cohort is read after it,
// must not say a next league while it says final: false. nextLeague is set
// once the period is CLOSED, and a group's standings come from one snapshot.
func TestStandingCohort_NextLeagueOnlyOnAFinalStanding(t *testing.T) {
	for _, final := range []bool{false, true} {
		standing := testBoardStanding(false)
		standing.Final = final
		boards := testBoards(standing, nil)
		boards.boards["league"] = &leaderboard.Board{ID: "league", Reset: leaderboard.ResetDay,
			Order: leaderboard.OrderDesc, CohortSize: new(3),
			Leagues: []leaderboard.League{{Name: "bronze", Promote: 1}, {Name: "silver", Demote: 1}}}
		boards.current["league"] = "2026-11-19"
		r := &Resolver{BoardService: boards, PeriodService: boards, StandingService: boards,
			CohortService: closedCohorts{}, Logger: slog.New(slog.DiscardHandler)}
		status, body := answer(t, NewHandler(r, HandlerOptions{}), "",
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
