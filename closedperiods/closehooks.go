package closedperiods

import (
	"sync"

	"github.com/gamebackend/leaderboard"
)

// CloseHooks returns the Ranks and Closed hooks of the close jobs this
// instance runs (their Phase is left to the caller): the month's table is
// built from the close's own read of its ranks and names, answers the
// month's reads as soon as it is built, while the close still copies and
// indexes (the month is CLOSING, its scores frozen), and is installed as
// final the moment the close commits. A month over the cache's budget is
// read through and left to the store. Closed records the new version in
// watcher, so that its announcement does not load the month again.
func (c *Cache) CloseHooks(watcher *Watcher) leaderboard.CloseHooks {
	var (
		mu    sync.Mutex
		built = map[leaderboard.Month]*Frozen{}
	)
	ranks := func(month leaderboard.Month, participants int, ranks leaderboard.RankStream) error {
		if participants > c.maxPlayers {
			return ranks(func(leaderboard.RankEntry) error { return nil }, nil)
		}
		f, err := Build(month, participants, ranks)
		if err != nil {
			return err
		}
		mu.Lock()
		built[month] = f
		mu.Unlock()
		if c.Stage(f) {
			c.logger.Info("closing month answered from memory while its close commits", "month", month.String())
		}
		return nil
	}
	closed := func(month leaderboard.Month, version int) {
		mu.Lock()
		f := built[month]
		delete(built, month)
		mu.Unlock()
		if f != nil && c.Install(f, version) {
			c.logger.Info("closed month installed in memory from its close", "month", month.String())
		}
		watcher.Record(leaderboard.MainBoard, month.String(), version)
	}
	return leaderboard.CloseHooks{Ranks: ranks, Closed: closed}
}
