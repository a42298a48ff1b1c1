package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Retention of the periods of every board but main (main drops whole months:
// retention.go). A board's retainPeriods keeps that many CLOSED periods,
// the newest by their start; an older one goes once its settlement messages
// were all delivered (or it has none: settlement off). Its rows are deleted
// from the shared tables, keyed by the period's id, in one transaction per
// period: the board_final_ranks partition of its month stays, as it holds
// other boards' periods; a partition is never made per board or period, so
// none is dropped per period either.

// DropOldPeriods drops up to limit periods that their boards' retainPeriods
// no longer keep, oldest first, and returns them with their Board and Key.
// Each goes in one transaction: its live scores, accepted events, final
// ranks and removed players, then its row, with which its corrections and
// messages go (ON DELETE CASCADE), and its claims (a trigger, migration
// 16). A period another instance drops at the same time is skipped.
func (db *DB) DropOldPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error) {
	// For each board that limits what it keeps, its CLOSED periods after the
	// newest retain_periods (periods_board_start_idx, newest first).
	// Only once the period's own time to take events is over: a period
	// closed early, dropped while its day still runs, would be opened again
	// by the day's next event and closed a second time.
	const q = `SELECT p.board_id, p.key, p.id, p.final_bucket FROM boards b
		CROSS JOIN LATERAL (SELECT board_id, key, id, final_bucket, starts_at, ends_at FROM periods
			WHERE board_id = b.id AND status = 'CLOSED'
			ORDER BY starts_at DESC OFFSET b.retain_periods) p
		WHERE b.retain_periods IS NOT NULL AND b.id <> 'main'
			AND COALESCE(p.ends_at, b.ends_at) + b.close_grace_seconds * interval '1 second' <= $2
			AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.period_id = p.id AND o.delivered_at IS NULL)
		ORDER BY p.starts_at, p.board_id, p.key LIMIT $1`
	rows, err := db.pool.Query(ctx, q, limit, db.now())
	if err != nil {
		return nil, errorf("find periods to drop: %w", err)
	}
	type oldPeriod struct {
		leaderboard.Period
		id     int32
		bucket *time.Time
	}
	var (
		old []oldPeriod
		o   oldPeriod
	)
	_, err = pgx.ForEachRow(rows, []any{&o.Board, &o.Key, &o.id, &o.bucket}, func() error {
		old = append(old, o)
		return nil
	})
	if err != nil {
		return nil, errorf("find periods to drop: %w", err)
	}
	var dropped []leaderboard.Period
	for _, p := range old {
		var gone bool
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			var err error
			gone, err = dropPeriod(ctx, tx, p.Board, p.id, p.bucket)
			return err
		})
		if err != nil {
			return dropped, errorf("drop period %s of %s: %w", p.Key, p.Board, err)
		}
		if gone {
			dropped = append(dropped, leaderboard.Period{Board: p.Board, Key: p.Key})
		}
	}
	return dropped, nil
}

// dropPeriod deletes period id of board, CLOSED, and every row of it; false
// when another transaction dropped it first.
func dropPeriod(ctx context.Context, tx pgx.Tx, board string, id int32, bucket *time.Time) (bool, error) {
	if err := longJob(ctx, tx); err != nil {
		return false, err
	}
	// The row FOR UPDATE: a correction of the period, or another instance's
	// drop of it, waits, then finds it gone.
	const lock = `SELECT true FROM periods WHERE board_id = $1 AND id = $2 AND status = 'CLOSED' FOR UPDATE`
	var found bool
	if err := tx.QueryRow(ctx, lock, board, id).Scan(&found); noRows(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	// Again under the lock: a correction committed since the look may have
	// recorded a message that must still be delivered.
	const pending = `SELECT EXISTS (SELECT 1 FROM outbox WHERE period_id = $1 AND delivered_at IS NULL)`
	var undelivered bool
	if err := tx.QueryRow(ctx, pending, id).Scan(&undelivered); err != nil || undelivered {
		return false, err
	}
	// The claims in flight commit first and go with the row (a trigger,
	// migration 16); those after find no period and answer GONE.
	if err := lockPeriodClaims(ctx, tx, id); err != nil {
		return false, err
	}
	writes := &pgx.Batch{}
	writes.Queue(`DELETE FROM board_scores WHERE period_id = $1`, id)
	writes.Queue(`DELETE FROM period_rank_counts WHERE period_id = $1`, id)
	writes.Queue(`DELETE FROM board_score_events WHERE period_id = $1`, id)
	writes.Queue(`DELETE FROM board_removed_players WHERE period_id = $1`, id)
	if bucket != nil {
		// Within its month's partition only.
		writes.Queue(`DELETE FROM board_final_ranks WHERE bucket = $1 AND period_id = $2`, *bucket, id)
	}
	writes.Queue(`DELETE FROM periods WHERE board_id = $1 AND id = $2`, board, id)
	return true, tx.SendBatch(ctx, writes).Close()
}
