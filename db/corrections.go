package db

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
)

// correctMonthScore sets playerID's total in month m to *score, or removes the
// player from m when score is nil (their later events for m are then
// refused), and records the correction with its reason. A changed total is
// reached at the time of the correction. It runs under the month's close
// lock, in one transaction: on a CLOSED month it also builds the next version
// of the final ranks beside the one in use and swaps them, so a reader sees
// the old table or the new one, never a mix, recomputes participants and
// digest, records a month.corrected message (settlement on), listing the
// claims whose rank, score or tier it changed (changedclaims.go; the claims
// are kept), and announces the new version. EBADINPUT for a score outside 0..10000 or a reason that is
// blank, too long or breaks the text rules of names (leaderboard.CheckReason); ENOTFOUND for a month that
// never opened or a player to remove who has no score; ECONFLICT while the
// month is CLOSING or another correction of it runs.
func (db *DB) correctMonthScore(ctx context.Context, m leaderboard.Month, playerID string, score *int, reason string) (*leaderboard.Correction, error) {
	if err := checkCorrection(score, reason); err != nil {
		return nil, err
	}
	var c *leaderboard.Correction
	ran, err := db.withMonthLock(ctx, m, func(conn *pgxpool.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var err error
			c, err = db.correctTx(ctx, tx, m, playerID, score, reason, nil)
			return err
		})
	})
	if err == nil && !ran {
		err = leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is being closed or corrected: try again shortly", m)
	}
	if err != nil {
		return nil, interpretCloseError(m, err)
	}
	db.forgetClosedMonth(m)
	return c, nil
}

// checkCorrection checks a correction's score and reason.
func checkCorrection(score *int, reason string) error {
	if score != nil && (*score < leaderboard.MinScore || *score > leaderboard.MaxScore) {
		return leaderboard.OutOfRange(*score)
	}
	if err := leaderboard.CheckReason(reason); err != nil {
		return err
	}
	return nil
}

// correctTx corrects playerID's total in month m, as correctMonthScore says,
// in tx. With erasure set, the correction is that erasure's removal of the
// player (erasure.go), in a transaction erasureStep readied: it records and
// announces the erasure instead of the player, and not the total before;
// the erasure deletes the removal marker it leaves.
func (db *DB) correctTx(ctx context.Context, tx pgx.Tx, m leaderboard.Month, playerID string, score *int, reason string,
	erasure *int64) (*leaderboard.Correction, error) {
	// An erasure's step set its timeouts already (erasureStep).
	if erasure == nil {
		if err := longJob(ctx, tx); err != nil {
			return nil, err
		}
	}
	lockMonth := `SELECT id, status, ranks_version, closed_at FROM periods m WHERE ` + mainPeriodOf("m", "$1") + ` FOR UPDATE`
	var (
		period   int32
		status   string
		version  int
		closedAt *time.Time
	)
	if err := tx.QueryRow(ctx, lockMonth, m.Date()).Scan(&period, &status, &version, &closedAt); noRows(err) {
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
	} else if err != nil {
		return nil, err
	}
	if leaderboard.MonthStatus(status) == leaderboard.MonthClosing {
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is closing: correct it once it is CLOSED", m)
	}
	now := db.now()
	before, err := correctLiveScore(ctx, tx, m, period, playerID, score, now)
	if err != nil {
		return nil, err
	}
	c := &leaderboard.Correction{Board: leaderboard.MainBoard, Period: m.String(), Month: m, PlayerID: playerID,
		Before: before, After: score, Reason: reason}
	recorded := &playerID
	if erasure != nil {
		c.PlayerID, c.Before, c.Erasure, recorded = "", nil, new(strconv.FormatInt(*erasure, 10)), nil
	}
	const record = `INSERT INTO corrections (board_id, period_id, player_id, score_before, score_after, reason, at, erasure_id)
		VALUES ('main', $1, $2, $3, $4, $5, $6, $7) RETURNING id, at`
	var id int64
	if err := tx.QueryRow(ctx, record, period, recorded, c.Before, score, reason, now, erasure).Scan(&id, &c.At); err != nil {
		return nil, err
	}
	c.ID = strconv.FormatInt(id, 10)
	if leaderboard.MonthStatus(status) != leaderboard.MonthClosed {
		return c, nil
	}
	return c, db.rebuildFinalRanks(ctx, tx, m, period, version, *closedAt, db.settlement, c)
}

// correctLiveScore sets or removes the player's row of month m's scores,
// keeping the rank counters in step, and returns the total before. period
// is the month's period id, under which a removal is marked.
func correctLiveScore(ctx context.Context, tx pgx.Tx, m leaderboard.Month, period int32, playerID string, score *int,
	now time.Time) (*int, error) {
	const lockRow = `SELECT score, reached_at FROM scores WHERE month = $1 AND player_id = $2 FOR UPDATE`
	var (
		before    *int
		reachedAt time.Time
	)
	err := tx.QueryRow(ctx, lockRow, m.Date(), playerID).Scan(&before, &reachedAt)
	if err != nil && !noRows(err) {
		return nil, err
	}
	deltas := map[counterCell]int32{}
	writes := &pgx.Batch{}
	switch {
	case score == nil && before == nil:
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "player %q has no score in %s", playerID, m)
	case score == nil:
		deltas[cellOf(m, *before, reachedAt)]--
		writes.Queue(`DELETE FROM scores WHERE month = $1 AND player_id = $2`, m.Date(), playerID)
		writes.Queue(`INSERT INTO board_removed_players (period_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			period, playerID)
	case before != nil && *before == *score:
		// The total stands: nothing moves, the correction is still recorded.
	default:
		if before != nil {
			deltas[cellOf(m, *before, reachedAt)]--
		}
		deltas[cellOf(m, *score, now)]++
		writes.Queue(`INSERT INTO players (id) VALUES ($1) ON CONFLICT DO NOTHING`, playerID)
		writes.Queue(`INSERT INTO scores (month, player_id, score, reached_at, seq)
			VALUES ($1, $2, $3, $4, nextval('score_seq'))
			ON CONFLICT (month, player_id) DO UPDATE SET score = EXCLUDED.score, reached_at = EXCLUDED.reached_at, seq = EXCLUDED.seq`,
			m.Date(), playerID, *score, now)
		// A score given back by an admin lets the player's events count again.
		writes.Queue(`DELETE FROM board_removed_players WHERE period_id = $1 AND player_id = $2`, period, playerID)
	}
	queueCounterDeltas(writes, deltas)
	if err := tx.SendBatch(ctx, writes).Close(); err != nil {
		return nil, err
	}
	return before, nil
}

// rebuildFinalRanks builds the next version of closed month m's final ranks
// from its corrected scores, beside the version in use, as a correction of
// any period with final ranks of their own does (attachOwnFinalRanks), swaps
// it in, and records and announces the change with the claims it changed.
// id is the month's period.
func (db *DB) rebuildFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month, id int32, version int,
	closedAt time.Time, settlement bool, c *leaderboard.Correction) error {
	next := version + 1
	ranks, err := db.buildFinalRanks(ctx, tx, m, id, next, leaderboard.CloseHooks{}, nil)
	if err != nil {
		return err
	}
	var changed []changedClaim
	if settlement {
		// main's tiers, by which its claims were given theirs. Read from the
		// new version before the swap, which holds the readers of final
		// ranks of their own until the commit.
		mainBoard, err := db.Board(ctx, leaderboard.MainBoard)
		if err != nil {
			return err
		} else if mainBoard == nil {
			return errorf("board %s is missing", leaderboard.MainBoard)
		}
		changed, err = changedMonthClaims(ctx, tx, mainBoard, m, ownPartition(id, next), int(ranks.participants))
		if err != nil {
			return err
		}
	}
	if err := attachOwnFinalRanks(ctx, tx, id, next); err != nil {
		return errorf("swap final ranks: %w", err)
	}
	update := `UPDATE periods m SET participants = $2, digest = $3, ranks_version = $4 WHERE ` + mainPeriodOf("m", "$1")
	if _, err := tx.Exec(ctx, update, m.Date(), ranks.participants, ranks.digest, next); err != nil {
		return err
	}
	if settlement {
		msg := monthMessage{Type: messageCorrected, Month: m.String(), ClosedAt: closedAt,
			Participants: ranks.participants, Digest: ranks.digest, Top: ranks.top,
			Correction:    messageCorrectOf(c),
			ChangedClaims: changed}
		if err := insertMessage(ctx, tx, m, msg); err != nil {
			return err
		}
	}
	return notifyMonth(ctx, tx, m, next)
}

// monthCorrections lists month m's corrections, oldest first.
func (db *DB) monthCorrections(ctx context.Context, m leaderboard.Month) ([]leaderboard.Correction, error) {
	q := `SELECT id, COALESCE(player_id, ''), score_before, score_after, reason, at, erasure_id::text
		FROM corrections c WHERE c.board_id = 'main'
		AND c.period_id = (SELECT m.id FROM periods m WHERE ` + mainPeriodOf("m", "$1") + `) ORDER BY id`
	rows, err := db.pool.Query(ctx, q, m.Date())
	if err != nil {
		return nil, errorf("list corrections of %s: %w", m, err)
	}
	out := []leaderboard.Correction{}
	var (
		c  leaderboard.Correction
		id int64
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &c.PlayerID, &c.Before, &c.After, &c.Reason, &c.At, &c.Erasure}, func() error {
		c.ID, c.Board, c.Period, c.Month = strconv.FormatInt(id, 10), leaderboard.MainBoard, m.String(), m
		out = append(out, c)
		c = leaderboard.Correction{}
		return nil
	})
	if err != nil {
		return nil, errorf("list corrections of %s: %w", m, err)
	}
	return out, nil
}
