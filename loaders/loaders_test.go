package loaders_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
	"github.com/gamebackend/leaderboard/loaders"
)

var pg *pgtest.Postgres

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, &pg)) }

// countingRanks counts the batches that reach the real store.
type countingRanks struct {
	*db.DB
	calls atomic.Int64
	keys  atomic.Int64
}

func (c *countingRanks) LiveRanks(ctx context.Context, keys []leaderboard.PlayerMonth) (map[leaderboard.PlayerMonth]int, error) {
	c.calls.Add(1)
	c.keys.Add(int64(len(keys)))
	return c.DB.LiveRanks(ctx, keys)
}

// The live ranks of a submit's results, resolved concurrently as gqlgen
// does, are read in one batch; a player with no score has no rank.
func TestLiveRank_BatchesConcurrentLoads(t *testing.T) {
	store := pg.OpenDB(t)
	events := make([]leaderboard.ScoreEvent, 21)
	occurred := time.Now().Add(-time.Minute)
	for i := range events {
		events[i] = leaderboard.ScoreEvent{EventID: fmt.Sprint(i), PlayerID: fmt.Sprint("p", i),
			Mode: leaderboard.ModeSet, Value: 100 + i, OccurredAt: &occurred}
	}
	if _, err := store.SubmitScores(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	month := leaderboard.MonthOf(occurred, time.UTC)
	counting := &countingRanks{DB: store}
	l := loaders.New(counting)
	var wg sync.WaitGroup
	for i := range 22 { // 21 players and one who has no score
		wg.Go(func() {
			rank, err := l.LiveRank(context.Background(), leaderboard.PlayerMonth{Month: month, PlayerID: fmt.Sprint("p", i)})
			switch {
			case err != nil:
				t.Errorf("rank of p%d: %v", i, err)
			case i < 21 && (rank == nil || *rank != 21-i):
				t.Errorf("rank of p%d: %v, want %d", i, rank, 21-i)
			case i == 21 && rank != nil:
				t.Errorf("rank of a player with no score: %d", *rank)
			}
		})
	}
	wg.Wait()
	if calls, keys := counting.calls.Load(), counting.keys.Load(); calls != 1 || keys != 22 {
		t.Errorf("%d queries for %d keys, want 1 query for 22", calls, keys)
	}
}
