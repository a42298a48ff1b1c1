package db_test

import (
	"context"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// mainStanding reads playerID's standing in month m of main, as the month
// contract's standing does.
func mainStanding(ctx context.Context, store *db.DB, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	b, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil {
		return nil, err
	}
	return store.PeriodStanding(ctx, b, m.String(), playerID, above, below)
}

// mainLeaderboard reads a page of month m of main, as the month contract's
// leaderboard does.
func mainLeaderboard(ctx context.Context, store *db.DB, m leaderboard.Month, first int, after string) (*leaderboard.Page, error) {
	b, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil {
		return nil, err
	}
	return store.PeriodLeaderboard(ctx, b, m.String(), first, after)
}
