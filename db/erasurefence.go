package db

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// The fence of an erasure: before it scans a period's events for the
// player's, an erasure marks the player removed from a period that still
// takes events, as an admin's removal does (board_removed_players, which
// main's months share), in a transaction of its own under the period's
// write lock taken exclusive. The submissions in flight hold that lock
// shared until they commit, so the fence waits for them, and those that
// come after queue behind it and read the marker: their events of the
// player are refused (FORBIDDEN), while a retry of an event accepted before
// still answers DUPLICATE (its id is read first). From the fence's commit
// on, the player's events in the period are all there, and the erasure's
// scan of them (eraseFromPeriod) needs no lock that
// submissions wait on: nothing can add one behind it.
//
// The fences stay until the erasure is DONE: finishErasure deletes every
// removal marker of the player, the admins' with the fences, in the
// transaction that marks it DONE. So a submission that passed the fence's
// lock but waited on a row the erasure's step held reads the marker once
// that step commits, and is refused too; from DONE on, new events of the
// player are a new start. A fence left by a run cut short lists its period
// for the next run (erasurePeriods), and refuses the player's events there
// until then. Markers are not counted as the player's presence in a period:
// an admin's always comes with a correction naming the player there, which
// is counted, so a period fenced by a run cut short is not counted twice.

// fencePeriod fences playerID in period pid of a board unless it is
// CLOSING or CLOSED, and reports whether it was OPEN.
func (db *DB) fencePeriod(ctx context.Context, pid int32, playerID string) (bool, error) {
	const (
		lock  = `SELECT pg_advisory_xact_lock($1, ` + periodWriteKeySQL + `) FROM periods p WHERE p.id = $2`
		fence = `WITH taking AS (SELECT id FROM periods WHERE id = $1 AND status = 'OPEN'),
				fenced AS (INSERT INTO board_removed_players (period_id, player_id) SELECT id, $2 FROM taking ON CONFLICT DO NOTHING)
			SELECT EXISTS (SELECT 1 FROM taking)`
	)
	b := &pgx.Batch{}
	b.Queue(lock, periodWriteLockClass, pid)
	return db.fence(ctx, b, fence, pid, playerID)
}

// fence runs locks, the period's write lock, then fence with args, which
// marks the player and says whether the period is OPEN, in one transaction
// with an erasure step's timeouts, and returns what fence said. The marker
// is read by the statement after the lock, so it sees every submission the
// lock waited for.
func (db *DB) fence(ctx context.Context, locks *pgx.Batch, fence string, args ...any) (bool, error) {
	var open bool
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := erasureStep(ctx, tx); err != nil {
			return err
		}
		locks.Queue(fence, args...).QueryRow(func(r pgx.Row) error { return r.Scan(&open) })
		return tx.SendBatch(ctx, locks).Close()
	})
	if err != nil {
		return false, errorf("fence the player: %w", err)
	}
	return open, nil
}
