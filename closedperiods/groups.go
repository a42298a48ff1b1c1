package closedperiods

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// PeriodGroup answers a group from memory when its closed period is loaded
// or staged and from the source otherwise; a final
// group from the source starts loading its period. From memory, a group of
// n ids costs n lookups in the period's index and a few allocations: no
// round trip to the database.
func (c *Cache) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	m, isMain, err := leaderboard.MainMonth(b, key)
	if err != nil {
		return nil, err
	}
	if isMain {
		if t := c.month(m); t != nil {
			return t.group(playerIDs), nil
		}
	} else if f := c.period(periodKey{b.ID, key}); f != nil {
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

// group returns the standings of those of playerIDs with a rank, best
// first, without neighbours: five allocations, whatever the group's size.
func (t *table) group(playerIDs []string) []leaderboard.Standing {
	ranks := t.ranksOf(playerIDs)
	group, names := make([]leaderboard.Standing, len(ranks)), make([]string, len(ranks))
	for i, rank := range ranks {
		group[i] = leaderboard.Standing{RankEntry: t.entry(rank, &names[i]), Month: t.month, Total: t.players(), Final: !t.closing}
	}
	return group
}

// ranksOf returns the ranks of those of playerIDs with one, best first, as
// leaderboard.GroupRanks with rankOf would, a batch of lookups at a time
// (packed.Table.RanksOf).
func (t *table) ranksOf(playerIDs []string) []int { return t.rows.RanksOf(playerIDs) }
