package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Retention of the periods of every board, the one entry point of which is
// DropOldPeriods: main's months go by its own rule (dropOldMainMonths,
// Retention.MainMonths), every other board's by its retainPeriods, and both
// the same way. Every other board's retainPeriods keeps that many CLOSED periods,
// the newest by their start; an older one goes once its settlement messages
// were all delivered (or it has none: settlement off). A period's rows are
// in the shared tables, keyed by its id: no partition is made per board or
// small period, so none is dropped for one (the board_final_ranks partition
// of its month holds other boards' periods too). A 10M-player period is tens of
// millions of rows, too many for one transaction: the drop is decided in a
// short one that deletes the period's row and queues its id in
// period_purges (migration 21), then its rows are deleted in batches of
// Limits.RetentionBatch, each a transaction of its own under the requests'
// statement timeout. The one exception: a large period's final ranks in a
// partition of their own (migration 27) go with their partition, dropped.

// defaultRetentionBatch is Limits.RetentionBatch's default.
const defaultRetentionBatch = 10_000

// Retention says what DropOldPeriods keeps of main and how much of the
// other boards it drops a call.
type Retention struct {
	// MainMonths keeps main's current month and this many before it
	// (LEADERBOARD_RETAIN_MONTHS; main's row has no retainPeriods of its
	// own); nil keeps them all.
	MainMonths *int
	// Limit bounds the periods of other boards dropped a call; their own
	// retainPeriods says which.
	Limit int
}

// DropOldPeriods drops the periods that retention no longer keeps, on every
// board, and returns them with their Board and Key, main's first: main's
// months as dropOldMainMonths says, then up to keep.Limit periods of other
// boards (dropOldBoardPeriods), which then purges the dropped rows of all.
// Both run when one fails: the error joins theirs.
func (db *DB) DropOldPeriods(ctx context.Context, keep Retention) ([]leaderboard.Period, error) {
	var dropped []leaderboard.Period
	var monthsErr error
	if keep.MainMonths != nil {
		dropped, monthsErr = db.dropOldMainMonths(ctx, *keep.MainMonths)
	}
	periods, err := db.dropOldBoardPeriods(ctx, keep.Limit)
	return append(dropped, periods...), errors.Join(monthsErr, err)
}

// dropOldMainMonths drops every CLOSED month of main more than retain
// months before the current one whose settlement messages were all
// delivered (or that has none), oldest first, and returns them. Each drop
// is dropPeriod's short transaction, which checks the messages again under
// the month's row lock; the month's rows are left queued for the purge
// (purgeDroppedPeriods).
func (db *DB) dropOldMainMonths(ctx context.Context, retain int) ([]leaderboard.Period, error) {
	cutoff := leaderboard.MonthOf(db.now(), db.loc)
	for range retain {
		cutoff = cutoff.Prev()
	}
	const q = `SELECT p.key, p.id FROM periods p
		WHERE p.board_id = 'main' AND p.status = 'CLOSED' AND p.key < $1
			AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.period_id = p.id AND o.delivered_at IS NULL)
		ORDER BY p.key`
	rows, err := db.pool.Query(ctx, q, cutoff.String())
	if err != nil {
		return nil, errorf("find months to drop: %w", err)
	}
	var (
		old []oldPeriod
		o   = oldPeriod{Period: leaderboard.Period{Board: leaderboard.MainBoard}}
	)
	_, err = pgx.ForEachRow(rows, []any{&o.Key, &o.id}, func() error {
		old = append(old, o)
		return nil
	})
	if err != nil {
		return nil, errorf("find months to drop: %w", err)
	}
	return db.dropAll(ctx, old)
}

// oldPeriod is a period retention found to drop: its board, key and id.
type oldPeriod struct {
	leaderboard.Period
	id int32
}

// dropAll drops each of old in turn (dropOne) and returns those it
// dropped; it stops at the first that fails.
func (db *DB) dropAll(ctx context.Context, old []oldPeriod) ([]leaderboard.Period, error) {
	var dropped []leaderboard.Period
	for _, p := range old {
		gone, err := db.dropOne(ctx, p)
		if err != nil {
			return dropped, errorf("drop period %s of %s: %w", p.Key, p.Board, err)
		}
		if gone {
			dropped = append(dropped, p.Period)
		}
	}
	return dropped, nil
}

// dropOne drops period p in a transaction of its own (dropPeriod).
func (db *DB) dropOne(ctx context.Context, p oldPeriod) (bool, error) {
	var gone bool
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		gone, err = dropPeriod(ctx, tx, p.Board, p.id)
		return err
	})
	return gone, err
}

// dropOldBoardPeriods drops up to limit periods of boards other than main
// (whose months go by dropOldMainMonths) that their boards' retainPeriods
// no longer keep, oldest first, and
// returns them with their Board and Key; then it purges the rows of every
// dropped period still queued, main's months and those of runs cut short
// before included.
// Each drop is one short transaction: the period's row, with which its
// corrections and messages go (ON DELETE CASCADE) and its claims (a
// trigger, migration 16), so that from its commit the period answers as
// gone; its live scores, accepted events, final ranks, rank counters and
// removed players go in the purge's batches. A period another instance
// drops or purges at the same time is left to it. A period is returned once
// its drop committed, even when the purge then fails.
func (db *DB) dropOldBoardPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error) {
	// For each board that limits what it keeps, its CLOSED periods after the
	// newest retain_periods (periods_board_start_idx, newest first).
	// Only once the period's own time to take events is over: a period
	// closed early, dropped while its day still runs, would be opened again
	// by the day's next event and closed a second time.
	const q = `SELECT p.board_id, p.key, p.id FROM boards b
		CROSS JOIN LATERAL (SELECT board_id, key, id, starts_at, ends_at FROM periods
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
	var (
		old []oldPeriod
		o   oldPeriod
	)
	_, err = pgx.ForEachRow(rows, []any{&o.Board, &o.Key, &o.id}, func() error {
		old = append(old, o)
		return nil
	})
	if err != nil {
		return nil, errorf("find periods to drop: %w", err)
	}
	dropped, err := db.dropAll(ctx, old)
	return dropped, errors.Join(err, db.purgeDroppedPeriods(ctx))
}

// dropPeriod deletes the row of period id of board, CLOSED, and queues its
// other rows for the purge; false when another transaction dropped it first.
func dropPeriod(ctx context.Context, tx pgx.Tx, board string, id int32) (bool, error) {
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
	if pending, err := undelivered(ctx, tx, id); err != nil || pending {
		return false, err
	}
	// The claims in flight commit first and go with the row (a trigger,
	// migration 16); those after find no period and answer GONE.
	if err := lockPeriodClaims(ctx, tx, id); err != nil {
		return false, err
	}
	writes := &pgx.Batch{}
	writes.Queue(`INSERT INTO period_purges (period_id, final_bucket)
		SELECT id, final_bucket FROM periods WHERE board_id = $1 AND id = $2`, board, id)
	writes.Queue(`DELETE FROM periods WHERE board_id = $1 AND id = $2`, board, id)
	return true, tx.SendBatch(ctx, writes).Close()
}

// undelivered is the check of a drop (dropPeriod), main's month's or another
// board's period's, made after it locked the period's row FOR
// UPDATE: whether a message of period id is still to be delivered. Its
// messages go with its row, and a correction that committed since
// retention's look may have recorded one: the drop then waits for a later
// run.
func undelivered(ctx context.Context, tx pgx.Tx, id int32) (bool, error) {
	const q = `SELECT EXISTS (SELECT 1 FROM outbox WHERE period_id = $1 AND delivered_at IS NULL)`
	var pending bool
	err := tx.QueryRow(ctx, q, id).Scan(&pending)
	return pending, err
}

// purgeDroppedPeriods deletes the rows of every period queued in
// period_purges, batch after batch, until none is left or ctx ends; what is
// left stays queued for the next run.
func (db *DB) purgeDroppedPeriods(ctx context.Context) error {
	rows, err := db.pool.Query(ctx, `SELECT period_id FROM period_purges ORDER BY dropped_at, period_id`)
	if err != nil {
		return errorf("find dropped periods to purge: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return errorf("find dropped periods to purge: %w", err)
	}
	batch := cmp.Or(db.limits.RetentionBatch, defaultRetentionBatch)
	for _, id := range ids {
		// The tables known to be empty of the period are not looked at again:
		// a look walks the dead entries of the rows deleted before it.
		from := 0
		for done := false; !done; {
			err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
				var err error
				done, err = purgeBatch(ctx, tx, id, batch, &from)
				return err
			})
			if err != nil {
				return errorf("purge dropped period %d: %w", id, err)
			}
		}
	}
	return nil
}

// purgeTables are the tables that hold rows of a period by its period_id,
// in the order the purge empties them: the events first, as until they go
// a retry of one of them answers DUPLICATE.
var purgeTables = []string{"board_score_events", "board_scores", "period_rank_counts", "board_removed_players",
	"cohort_members", "period_cohort_fill", "board_final_ranks"}

// purgeBatch deletes up to batch rows of dropped period id from
// purgeTables[*from:], moving *from past each table it empties, and the
// period's queue row once none is left; done when the period is purged, or
// when another transaction is purging it (its queue row locked), which then
// finishes it. *from is of use only if tx commits.
func purgeBatch(ctx context.Context, tx pgx.Tx, id int32, batch int, from *int) (done bool, err error) {
	const claim = `SELECT final_bucket FROM period_purges WHERE period_id = $1 FOR UPDATE SKIP LOCKED`
	var bucket *time.Time
	if err := tx.QueryRow(ctx, claim, id).Scan(&bucket); noRows(err) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	left := int64(batch)
	for ; *from < len(purgeTables); *from++ {
		q, args := fmt.Sprintf(deleteSome, purgeTables[*from]), []any{id, left}
		if purgeTables[*from] == "board_final_ranks" {
			if bucket == nil {
				continue
			}
			if bucket.Equal(ownBucket) {
				// Final ranks of their own go with their partition.
				if err := dropOwnFinalRanks(ctx, tx, id); err != nil {
					return false, err
				}
				continue
			}
			q, args = deleteFinalRanks, append(args, *bucket)
		}
		tag, err := tx.Exec(ctx, q, args...)
		if err != nil {
			return false, err
		}
		if left -= tag.RowsAffected(); left == 0 {
			return false, nil
		}
	}
	_, err = tx.Exec(ctx, `DELETE FROM period_purges WHERE period_id = $1`, id)
	return true, err
}

// deleteSome deletes up to $2 rows of period $1 from table %s: it picks them
// by ctid from the period's range of an index, then deletes them by ctid
// alone, which a TID scan answers whatever the table's key and statistics
// (with the period's id beside the ctids, a planner that takes the table
// for small can filter every row of the period through the list instead).
const deleteSome = `DELETE FROM %[1]s WHERE ctid = ANY (ARRAY(SELECT ctid FROM %[1]s WHERE period_id = $1 LIMIT $2))`

// deleteFinalRanks deletes up to $2 final ranks of period $1, those of the
// best ranks, in one range of the key of bucket $3's partition (a ctid names
// a row of one partition only).
const deleteFinalRanks = `DELETE FROM board_final_ranks WHERE bucket = $3 AND period_id = $1
	AND rank <= (SELECT max(rank) FROM (SELECT rank FROM board_final_ranks WHERE bucket = $3 AND period_id = $1
		ORDER BY rank LIMIT $2) AS first)`

// dropOwnFinalRanks drops the final ranks of their own of dropped period
// id, of whatever version (ownPartition) is attached: its row, which holds
// the version, is gone.
func dropOwnFinalRanks(ctx context.Context, tx pgx.Tx, id int32) error {
	const attached = `SELECT c.oid::regclass::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'board_final_ranks_own'::regclass
			AND pg_get_expr(c.relpartbound, c.oid) = 'FOR VALUES IN (' || $1::integer || ')'`
	rows, err := tx.Query(ctx, attached, id)
	if err != nil {
		return err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, table := range tables {
		if _, err := tx.Exec(ctx, `DROP TABLE `+table); err != nil {
			return err
		}
	}
	return nil
}
