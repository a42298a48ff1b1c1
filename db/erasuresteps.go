package db

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
)

// eraseFromMonth erases playerID from main's month m for erasure id, in one
// transaction under the month's close lock, and has every instance forget
// the month's final ranks it holds (notifyMonth, in the correction's
// transaction). ECONFLICT while the month is CLOSING or being corrected.
func (db *DB) eraseFromMonth(ctx context.Context, id int64, m leaderboard.Month, playerID string) error {
	ran, err := db.withMonthLock(ctx, m, func(conn *pgxpool.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return db.eraseFromMonthTx(ctx, tx, id, m, playerID) })
	})
	if err == nil && !ran {
		err = leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is being closed or corrected: erase again shortly", m)
	}
	if err != nil {
		return interpretCloseError(m, err)
	}
	db.forgetClosedMonth(m)
	return nil
}

func (db *DB) eraseFromMonthTx(ctx context.Context, tx pgx.Tx, id int64, m leaderboard.Month, playerID string) error {
	if err := longJob(ctx, tx); err != nil {
		return err
	}
	var (
		status   string
		hasScore bool
	)
	const read = `SELECT status, EXISTS (SELECT 1 FROM scores WHERE month = $1 AND player_id = $2) FROM months WHERE month = $1`
	if err := tx.QueryRow(ctx, read, m.Date(), playerID).Scan(&status, &hasScore); noRows(err) {
		return nil // dropped by retention since it was listed
	} else if err != nil {
		return err
	}
	// The claim goes first: the correction's changedClaims must not list it.
	const unclaim = `DELETE FROM claims WHERE board_id = $1 AND period_key = $2 AND player_id = $3`
	tag, err := tx.Exec(ctx, unclaim, leaderboard.MainBoard, m.String(), playerID)
	if err != nil {
		return err
	}
	touched := tag.RowsAffected() > 0 || hasScore
	if hasScore {
		if _, err := db.correctTx(ctx, tx, m, playerID, nil, leaderboard.ErasureReason, &id); err != nil {
			return err
		}
	}
	steps := []struct {
		q    string
		args []any
	}{
		{`DELETE FROM removed_players WHERE month = $1 AND player_id = $2`, []any{m.Date(), playerID}},
		{`UPDATE score_events SET player_id = $3, value = 0, old_score = NULL, new_score = 0
			WHERE month = $1 AND player_id = $2`, []any{m.Date(), playerID, erasedPlayer}},
		{`UPDATE corrections SET player_id = NULL, erasure_id = $3, reason = $4 WHERE month = $1 AND player_id = $2`,
			[]any{m.Date(), playerID, id, leaderboard.ErasureReason}},
	}
	for _, s := range steps {
		tag, err := tx.Exec(ctx, s.q, s.args...)
		if err != nil {
			return err
		}
		touched = touched || tag.RowsAffected() > 0
	}
	scrubbed, err := scrubMessages(ctx, tx, `month = $1`, m.Date(), playerID, id)
	if err != nil {
		return err
	}
	if !touched && !scrubbed {
		return nil
	}
	return countErased(ctx, tx, id, hasScore && leaderboard.MonthStatus(status) == leaderboard.MonthClosed)
}

// eraseFromPeriod erases playerID from period pid of a board other than
// main for erasure id, in one transaction that holds the period's row FOR
// UPDATE (as a correction does), and announces a CLOSED period's new ranks
// version to every instance once it committed.
func (db *DB) eraseFromPeriod(ctx context.Context, id int64, pid int32, playerID string) error {
	var (
		board, key string
		corrected  bool
	)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		var (
			status   string
			hasScore bool
		)
		const read = `SELECT board_id, key, status, EXISTS (SELECT 1 FROM board_scores WHERE period_id = $1 AND player_id = $2)
			FROM periods WHERE id = $1 FOR UPDATE`
		if err := tx.QueryRow(ctx, read, pid, playerID).Scan(&board, &key, &status, &hasScore); noRows(err) {
			return nil // dropped by retention since it was listed
		} else if err != nil {
			return err
		}
		if leaderboard.PeriodStatus(status) == leaderboard.PeriodClosing {
			return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s is closing: erase again once it is CLOSED", key, board)
		}
		// The claims in flight commit first; the claim goes before the
		// correction, whose changedClaims must not list it.
		if err := lockPeriodClaims(ctx, tx, pid); err != nil {
			return err
		}
		const unclaim = `DELETE FROM claims WHERE board_id = $1 AND period_id = $2 AND player_id = $3`
		tag, err := tx.Exec(ctx, unclaim, board, pid, playerID)
		if err != nil {
			return err
		}
		touched := tag.RowsAffected() > 0 || hasScore
		if hasScore {
			b, err := db.Board(ctx, board)
			if err != nil {
				return err
			} else if b == nil {
				return errorf("board %s is missing", board)
			}
			if _, err := db.correctPeriodTx(ctx, tx, b, key, playerID, nil, leaderboard.ErasureReason, &id); err != nil {
				return err
			}
			corrected = leaderboard.PeriodStatus(status) == leaderboard.PeriodClosed
		}
		steps := []struct {
			q    string
			args []any
		}{
			{`DELETE FROM board_removed_players WHERE period_id = $1 AND player_id = $2`, []any{pid, playerID}},
			{`UPDATE board_score_events SET player_id = $3, value = 0, subscore = NULL, old_score = NULL, new_score = 0
				WHERE period_id = $1 AND player_id = $2`, []any{pid, playerID, erasedPlayer}},
			{`UPDATE corrections SET player_id = NULL, erasure_id = $3, reason = $4 WHERE period_id = $1 AND player_id = $2`,
				[]any{pid, playerID, id, leaderboard.ErasureReason}},
		}
		for _, s := range steps {
			tag, err := tx.Exec(ctx, s.q, s.args...)
			if err != nil {
				return err
			}
			touched = touched || tag.RowsAffected() > 0
		}
		scrubbed, err := scrubMessages(ctx, tx, `period_id = $1`, pid, playerID, id)
		if err != nil {
			return err
		}
		if !touched && !scrubbed {
			return nil
		}
		return countErased(ctx, tx, id, corrected)
	})
	if err != nil {
		return err
	}
	if corrected {
		// The erasure committed: an announcement lost is made up for by
		// every instance's check of the versions.
		if err := db.AnnouncePeriod(ctx, board, key); err != nil && db.logger != nil {
			db.logger.WarnContext(ctx, "announce a period an erasure corrected", "board", board, "period", key,
				"erasure", strconv.FormatInt(id, 10), "err", err)
		}
	}
	return nil
}
