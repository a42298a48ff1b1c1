package closedperiods

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// PeriodGroup answers a group from memory when its closed period is loaded
// or staged and from the source otherwise; a final group from the source starts loading its period. From memory, a group of
// n ids costs n lookups in the period's index and a few allocations: no
// round trip to the database.
func (c *Cache) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	if _, _, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, err
	}
	if f := c.period(periodKey{b.ID, key}); f != nil {
		return f.Group(b, playerIDs), nil
	} else if f := c.staged(periodKey{b.ID, key}); f != nil {
		group := f.Group(b, playerIDs)
		for i := range group {
			notFinal(&group[i])
		}
		return group, nil
	}
	group, err := c.source.PeriodGroup(ctx, b, key, playerIDs)
	if err != nil || len(group) == 0 || !group[0].Final {
		return group, err
	}
	c.startPeriodLoad(b, key, group[0].Total)
	return group, nil
}
