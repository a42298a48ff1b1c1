package resolvers

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// standing reads a standing with as many neighbours as the query selects.
func (r *Resolver) standing(ctx context.Context, month leaderboard.Month, playerID string) (*leaderboard.Standing, error) {
	above, below := neighbourCounts(ctx)
	return r.StandingService.Standing(ctx, month, playerID, above, below)
}
