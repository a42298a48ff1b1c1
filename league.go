package leaderboard

import (
	"context"
	"fmt"
	"slices"
)

// Limits of a board's cohorts and leagues.
const (
	MinCohortSize    = 2    // smallest cohortSize
	MaxCohortSize    = 1000 // largest cohortSize
	MaxLeagues       = 20   // most leagues of a board
	MaxLeagueNameLen = 64   // longest league name, in characters
)

// League is one league of a board's cohorts, the lowest first: at a
// period's close the top Promote of each of its cohorts move up one league
// and the bottom Demote down one, never past the first or last.
type League struct {
	Name    string
	Promote int
	Demote  int
}

// HasCohorts reports whether the board puts its players into cohorts.
func (b *Board) HasCohorts() bool { return b.CohortSize != nil }

// LeagueName returns the name of league index i of b, nil on a board
// without leagues.
func (b *Board) LeagueName(i int) *string {
	if i < 0 || i >= len(b.Leagues) {
		return nil
	}
	return &b.Leagues[i].Name
}

// checkCohorts returns an EBADINPUT error unless b's cohortSize and leagues
// are ones a board may have: a cohortSize of MinCohortSize..MaxCohortSize;
// leagues only with a cohortSize and on a board whose periods close (not
// NONE); named, uniquely, with promote and demote not negative and
// together at most the cohortSize.
func (b *Board) checkCohorts() error {
	if b.CohortSize == nil {
		if len(b.Leagues) > 0 {
			return Errorf(EBADINPUT, "leagues need a cohortSize: the players of a league play in cohorts")
		}
		return nil
	}
	size := *b.CohortSize
	if size < MinCohortSize || size > MaxCohortSize {
		return Errorf(EBADINPUT, "cohortSize must be %d..%d", MinCohortSize, MaxCohortSize)
	}
	if len(b.Leagues) == 0 {
		return nil
	}
	if b.Reset == ResetNone {
		return Errorf(EBADINPUT, "a NONE board cannot have leagues: its one period never closes to promote anyone")
	}
	if len(b.Leagues) > MaxLeagues {
		return Errorf(EBADINPUT, "a board has at most %d leagues", MaxLeagues)
	}
	for i, l := range b.Leagues {
		if err := checkText("league name", l.Name, nameText, 1, MaxLeagueNameLen); err != nil {
			return err
		}
		if slices.ContainsFunc(b.Leagues[:i], func(o League) bool { return o.Name == l.Name }) {
			return Errorf(EBADINPUT, "league %q is named twice", l.Name)
		}
		if l.Promote < 0 || l.Demote < 0 {
			return Errorf(EBADINPUT, "league %q: promote and demote must not be negative", l.Name)
		}
		if l.Promote+l.Demote > size {
			return Errorf(EBADINPUT, "league %q: promote %d + demote %d is more than the cohortSize %d",
				l.Name, l.Promote, l.Demote, size)
		}
	}
	return nil
}

// NextLeague returns the league a player of league leagueIndex of b plays
// next, ranked rank of size in their cohort: one up for the top Promote,
// one down for the bottom Demote (only when the cohort holds at least
// Promote + Demote), never past the first or the last league. A rank of 0
// (not ranked) keeps the league.
func (b *Board) NextLeague(leagueIndex, rank, size int) int {
	if leagueIndex < 0 || leagueIndex >= len(b.Leagues) || rank <= 0 {
		return leagueIndex
	}
	l := b.Leagues[leagueIndex]
	switch {
	case rank <= l.Promote && leagueIndex < len(b.Leagues)-1:
		return leagueIndex + 1
	case size >= l.Promote+l.Demote && rank > size-l.Demote && rank > l.Promote && leagueIndex > 0:
		return leagueIndex - 1
	}
	return leagueIndex
}

// CohortRef is a standing's cohort: its id, league, the player's rank in it
// and its size; NextLeague is the league the player plays next, set once
// the period is CLOSED (nil before, and on a board without leagues).
type CohortRef struct {
	ID         string
	League     *string
	Rank       int
	Size       int
	NextLeague *string
}

// Cohort is one cohort of a board's period, every member best first, each
// RankEntry's Rank the rank in the cohort.
type Cohort struct {
	ID      string
	Board   string
	Period  string
	League  *string
	Size    int
	Members []RankEntry
}

// CohortID returns the id of cohort number n of league index league: the
// league's position (1 the lowest) and the number, as "3-12".
func CohortID(league, n int) string { return fmt.Sprintf("%d-%d", league+1, n) }

// ParseCohortID returns the league index and number a CohortID names; ok
// is false for any other text.
func ParseCohortID(id string) (league, n int, ok bool) {
	var l int
	if c, err := fmt.Sscanf(id, "%d-%d", &l, &n); err != nil || c != 2 || CohortID(l-1, n) != id ||
		l < 1 || l > MaxLeagues || n < 1 {
		return 0, 0, false
	}
	return l - 1, n, true
}

// CohortService reads the cohorts of boards' periods.
type CohortService interface {
	// Cohort returns cohort id of period key of board, members best first,
	// or nil when there is none.
	Cohort(ctx context.Context, board *Board, key, id string) (*Cohort, error)
	// CohortOf returns the cohort of player in period key of board, nil
	// when the player has none (or the board has no cohorts).
	CohortOf(ctx context.Context, board *Board, key, player string) (*CohortRef, error)
	// CohortsOf returns the cohorts of players in period key of board, as
	// CohortOf does for each, by player id; players without one are left
	// out.
	CohortsOf(ctx context.Context, board *Board, key string, players []string) (map[string]*CohortRef, error)
}
