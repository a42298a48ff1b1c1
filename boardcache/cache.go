// Package boardcache keeps boards in memory for the reads that name them. A
// board's rules never change and its end only ever comes forward (endBoard),
// so a copy a few seconds old answers a read as the database would, but for
// an end brought forward on another instance within that time.
package boardcache

import (
	"context"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// MaxBoards bounds the boards kept: past it the cache starts afresh, which
// costs one read of each board named next.
const MaxBoards = 100_000

// Cache is a leaderboard.BoardService that answers Board from memory for up
// to its time to live; everything else goes to the service it wraps. It is
// safe for concurrent use.
type Cache struct {
	leaderboard.BoardService
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]entry
}

type entry struct {
	board   *leaderboard.Board
	fetched time.Time
}

// New returns a cache in front of boards that keeps each board for ttl.
func New(boards leaderboard.BoardService, ttl time.Duration) *Cache {
	return &Cache{BoardService: boards, ttl: ttl, now: time.Now, entries: map[string]entry{}}
}

// Board returns the board with id, from memory when it was read less than
// the time to live ago. An unknown board is not kept: one created on another
// instance is seen at once.
func (c *Cache) Board(ctx context.Context, id string) (*leaderboard.Board, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[id]
	c.mu.Unlock()
	if ok && now.Sub(e.fetched) < c.ttl {
		return e.board, nil
	}
	b, err := c.BoardService.Board(ctx, id)
	if err == nil && b != nil {
		c.keep(b, now)
	}
	return b, err
}

// EndBoard ends the board and keeps its new end.
func (c *Cache) EndBoard(ctx context.Context, id string, at *time.Time) (*leaderboard.Board, error) {
	b, err := c.BoardService.EndBoard(ctx, id, at)
	if err == nil {
		c.keep(b, c.now())
	}
	return b, err
}

func (c *Cache) keep(b *leaderboard.Board, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= MaxBoards {
		c.entries = map[string]entry{}
	}
	c.entries[b.ID] = entry{board: b, fetched: at}
}
