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

func (c *countingRanks) LiveRanks(ctx context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]int, error) {
	c.calls.Add(1)
	c.keys.Add(int64(len(keys)))
	return c.DB.LiveRanks(ctx, keys)
}

// The live ranks of a submit's results, resolved concurrently as gqlgen
// does, are read in one call of the store, main's and another board's
// alike; a player with no score has no rank.
func TestLiveRank_BatchesConcurrentLoadsOfEveryBoard(t *testing.T) {
	store := pg.OpenDB(t)
	ctx := context.Background()
	weekly, err := store.CreateBoard(ctx, leaderboard.BoardSpec{ID: "weekly", Name: "Weekly", Reset: leaderboard.ResetWeek,
		Order: new(leaderboard.OrderAsc), StartsAt: new(time.Now().Add(-time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	occurred := time.Now().Add(-time.Minute)
	const players = 21
	var events []leaderboard.ScoreEvent
	for i := range players {
		for _, board := range []string{"", "weekly"} {
			events = append(events, leaderboard.ScoreEvent{EventID: fmt.Sprint(board, i), PlayerID: fmt.Sprint("p", i),
				Mode: leaderboard.ModeSet, Value: 100 + i, OccurredAt: &occurred, Board: board})
		}
	}
	results, err := store.SubmitScores(ctx, events)
	if err != nil {
		t.Fatal(err)
	}
	month := leaderboard.MonthOf(occurred, time.UTC)
	week := results[1].Period
	if week == "" || results[1].Status != leaderboard.StatusApplied {
		t.Fatalf("the weekly board's result: %+v", results[1])
	}
	counting := &countingRanks{DB: store}
	l := loaders.New(loaders.Sources{Ranks: counting})
	var wg sync.WaitGroup
	for i := range players + 1 { // and one who has no score
		main := leaderboard.PeriodPlayer{Board: leaderboard.MainBoard, Period: month.String(), PlayerID: fmt.Sprint("p", i)}
		board := leaderboard.PeriodPlayer{Board: weekly.Board.ID, Period: week, PlayerID: fmt.Sprint("p", i)}
		// main ranks higher scores first, the weekly board lower ones.
		for key, want := range map[leaderboard.PeriodPlayer]int{main: players - i, board: i + 1} {
			wg.Go(func() {
				rank, err := l.LiveRank(ctx, key)
				switch {
				case err != nil:
					t.Errorf("rank of %+v: %v", key, err)
				case i < players && (rank == nil || *rank != want):
					t.Errorf("rank of %+v: %v, want %d", key, rank, want)
				case i == players && rank != nil:
					t.Errorf("rank of a player with no score: %d", *rank)
				}
			})
		}
	}
	wg.Wait()
	if calls, keys := counting.calls.Load(), counting.keys.Load(); calls != 1 || keys != 2*(players+1) {
		t.Errorf("%d calls for %d keys, want 1 call for %d", calls, keys, 2*(players+1))
	}
}
