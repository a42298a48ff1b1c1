package leaderboard

import (
	"context"
	"slices"
)

// DefaultMaxGroup is the most player ids one group read takes
// (groupStandings) unless the service is configured otherwise.
const DefaultMaxGroup = 1000

// GroupService reads the standings of a group of players (a game's friends
// list) in one period of a board. It is a service of its own, beside
// StandingService, so that the stores and fakes that read one standing need
// not know about groups.
type GroupService interface {
	// PeriodGroup returns the standings of those of playerIDs that have one
	// in period key of b, best first (in rank order), each without
	// neighbours, all read from one snapshot of the period; ids without a
	// standing, and every id of a period that does not exist, are left out.
	// EBADINPUT for a key that is not one of b's.
	PeriodGroup(ctx context.Context, b *Board, key string, playerIDs []string) ([]Standing, error)
}

// CheckGroup returns an EBADINPUT error unless playerIDs are 1..most
// distinct, well-formed player ids.
func CheckGroup(playerIDs []string, most int) *Error {
	switch {
	case len(playerIDs) == 0:
		return Errorf(EBADINPUT, "playerIds must name 1..%d players, got none", most)
	case len(playerIDs) > most:
		return Errorf(EBADINPUT, "playerIds must name 1..%d players, got %d", most, len(playerIDs))
	}
	seen := make(map[string]struct{}, len(playerIDs))
	for i, id := range playerIDs {
		if err := CheckPlayerID(id); err != nil {
			return Errorf(EBADINPUT, "playerIds[%d]: %s", i, err.Message)
		}
		if _, dup := seen[id]; dup {
			return Errorf(EBADINPUT, "playerIds names %q twice: name each player once", id)
		}
		seen[id] = struct{}{}
	}
	return nil
}

// SortByRank sorts standings of one period best first. Ranks of one
// snapshot are distinct, so the order is total.
func SortByRank(standings []Standing) {
	slices.SortFunc(standings, func(a, b Standing) int { return a.Rank - b.Rank })
}
