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

// countingPlayers counts the batches that reach the real store.
type countingPlayers struct {
	*db.DB
	calls atomic.Int64
	keys  atomic.Int64
}

func (c *countingPlayers) Players(ctx context.Context, ids []string) (map[string]leaderboard.Player, error) {
	c.calls.Add(1)
	c.keys.Add(int64(len(ids)))
	return c.DB.Players(ctx, ids)
}

// The players of a ±10 window, resolved concurrently as gqlgen does, are read
// with one query.
func TestPlayer_BatchesConcurrentLoads(t *testing.T) {
	store := pg.OpenDB(t)
	name := "Named"
	events := make([]leaderboard.ScoreEvent, 21)
	occurred := time.Now().Add(-time.Minute)
	for i := range events {
		events[i] = leaderboard.ScoreEvent{EventID: fmt.Sprint(i), PlayerID: fmt.Sprint("p", i), PlayerName: &name,
			Mode: leaderboard.ModeSet, Value: i, OccurredAt: &occurred}
	}
	if _, err := store.SubmitScores(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	counting := &countingPlayers{DB: store}
	l := loaders.New(counting, store)
	var wg sync.WaitGroup
	for i := range 22 { // 21 players and one who does not exist
		wg.Go(func() {
			p, err := l.Player(context.Background(), fmt.Sprint("p", i))
			if err != nil || p.ID != fmt.Sprint("p", i) || (i < 21 && (p.Name == nil || *p.Name != name)) {
				t.Errorf("player p%d: %+v, %v", i, p, err)
			}
		})
	}
	wg.Wait()
	if calls, keys := counting.calls.Load(), counting.keys.Load(); calls != 1 || keys != 22 {
		t.Errorf("%d queries for %d keys, want 1 query for 22", calls, keys)
	}
}
