package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// dropOldMonths drops every CLOSED month of main more than retain months
// before the current one whose settlement messages were all delivered (or
// that has none), and returns them: DropOldPeriods's drops of main. A month goes whole, in one transaction: its
// partitions of scores and score_events and its final ranks of their own
// (the version in use, ownPartition) are detached and dropped, never
// emptied row by row; its rank counters (at most a row per score, per
// hundred scores and per score and hour), messages and corrections are
// deleted with its row.
func (db *DB) dropOldMonths(ctx context.Context, retain int) ([]leaderboard.Month, error) {
	cutoff := leaderboard.MonthOf(db.now(), db.loc)
	for range retain {
		cutoff = cutoff.Prev()
	}
	const q = `SELECT to_date(m.key, 'YYYY-MM') FROM periods m
		WHERE m.board_id = 'main' AND m.status = 'CLOSED' AND m.key < to_char($1::date, 'YYYY-MM')
		AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.period_id = m.id AND o.delivered_at IS NULL)
		ORDER BY m.key`
	rows, err := db.pool.Query(ctx, q, cutoff.Date())
	if err != nil {
		return nil, errorf("find months to drop: %w", err)
	}
	dates, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return nil, errorf("find months to drop: %w", err)
	}
	var dropped []leaderboard.Month
	for _, d := range dates {
		m := leaderboard.MonthFromDate(d)
		var gone bool
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			var err error
			gone, err = dropMonth(ctx, tx, m)
			return err
		})
		if err != nil {
			return dropped, errorf("drop month %s: %w", m, err)
		}
		if gone {
			db.closedMonths.Delete(m)
			dropped = append(dropped, m)
		}
	}
	return dropped, nil
}

// dropMonth drops month m, which is CLOSED, and everything of it; false when
// another transaction dropped it first, or a correction committed since the
// look recorded a message still to be delivered (the month waits for it).
func dropMonth(ctx context.Context, tx pgx.Tx, m leaderboard.Month) (bool, error) {
	if err := longJob(ctx, tx); err != nil {
		return false, err
	}
	// The row FOR UPDATE: a correction of the month, or another instance's
	// drop of it, waits, then finds it gone.
	var (
		id      int32
		version int
	)
	lock := `SELECT id, ranks_version FROM periods m WHERE ` + mainPeriodOf("m", "$1") + ` AND status = 'CLOSED' FOR UPDATE`
	if err := tx.QueryRow(ctx, lock, m.Date()).Scan(&id, &version); noRows(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if pending, err := undelivered(ctx, tx, id); err != nil || pending {
		return false, err
	}
	scores := pgx.Identifier{partitionName("scores", m)}.Sanitize()
	events := pgx.Identifier{partitionName("score_events", m)}.Sanitize()
	ranks := ownPartition(id, version)
	steps := []string{
		`ALTER TABLE scores DETACH PARTITION ` + scores,
		`DROP TABLE ` + scores,
		`ALTER TABLE score_events DETACH PARTITION ` + events,
		`DROP TABLE ` + events,
		`ALTER TABLE board_final_ranks_own DETACH PARTITION ` + ranks,
		`DROP TABLE ` + ranks,
	}
	for _, step := range steps {
		if _, err := tx.Exec(ctx, step); err != nil {
			return false, err
		}
	}
	for _, table := range []string{"score_block_counts", "score_counts", "score_hour_counts"} {
		if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE month = $1`, m.Date()); err != nil {
			return false, err
		}
	}
	for _, q := range []string{`DELETE FROM board_removed_players WHERE period_id = $1`,
		`DELETE FROM periods WHERE board_id = 'main' AND id = $1`} {
		if _, err := tx.Exec(ctx, q, id); err != nil {
			return false, err
		}
	}
	return true, nil
}
