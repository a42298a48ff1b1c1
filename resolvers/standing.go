package resolvers

import (
	"context"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/loaders"
)

// standing reads a standing with as many neighbours as the query selects,
// and primes the loaders with the players read along.
func (r *Resolver) standing(ctx context.Context, month leaderboard.Month, playerID string) (*leaderboard.Standing, error) {
	above, below := neighbourCounts(ctx)
	s, err := r.StandingService.Standing(ctx, month, playerID, above, below)
	if s != nil {
		loaders.For(ctx).PrimePlayers(s.Players)
	}
	return s, err
}
