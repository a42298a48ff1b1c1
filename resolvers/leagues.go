package resolvers

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// standingTier returns s's tier as it was read, except on a board with
// cohorts, where tiers apply within the cohort: a final standing's tier is
// then the board's tier of its rank among its cohort's members.
func (r *Resolver) standingTier(ctx context.Context, s *leaderboard.Standing) (*string, error) {
	id := standingBoard(s)
	if !s.Final || id == leaderboard.MainBoard || r.CohortService == nil {
		return s.Tier, nil
	}
	b, err := r.BoardService.Board(ctx, id)
	if err != nil || b == nil || !b.HasCohorts() {
		return s.Tier, err
	}
	c, err := r.CohortService.CohortOf(ctx, b, standingPeriod(s), s.Player.ID)
	if err != nil || c == nil {
		return nil, err
	}
	return b.TierOf(c.Rank, c.Size), nil
}
