package boardcache

import (
	"context"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// countingBoards is a board service that counts its reads.
type countingBoards struct {
	leaderboard.BoardService
	boards map[string]*leaderboard.Board
	reads  int
}

func (s *countingBoards) Board(_ context.Context, id string) (*leaderboard.Board, error) {
	s.reads++
	return s.boards[id], nil
}

func (s *countingBoards) EndBoard(_ context.Context, id string, at *time.Time) (*leaderboard.Board, error) {
	ended := *s.boards[id]
	ended.EndsAt = at
	s.boards[id] = &ended
	return &ended, nil
}

func TestCache_KeepsABoardForItsTimeToLive(t *testing.T) {
	store := &countingBoards{boards: map[string]*leaderboard.Board{"laps": {ID: "laps"}}}
	c := New(store, 5*time.Second)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	ctx := context.Background()
	for range 3 {
		if b, err := c.Board(ctx, "laps"); err != nil || b.ID != "laps" {
			t.Fatalf("Board = %+v, %v", b, err)
		}
	}
	if store.reads != 1 {
		t.Fatalf("%d reads of the store for 3 of the cache within its time to live, want 1", store.reads)
	}
	now = now.Add(5 * time.Second)
	if _, err := c.Board(ctx, "laps"); err != nil || store.reads != 2 {
		t.Fatalf("after the time to live: %d reads, %v; want the store read again", store.reads, err)
	}
}

func TestCache_KeepsNoUnknownBoardAndTheEndItSets(t *testing.T) {
	store := &countingBoards{boards: map[string]*leaderboard.Board{"laps": {ID: "laps"}}}
	c := New(store, time.Hour)
	ctx := context.Background()
	for range 2 {
		if b, err := c.Board(ctx, "soon"); err != nil || b != nil {
			t.Fatalf("unknown board: %+v, %v", b, err)
		}
	}
	if store.reads != 2 {
		t.Fatalf("%d reads for 2 of an unknown board, want 2: a board created elsewhere must be seen at once", store.reads)
	}
	store.boards["soon"] = &leaderboard.Board{ID: "soon"}
	if b, _ := c.Board(ctx, "soon"); b == nil {
		t.Fatal("a board created after a miss is not seen")
	}
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	c.Board(ctx, "laps")
	if _, err := c.EndBoard(ctx, "laps", &end); err != nil {
		t.Fatal(err)
	}
	if b, _ := c.Board(ctx, "laps"); b.EndsAt == nil || !b.EndsAt.Equal(end) {
		t.Fatalf("after endBoard the cache answers %+v, want its new end", b)
	}
}
