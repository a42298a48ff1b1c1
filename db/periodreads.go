package db

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// The reads of a period, on any board, main included. Main's pages keep the
// month contract's cursors (monthLeaderboard), so a cursor a client holds
// decodes as it did.

// PeriodStanding returns playerID's standing in period key of b with up to
// above and below neighbours, read from one snapshot, or nil when the player
// has no score there. EBADINPUT when key is not a month of main.
func (db *DB) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	if _, _, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, err
	}
	return db.boardStanding(ctx, b, key, playerID, above, below)
}

// PeriodLeaderboard returns up to first entries of period key of b after
// the cursor (from the top when after is ""), in b's order: Leaderboard's
// answer for main's month key, boardLeaderboard's for any other board.
// EBADINPUT when key is not a month of main, and for a malformed cursor or
// one of another period.
func (db *DB) PeriodLeaderboard(ctx context.Context, b *leaderboard.Board, key string, first int, after string) (*leaderboard.Page, error) {
	m, isMain, err := leaderboard.MainMonth(b, key)
	switch {
	case err != nil:
		return nil, err
	case isMain:
		return db.monthLeaderboard(ctx, b, m, first, after)
	}
	return db.boardLeaderboard(ctx, b, key, first, after)
}
