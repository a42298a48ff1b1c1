// Package resolvers holds the hand-written GraphQL resolvers: they parse and
// check arguments, authorize, call the domain services and shape the answer.
// They build no SQL. NewHandler wires them into a gqlgen handler.
package resolvers

import (
	"log/slog"

	"github.com/gamebackend/leaderboard"
)

// Resolver holds the services the resolvers call.
type Resolver struct {
	// StandingService reads the standings and tables of every board's
	// periods, main's months included.
	StandingService leaderboard.StandingService
	// GroupService reads the standings of a group of players in a period
	// (groupStandings); MaxGroup bounds its ids (0:
	// leaderboard.DefaultMaxGroup).
	GroupService      leaderboard.GroupService
	MaxGroup          int
	Closer            leaderboard.Closer
	CorrectionService leaderboard.CorrectionService
	ScoreService      leaderboard.ScoreService
	BoardService      leaderboard.BoardService
	PeriodService     leaderboard.PeriodService
	// RewardService claims rewards and lists the unclaimed ones.
	RewardService leaderboard.RewardService
	// ErasureService erases players (erasePlayer).
	ErasureService leaderboard.ErasureService
	// CohortService reads the cohorts of league boards; without one, no
	// standing has a cohort (resolver tests of other fields).
	CohortService leaderboard.CohortService
	Logger        *slog.Logger
	// Observer is told what the API did, for metrics.
	Observer Observer
}
