package db

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// CloseLockHeld reports whether some session of the server that takes
// writes holds month m's close lock in this database. A close job that runs while its own
// server says no one holds its lock is on a server that is no longer the
// primary (lost, its standby promoted): its session is gone for the
// database, and the job can only wait on a dead connection.
func (db *DB) CloseLockHeld(ctx context.Context, m leaderboard.Month) (bool, error) {
	// A lock on two int4 keys shows the first as classid, the second as
	// objid, with objsubid 2. Advisory locks are per database: the same keys
	// in another database of the server are another lock.
	const q = `SELECT EXISTS (SELECT FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 2)`
	var held bool
	if err := db.pool.QueryRow(ctx, q, int64(closeLockClass), int64(monthKey(m))).Scan(&held); err != nil {
		return false, errorf("look for the close lock of %s: %w", m, err)
	}
	return held, nil
}
