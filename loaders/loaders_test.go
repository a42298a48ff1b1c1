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
	l := loaders.New(loaders.Sources{Ranks: counting, Wait: time.Second})
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

// countingCohorts counts the reads of cohorts that reach the real store.
type countingCohorts struct {
	*db.DB
	calls atomic.Int64
}

func (c *countingCohorts) CohortsOf(ctx context.Context, b *leaderboard.Board, key string, players []string) (map[string]*leaderboard.CohortRef, error) {
	c.calls.Add(1)
	return c.DB.CohortsOf(ctx, b, key, players)
}

// The cohorts of a request's standings, resolved concurrently as gqlgen
// does, are read in one CohortsOf of their period; a player with no score
// has no cohort.
func TestCohort_BatchesConcurrentLoadsOfAPeriod(t *testing.T) {
	store := pg.OpenDB(t)
	ctx := context.Background()
	league, err := store.CreateBoard(ctx, leaderboard.BoardSpec{ID: "league", Name: "League", Reset: leaderboard.ResetWeek,
		StartsAt: new(time.Now().Add(-time.Hour)), CohortSize: new(5),
		Leagues: []leaderboard.League{{Name: "bronze", Promote: 1}, {Name: "silver", Demote: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	occurred := time.Now().Add(-time.Minute)
	const players = 10 // two full cohorts
	var events []leaderboard.ScoreEvent
	for i := range players {
		events = append(events, leaderboard.ScoreEvent{EventID: fmt.Sprint("e", i), PlayerID: fmt.Sprint("p", i),
			Mode: leaderboard.ModeSet, Value: 100 + i, OccurredAt: &occurred, Board: league.Board.ID})
	}
	results, err := store.SubmitScores(ctx, events)
	if err != nil || results[0].Status != leaderboard.StatusApplied {
		t.Fatalf("submit: %+v, %v", results, err)
	}
	counting := &countingCohorts{DB: store}
	l := loaders.New(loaders.Sources{Ranks: store, Boards: store, Cohorts: counting, Wait: time.Second})
	var wg sync.WaitGroup
	for i := range players + 1 { // and one who has no score
		key := leaderboard.PeriodPlayer{Board: league.Board.ID, Period: results[0].Period, PlayerID: fmt.Sprint("p", i)}
		wg.Go(func() {
			ref, err := l.Cohort(ctx, key)
			switch {
			case err != nil:
				t.Errorf("cohort of %+v: %v", key, err)
			case i < players && (ref == nil || ref.ID == "" || ref.Size != 5):
				t.Errorf("cohort of %+v: %+v, want one of 5", key, ref)
			case i == players && ref != nil:
				t.Errorf("cohort of a player with no score: %+v", ref)
			}
		})
	}
	wg.Wait()
	if calls := counting.calls.Load(); calls != 1 {
		t.Errorf("%d reads of the cohorts, want 1", calls)
	}
}
