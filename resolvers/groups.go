package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/gamebackend/leaderboard"
)

// maxGroup is the most ids one groupStandings takes.
func (r *Resolver) maxGroup() int {
	if r.MaxGroup > 0 {
		return r.MaxGroup
	}
	return leaderboard.DefaultMaxGroup
}

// groupWithoutNeighbours returns an EBADINPUT error when the groupStandings
// being resolved selects standing.neighbours with any neighbour: a group's
// standings are read without them (up to 1,000 windows of 101 rows would
// cost a hundred times the group), and an empty list would say, wrongly,
// that no one ranks around the player.
func groupWithoutNeighbours(ctx context.Context) error {
	opCtx := graphql.GetOperationContext(ctx)
	for _, g := range graphql.CollectFieldsCtx(ctx, []string{"GroupStanding"}) {
		if g.Name != "standing" {
			continue
		}
		for _, f := range graphql.CollectFields(opCtx, g.Selections, []string{"Standing"}) {
			if f.Name != "neighbours" {
				continue
			}
			args := f.ArgumentMap(opCtx.Variables)
			if clampedCount(args["above"]) > 0 || clampedCount(args["below"]) > 0 {
				return leaderboard.Errorf(leaderboard.EBADINPUT,
					"groupStandings reads no neighbours: select standing.neighbours(above: 0, below: 0) or not at all, and ask standing(playerId) for one player's neighbours")
			}
		}
	}
	return nil
}
