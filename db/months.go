package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// monthColumns are the columns scanned by scanMonth, from main's period m
// (migration 28) joined with its newest settlement message o. An open
// month's participants are counted live; a closed month's were frozen with
// its ranks.
var monthColumns = `to_date(m.key, 'YYYY-MM'), m.status, m.ends_at, m.closed_at,
	COALESCE(m.participants, ` + liveTotalSQL("to_date(m.key, 'YYYY-MM')") + `),
	m.digest, o.id IS NOT NULL, COALESCE(o.attempts, 0), o.delivered_at, o.last_error`

// monthFrom is the FROM clause of monthColumns.
const monthFrom = ` FROM periods m LEFT JOIN LATERAL (
	SELECT id, attempts, delivered_at, last_error FROM outbox WHERE period_id = m.id ORDER BY created_at DESC LIMIT 1
) o ON true`

// mainPeriodOf returns the SQL condition on periods alias that picks main's
// period of the month given by the SQL date expression month: main's months
// are periods of the board main, keyed 'YYYY-MM' (migration 28).
func mainPeriodOf(alias, month string) string {
	return alias + `.board_id = 'main' AND ` + alias + `.key = to_char(` + month + `::date, 'YYYY-MM')`
}

func (db *DB) scanMonth(row pgx.Row) (*leaderboard.MonthInfo, error) {
	var (
		info       leaderboard.MonthInfo
		date       time.Time
		status     string
		count      int64
		digest     *string
		hasMessage bool
		settlement leaderboard.Settlement
	)
	err := row.Scan(&date, &status, &info.EndsAt, &info.ClosedAt, &count,
		&digest, &hasMessage, &settlement.Attempts, &settlement.DeliveredAt, &settlement.LastError)
	if err != nil {
		return nil, err
	}
	info.Month = leaderboard.MonthFromDate(date)
	info.Status = leaderboard.MonthStatus(status)
	info.Participants = int(count)
	info.ClosesAt = info.EndsAt.Add(db.closeGrace)
	if digest != nil {
		info.Digest = *digest
	}
	if info.Status == leaderboard.MonthClosed {
		switch {
		case !hasMessage:
			settlement.Status = leaderboard.SettlementDisabled
		case settlement.DeliveredAt == nil:
			settlement.Status = leaderboard.SettlementPending
		default:
			settlement.Status = leaderboard.SettlementDelivered
		}
		info.Settlement = &settlement
	}
	return &info, nil
}

// Month returns the month's info, or nil when it never opened.
func (db *DB) Month(ctx context.Context, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	q := `SELECT ` + monthColumns + monthFrom + ` WHERE ` + mainPeriodOf("m", "$1")
	info, err := db.scanMonth(db.pool.QueryRow(ctx, q, m.Date()))
	if noRows(err) {
		return nil, nil
	} else if err != nil {
		return nil, errorf("read month %s: %w", m, err)
	}
	return info, nil
}

// Months returns up to first months, newest first.
func (db *DB) Months(ctx context.Context, first int) ([]leaderboard.MonthInfo, error) {
	q := `SELECT ` + monthColumns + monthFrom + ` WHERE m.board_id = 'main' ORDER BY m.key DESC LIMIT $1`
	rows, err := db.pool.Query(ctx, q, first)
	if err != nil {
		return nil, errorf("list months: %w", err)
	}
	defer rows.Close()
	var out []leaderboard.MonthInfo
	for rows.Next() {
		info, err := db.scanMonth(rows)
		if err != nil {
			return nil, errorf("list months: %w", err)
		}
		out = append(out, *info)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("list months: %w", err)
	}
	return out, nil
}

// openMonth makes sure month m has its row and its partitions of scores and
// score_events. Many servers may send a month's first events at once: an
// advisory lock lets one of them create the partitions while the others wait
// and then find the month's row, made in the same transaction, and touch no
// table.
//
// Creating a partition locks its parent exclusively. A submission locks
// score_events (its ids are looked up across every month) before scores, so
// the partitions are made in that order: made the other way, this held
// scores while it waited for a submission's score_events, and the submission
// waited for scores: a deadlock, which failed a call of the month's first
// events.
func (db *DB) openMonth(ctx context.Context, m leaderboard.Month) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const lock = `SELECT pg_advisory_xact_lock(hashtext('leaderboard.open_month'), $1)`
		if _, err := tx.Exec(ctx, lock, m.Year()*100+int(m.Month())); err != nil {
			return err
		}
		var opened bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM periods m WHERE `+mainPeriodOf("m", "$1")+`)`, m.Date()).Scan(&opened); err != nil || opened {
			return err
		}
		for _, table := range []string{"score_events", "scores"} {
			create := fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s PARTITION OF %s FOR VALUES IN (%s)`,
				pgx.Identifier{partitionName(table, m)}.Sanitize(), table, dateLiteral(m))
			if _, err := tx.Exec(ctx, create); err != nil {
				return err
			}
		}
		const insert = `INSERT INTO periods (board_id, key, starts_at, ends_at) VALUES ('main', $1, $2, $3)
			ON CONFLICT (board_id, key) DO NOTHING`
		_, err := tx.Exec(ctx, insert, m.String(), m.Start(db.loc), m.End(db.loc))
		return err
	})
	if err != nil {
		return errorf("open month %s: %w", m, err)
	}
	return nil
}

// MonthsToClose returns, oldest first, the months whose close should run
// now, with their Month and Status only: every CLOSING month (its close was
// interrupted, or is running) and, when auto is true, every OPEN month whose
// closesAt has passed.
func (db *DB) MonthsToClose(ctx context.Context, auto bool) ([]leaderboard.MonthInfo, error) {
	const q = `SELECT to_date(key, 'YYYY-MM'), status FROM periods
		WHERE board_id = 'main' AND status <> 'CLOSED'
		AND (status = 'CLOSING' OR ($1 AND ends_at + $2::bigint * interval '1 millisecond' <= $3))
		ORDER BY key`
	rows, err := db.pool.Query(ctx, q, auto, db.closeGrace.Milliseconds(), db.now())
	if err != nil {
		return nil, errorf("find months to close: %w", err)
	}
	var (
		due    []leaderboard.MonthInfo
		date   time.Time
		status string
	)
	_, err = pgx.ForEachRow(rows, []any{&date, &status}, func() error {
		due = append(due, leaderboard.MonthInfo{Month: leaderboard.MonthFromDate(date), Status: leaderboard.MonthStatus(status)})
		return nil
	})
	if err != nil {
		return nil, errorf("find months to close: %w", err)
	}
	return due, nil
}

// monthStatus returns the month's status ("" when it never opened) and, once
// it is closed, its participants.
func monthStatus(ctx context.Context, tx pgx.Tx, m leaderboard.Month) (leaderboard.MonthStatus, int, error) {
	q := `SELECT status, COALESCE(participants, 0) FROM periods m WHERE ` + mainPeriodOf("m", "$1")
	var (
		status       string
		participants int
	)
	err := tx.QueryRow(ctx, q, m.Date()).Scan(&status, &participants)
	if noRows(err) {
		return "", 0, nil
	}
	return leaderboard.MonthStatus(status), participants, err
}
