package db

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// The reads of a period, on any board: the one place that sends main's
// months to the month code (Standing, Leaderboard: scores, final_ranks and
// their month cursors) and every other board's periods to the board code
// (boardStanding, boardLeaderboard: board_scores and their board cursors).
// Each keeps its own cursors, so a cursor a client holds decodes as it did.

// PeriodStanding returns playerID's standing in period key of b with up to
// above and below neighbours, read from one snapshot, or nil when the player
// has no score there: Standing's answer for main's month key, boardStanding's
// for any other board. EBADINPUT when key is not a month of main.
func (db *DB) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	m, isMain, err := leaderboard.MainMonth(b, key)
	switch {
	case err != nil:
		return nil, err
	case isMain:
		return db.Standing(ctx, m, playerID, above, below)
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
		return db.Leaderboard(ctx, m, first, after)
	}
	return db.boardLeaderboard(ctx, b, key, first, after)
}
