package db

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// Month returns month m of main as the month contract shows it, or nil when
// it never opened.
func (db *DB) Month(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	b, err := db.boardOrNotFound(ctx, leaderboard.MainBoard)
	if err != nil {
		return nil, err
	}
	p, err := db.openedPeriod(ctx, b, m.String())
	if err != nil || p == nil {
		return nil, err
	}
	return p.MonthInfo()
}
