package db

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// TakeClosingRead takes one of the slots of reads of CLOSING months, as a
// read of month m would, and returns the function that frees it.
func (db *DB) TakeClosingRead(ctx context.Context, m leaderboard.Month) (func(), error) {
	return db.closing.enter(ctx, monthRef(m))
}
