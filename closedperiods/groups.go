package closedperiods

import (
	"context"
	"slices"

	"github.com/gamebackend/leaderboard"
)

// PeriodGroup answers a group from memory when its closed period is loaded
// (or staged, for main's month) and from the source otherwise; a final
// group from the source starts loading its period. From memory, a group of
// n ids costs n lookups in the period's index: no round trip to the
// database.
func (c *Cache) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	m, isMain, err := leaderboard.MainMonth(b, key)
	if err != nil {
		return nil, err
	}
	var standing func(playerID string) *leaderboard.Standing
	if isMain {
		if t := c.month(m); t != nil {
			standing = func(playerID string) *leaderboard.Standing { return t.standing(playerID, 0, 0) }
		}
	} else if f := c.period(periodKey{b.ID, key}); f != nil {
		standing = func(playerID string) *leaderboard.Standing { return f.Standing(b, playerID, 0, 0) }
	}
	if standing != nil {
		return groupOf(playerIDs, standing), nil
	}
	group, err := c.source.PeriodGroup(ctx, b, key, playerIDs)
	if err != nil || len(group) == 0 || !group[0].Final {
		return group, err
	}
	if isMain {
		c.startLoad(m, group[0].Total)
	} else {
		c.startPeriodLoad(b, key, group[0].Total)
	}
	return group, nil
}

// month returns main's month m's table, loaded or staged, or nil.
func (c *Cache) month(m leaderboard.Month) *table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if t := c.tables[m]; t != nil {
		return t
	}
	return c.closing[m]
}

// groupOf returns the standings standing gives of playerIDs, best first,
// those without one left out. The standings are sorted by pointer, then
// copied once: a Standing is some 200 bytes.
func groupOf(playerIDs []string, standing func(playerID string) *leaderboard.Standing) []leaderboard.Standing {
	found := make([]*leaderboard.Standing, 0, len(playerIDs))
	for _, id := range playerIDs {
		if s := standing(id); s != nil {
			found = append(found, s)
		}
	}
	slices.SortFunc(found, func(a, b *leaderboard.Standing) int { return a.Rank - b.Rank })
	group := make([]leaderboard.Standing, len(found))
	for i, s := range found {
		group[i] = *s
		group[i].Above, group[i].Below = nil, nil // empty either way: as the database's
	}
	return group
}
