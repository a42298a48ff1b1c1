package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

// eraseFromPeriod erases playerID from period p of a board, main's months
// among them, for erasure id: it fences the player in p unless p was CLOSED
// (erasurefence.go), then erases them in one transaction, which scans p's
// events first and then holds the period's row FOR UPDATE (as a correction
// does); a CLOSED period's new ranks version is announced to every instance
// at its commit. ECONFLICT while the period is CLOSING, or when an admin's
// correction lifted the fence since.
func (db *DB) eraseFromPeriod(ctx context.Context, id int64, p erasurePeriod, playerID string, boards *boardsOfRun) error {
	pid, fenced := p.id, false
	if !p.closed {
		var err error
		if fenced, err = db.fencePeriod(ctx, pid, playerID); err != nil {
			return err
		}
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const scrubEvents = `UPDATE board_score_events SET player_id = $3, value = 0, subscore = NULL, old_score = NULL, new_score = 0
			WHERE period_id = $1 AND player_id = $2`
		scrubbed, err := beginErasureStep(ctx, tx, scrubEvents, pid, playerID, erasedPlayer)
		if err != nil {
			return err
		}
		var (
			board, key, status string
			hasScore, marked   bool
		)
		const read = `SELECT board_id, key, status, EXISTS (SELECT 1 FROM board_scores WHERE period_id = $1 AND player_id = $2),
				EXISTS (SELECT 1 FROM board_removed_players WHERE period_id = $1 AND player_id = $2)
			FROM periods WHERE id = $1 FOR UPDATE`
		if err := tx.QueryRow(ctx, read, pid, playerID).Scan(&board, &key, &status, &hasScore, &marked); noRows(err) {
			return nil // dropped by retention since it was listed
		} else if err != nil {
			return err
		}
		if leaderboard.PeriodStatus(status) == leaderboard.PeriodClosing {
			return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s is closing: erase again once it is CLOSED", key, board)
		}
		if fenced && !marked {
			return fenceLifted(key, board)
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
		if hasScore {
			b, err := boards.get(ctx, board)
			if err != nil {
				return err
			}
			if _, err := db.correctPeriodTx(ctx, tx, b, key, playerID, nil, leaderboard.ErasureReason, &id); err != nil {
				return err
			}
		}
		rest := erasureRest{id: id, player: playerID, touched: tag.RowsAffected() > 0 || hasScore || scrubbed,
			corrected: hasScore && leaderboard.PeriodStatus(status) == leaderboard.PeriodClosed}
		return rest.run(ctx, tx, `period_id = $1`, pid, []scrub{
			// Their cohort keeps one member fewer; its place is not given again
			// (period_cohort_fill keeps its count), as when a player moves out.
			{`DELETE FROM cohort_members WHERE period_id = $1 AND player_id = $2`, []any{pid, playerID}},
			{`UPDATE corrections SET player_id = NULL, erasure_id = $3, reason = $4 WHERE period_id = $1 AND player_id = $2`,
				[]any{pid, playerID, id, leaderboard.ErasureReason}},
		})
	})
}

// fenceLifted is the error of an erasure step that finds the fence it
// placed gone: an admin's correction gave the player a score in period key
// of board since, and events of theirs may have come after the step's scan
// of the events. The step is rolled back; the next run fences again.
func fenceLifted(key, board string) error {
	return leaderboard.Errorf(leaderboard.ECONFLICT,
		"period %s of %s: an admin's correction gave the player a score during the erasure: erase again", key, board)
}

// erasureRest is what is left of one period's erasure once the claim and
// the score row went: the rows that name the player to scrub, and the
// count.
type erasureRest struct {
	id        int64
	player    string
	touched   bool // the claim or the score row went
	corrected bool // a CLOSED period was ranked again
}

// scrub is a statement that removes or rewrites the player's rows of one
// period, with its arguments.
type scrub struct {
	q    string
	args []any
}

// run runs scrubs in one round trip, with the count when the period is known to have held the player; then scrubs the
// kept messages of the period, those of the outbox rows that match where
// ($1: period), and counts the period if they alone held the player.
func (r erasureRest) run(ctx context.Context, tx pgx.Tx, where string, period any, scrubs []scrub) error {
	writes := &pgx.Batch{}
	for _, s := range scrubs {
		writes.Queue(s.q, s.args...).Exec(func(tag pgconn.CommandTag) error {
			r.touched = r.touched || tag.RowsAffected() > 0
			return nil
		})
	}
	counted := r.touched
	if counted {
		queueCount(writes, r.id, r.corrected)
	}
	if err := tx.SendBatch(ctx, writes).Close(); err != nil {
		return err
	}
	scrubbed, err := scrubMessages(ctx, tx, where, period, r.player, r.id)
	if err != nil {
		return err
	}
	if counted || !(r.touched || scrubbed) {
		return nil
	}
	writes = &pgx.Batch{}
	queueCount(writes, r.id, r.corrected)
	return tx.SendBatch(ctx, writes).Close()
}

// erasureStepSQL readies the transaction of one period's erasure: a long
// job's timeouts, and a commit that does not wait for its flush. A step
// lost in a crash is lost whole, its audit row's counts with it, and the
// erasure is then still RUNNING: the next run does it again. The erasure's
// last transaction (finishErasure) waits for its flush, and so for every
// step's.
const erasureStepSQL = `SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '1min', true),
	set_config('synchronous_commit', 'off', true)`

// erasureStep readies tx as erasureStepSQL says.
func erasureStep(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, erasureStepSQL)
	return err
}

// beginErasureStep readies tx as erasureStep does and, in the same round
// trip, runs scrubEvents with args: the scan of one period's events that
// has the player's keep only their ids, made before the step takes any
// lock that submissions wait on (erasurefence.go says why nothing can add
// an event of theirs behind it). It reports whether any was scrubbed.
func beginErasureStep(ctx context.Context, tx pgx.Tx, scrubEvents string, args ...any) (bool, error) {
	b := &pgx.Batch{}
	b.Queue(erasureStepSQL)
	scrubbed := false
	b.Queue(scrubEvents, args...).Exec(func(tag pgconn.CommandTag) error {
		scrubbed = tag.RowsAffected() > 0
		return nil
	})
	return scrubbed, tx.SendBatch(ctx, b).Close()
}
