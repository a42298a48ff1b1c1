// Package snapshot serves the standings of closed months from memory. A
// closed month never changes, so its final ranks are loaded once, in the
// background, after the first read that finds the month closed. Until a
// month is loaded, and for months that do not fit the memory budget, reads go
// to the store's index range scans, which stay the source of truth.
//
// Player names are those of the moment the month was loaded.
package snapshot

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// Source is the store the cache stands in front of.
type Source interface {
	leaderboard.StandingService
	// FinalRanks calls fn with each entry of closed month m's final ranks and
	// its player, in rank order.
	FinalRanks(ctx context.Context, m leaderboard.Month, fn func(leaderboard.RankEntry, leaderboard.Player) error) error
}

// Cache is a leaderboard.StandingService that answers standings of closed
// months from memory once they are loaded. It is safe for concurrent use.
type Cache struct {
	source     Source
	maxPlayers int
	logger     *slog.Logger
	ctx        context.Context
	cancel     context.CancelFunc
	loads      sync.WaitGroup

	mu      sync.RWMutex
	tables  map[leaderboard.Month]*table
	loading map[leaderboard.Month]bool
	held    int // players in tables and in tables being loaded
}

// New returns a Cache in front of source that holds at most maxPlayers
// players across all months.
func New(source Source, maxPlayers int, logger *slog.Logger) *Cache {
	ctx, cancel := context.WithCancel(context.Background())
	return &Cache{
		source: source, maxPlayers: maxPlayers, logger: logger, ctx: ctx, cancel: cancel,
		tables: map[leaderboard.Month]*table{}, loading: map[leaderboard.Month]bool{},
	}
}

// Standing answers from memory when month m is loaded, and from the source
// otherwise; a final standing from the source starts loading its month.
func (c *Cache) Standing(ctx context.Context, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	c.mu.RLock()
	t := c.tables[m]
	c.mu.RUnlock()
	if t != nil {
		return t.standing(playerID, above, below), nil
	}
	s, err := c.source.Standing(ctx, m, playerID, above, below)
	if err == nil && s != nil && s.Final {
		c.startLoad(m, s.Total)
	}
	return s, err
}

// Leaderboard reads pages from the source.
func (c *Cache) Leaderboard(ctx context.Context, m leaderboard.Month, first int, after string) (*leaderboard.LeaderboardPage, error) {
	return c.source.Leaderboard(ctx, m, first, after)
}

// Players returns how many players the loaded months hold.
func (c *Cache) Players() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, t := range c.tables {
		n += t.players()
	}
	return n
}

// Close stops loads in progress and waits for them.
func (c *Cache) Close() {
	c.cancel()
	c.loads.Wait()
}

// startLoad loads month m with its participants in the background, unless it
// is loaded, loading, or over the budget.
func (c *Cache) startLoad(m leaderboard.Month, participants int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables[m] != nil || c.loading[m] {
		return
	}
	if c.held+participants > c.maxPlayers {
		c.loading[m] = true // tried: reads of this month stay on the source
		c.logger.Info("closed month too large for the snapshot budget; it is read from the database",
			"month", m.String(), "participants", participants, "budget", c.maxPlayers, "held", c.held)
		return
	}
	c.loading[m] = true
	c.held += participants
	c.loads.Go(func() {
		start := time.Now()
		t, err := c.load(m, participants)
		c.mu.Lock()
		defer c.mu.Unlock()
		if err != nil {
			delete(c.loading, m) // a later read tries again
			c.held -= participants
			c.logger.Error("load a closed month into memory", "month", m.String(), "err", err)
			return
		}
		c.tables[m] = t
		c.logger.Info("closed month loaded into memory", "month", m.String(), "players", t.players(),
			"took", time.Since(start).Round(time.Millisecond))
	})
}

func (c *Cache) load(m leaderboard.Month, participants int) (*table, error) {
	t := newTable(m, participants)
	err := c.source.FinalRanks(c.ctx, m, func(e leaderboard.RankEntry, p leaderboard.Player) error {
		if e.Rank != t.players()+1 {
			return fmt.Errorf("rank %d follows rank %d", e.Rank, t.players())
		}
		t.add(e, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if t.players() != participants {
		return nil, fmt.Errorf("%d ranks for %d participants", t.players(), participants)
	}
	return t, nil
}
