package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// monthColumns are the columns scanned by scanMonth. An open month's
// participants are counted live; a closed month's were frozen with its ranks.
const monthColumns = `m.month, m.status, m.ends_at, m.closed_at,
	COALESCE(m.participants, (SELECT COALESCE(sum(c.players), 0) FROM score_block_counts c WHERE c.month = m.month))`

func scanMonth(row pgx.Row) (*leaderboard.MonthInfo, error) {
	var (
		info   leaderboard.MonthInfo
		date   time.Time
		status string
		count  int64
	)
	if err := row.Scan(&date, &status, &info.EndsAt, &info.ClosedAt, &count); err != nil {
		return nil, err
	}
	info.Month = leaderboard.MonthFromDate(date)
	info.Status = leaderboard.MonthStatus(status)
	info.Participants = int(count)
	return &info, nil
}

// Month returns the month's info, or nil when it never opened.
func (db *DB) Month(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	const q = `SELECT ` + monthColumns + ` FROM months m WHERE m.month = $1`
	info, err := scanMonth(db.pool.QueryRow(ctx, q, m.Date()))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read month %s: %w", m, err)
	}
	return info, nil
}

// Months returns up to first months, newest first.
func (db *DB) Months(ctx context.Context, first int) ([]leaderboard.MonthInfo, error) {
	const q = `SELECT ` + monthColumns + ` FROM months m ORDER BY m.month DESC LIMIT $1`
	rows, err := db.pool.Query(ctx, q, first)
	if err != nil {
		return nil, fmt.Errorf("list months: %w", err)
	}
	defer rows.Close()
	var out []leaderboard.MonthInfo
	for rows.Next() {
		info, err := scanMonth(rows)
		if err != nil {
			return nil, fmt.Errorf("list months: %w", err)
		}
		out = append(out, *info)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list months: %w", err)
	}
	return out, nil
}

// openMonth makes sure month m has its row and its scores partition. Many
// servers may send a month's first events at once: an advisory lock lets one
// of them create the partition while the others wait and then find it.
func (db *DB) openMonth(ctx context.Context, m leaderboard.Month) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const lock = `SELECT pg_advisory_xact_lock(hashtext('leaderboard.open_month'), $1)`
		if _, err := tx.Exec(ctx, lock, m.Year()*100+int(m.Month())); err != nil {
			return err
		}
		create := fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s PARTITION OF scores FOR VALUES IN (%s)`,
			pgx.Identifier{partitionName("scores", m)}.Sanitize(), dateLiteral(m))
		if _, err := tx.Exec(ctx, create); err != nil {
			return err
		}
		const insert = `INSERT INTO months (month, ends_at) VALUES ($1, $2) ON CONFLICT (month) DO NOTHING`
		_, err := tx.Exec(ctx, insert, m.Date(), m.End(db.loc))
		return err
	})
	if err != nil {
		return fmt.Errorf("open month %s: %w", m, err)
	}
	return nil
}

// CloseMonth freezes month m: it stops taking scores (CLOSING), its final
// ranks are built with ROW_NUMBER() into a new partition of final_ranks, and
// it becomes CLOSED, all of the last two steps in one transaction, so that a
// failure leaves the month CLOSING, without ranks, and closable again. A
// CLOSED month is returned as it is. ENOTFOUND when the month never opened.
func (db *DB) CloseMonth(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	// Submissions hold the month row FOR SHARE while they write, so this
	// UPDATE waits for those in flight, and every event acknowledged as
	// applied is in the scores the ranks are built from.
	const stopScores = `UPDATE months SET status = 'CLOSING' WHERE month = $1 AND status = 'OPEN'`
	if _, err := db.pool.Exec(ctx, stopScores, m.Date()); err != nil {
		return nil, fmt.Errorf("close month %s: %w", m, err)
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const lockMonth = `SELECT status FROM months WHERE month = $1 FOR UPDATE`
		var status string
		if err := tx.QueryRow(ctx, lockMonth, m.Date()).Scan(&status); errors.Is(err, pgx.ErrNoRows) {
			return leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
		} else if err != nil {
			return err
		}
		if leaderboard.MonthStatus(status) == leaderboard.MonthClosed {
			return nil
		}
		participants, err := buildFinalRanks(ctx, tx, m)
		if err != nil {
			return err
		}
		const markClosed = `UPDATE months SET status = 'CLOSED', closed_at = $2, participants = $3 WHERE month = $1`
		_, err = tx.Exec(ctx, markClosed, m.Date(), db.now(), participants)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("close month %s: %w", m, err)
	}
	return db.Month(ctx, m)
}

// buildFinalRanks materializes month m's ranks into a standalone table,
// indexes it and attaches it as the month's partition of final_ranks. It
// returns the number of ranked players.
func buildFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month) (int64, error) {
	table := pgx.Identifier{partitionName("final_ranks", m)}.Sanitize()
	date := dateLiteral(m)
	// Sorting and indexing ten million rows wants more memory and workers
	// than the service's small reads; SET LOCAL ends with the transaction.
	for _, set := range []string{
		`SET LOCAL work_mem = '1GB'`,
		`SET LOCAL maintenance_work_mem = '1GB'`,
		`SET LOCAL max_parallel_workers_per_gather = 2`,
		`SET LOCAL max_parallel_maintenance_workers = 2`,
	} {
		if _, err := tx.Exec(ctx, set); err != nil {
			return 0, fmt.Errorf("build final ranks: %w", err)
		}
	}
	steps := []string{
		fmt.Sprintf(`CREATE TABLE %s (LIKE final_ranks)`, table),
		fmt.Sprintf(`INSERT INTO %s (month, rank, player_id, score, reached_at)
			SELECT month, ROW_NUMBER() OVER (ORDER BY score DESC, reached_at ASC, seq ASC), player_id, score, reached_at
			FROM scores WHERE month = %s`, table, date),
		// Indexes are built after the rows are in: several times faster than
		// maintaining them row by row. They match the parent's, so ATTACH
		// adopts them instead of building its own.
		fmt.Sprintf(`ALTER TABLE %s ADD PRIMARY KEY (month, rank)`, table),
		fmt.Sprintf(`CREATE UNIQUE INDEX ON %s (month, player_id)`, table),
		fmt.Sprintf(`ALTER TABLE final_ranks ATTACH PARTITION %s FOR VALUES IN (%s)`, table, date),
	}
	var participants int64
	for i, step := range steps {
		tag, err := tx.Exec(ctx, step)
		if err != nil {
			return 0, fmt.Errorf("build final ranks (step %d): %w", i+1, err)
		}
		if i == 1 {
			participants = tag.RowsAffected()
		}
	}
	return participants, nil
}
