package db_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// leagueBoard is a WEEK board from November 2026 with cohorts of size in
// three leagues: bronze promotes 2, silver promotes 1 and demotes 1, gold
// demotes 1.
func leagueBoard(id string, size int) leaderboard.BoardSpec {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	return leaderboard.BoardSpec{ID: id, Name: "Weekly league", Reset: leaderboard.ResetWeek, TimeZone: new("UTC"),
		CloseGrace: new(0), StartsAt: &start, CohortSize: new(size),
		Tiers: []leaderboard.Tier{{Name: "top", TopPercent: 50}},
		Leagues: []leaderboard.League{{Name: "bronze", Promote: 2}, {Name: "silver", Promote: 1, Demote: 1},
			{Name: "gold", Demote: 1}}}
}

func TestCreateBoard_LeaguesRoundTrip(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	spec := leagueBoard("league", 30)
	created, err := store.CreateBoard(ctx, spec)
	if err != nil || !created.Created {
		t.Fatalf("create: %+v, %v", created, err)
	}
	b, err := store.Board(ctx, "league")
	if err != nil {
		t.Fatal(err)
	}
	if b.CohortSize == nil || *b.CohortSize != 30 || !slices.Equal(b.Leagues, spec.Leagues) {
		t.Fatalf("read back cohortSize %v, leagues %+v", b.CohortSize, b.Leagues)
	}
	if again, err := store.CreateBoard(ctx, spec); err != nil || again.Created {
		t.Fatalf("identical request: %+v, %v", again, err)
	}
	other := leagueBoard("league", 30)
	other.Leagues[1].Demote = 2
	if _, err := store.CreateBoard(ctx, other); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Fatalf("other leagues: %v, want CONFLICT", err)
	}
	plain, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil || plain.CohortSize != nil || plain.Leagues == nil || len(plain.Leagues) != 0 {
		t.Fatalf("main: cohortSize %v, leagues %#v, %v", plain.CohortSize, plain.Leagues, err)
	}
}

func TestCreateBoard_LeaguesErrBadInputWritesNothing(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	for name, edit := range map[string]func(*leaderboard.BoardSpec){
		"cohortSize 1":          func(s *leaderboard.BoardSpec) { s.CohortSize = new(1) },
		"cohortSize 1001":       func(s *leaderboard.BoardSpec) { s.CohortSize = new(1001) },
		"leagues without size":  func(s *leaderboard.BoardSpec) { s.CohortSize = nil },
		"leagues on NONE":       func(s *leaderboard.BoardSpec) { s.Reset = leaderboard.ResetNone },
		"promote+demote > size": func(s *leaderboard.BoardSpec) { s.CohortSize = new(2); s.Leagues[0].Promote = 3 },
		"duplicate names":       func(s *leaderboard.BoardSpec) { s.Leagues[1].Name = "gold" },
	} {
		t.Run(name, func(t *testing.T) {
			s := leagueBoard("bad", 30)
			edit(&s)
			if _, err := store.CreateBoard(ctx, s); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
				t.Fatalf("create: %v, want BAD_USER_INPUT", err)
			}
			if b, err := store.Board(ctx, "bad"); err != nil || b != nil {
				t.Fatalf("the refused board was stored: %+v, %v", b, err)
			}
		})
	}
}
