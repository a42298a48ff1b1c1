package db

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Corrections of the periods of every board, main's months among them. A
// correction is one transaction that takes the period's
// row FOR UPDATE: it waits for the submissions in flight, which hold the
// row FOR SHARE, and a close, which takes it FOR UPDATE too, runs wholly
// before or after it. On a CLOSED period whose final ranks share their
// month's partition, the transaction also deletes the period's final ranks
// and ranks its corrected scores again into the same partition (a removal
// on a board without cohorts deletes the player's rank and moves those
// below up by one instead): a reader sees the old ranks or the new ones,
// never a mix, and a period of a small board is ranked in milliseconds. A
// period whose final ranks have a partition of their own gets the next
// version of them built beside the one in use and swapped in
// (attachOwnFinalRanks): rewritten in place, a ten-million-row
// partition kept its index row by row. main's answers keep the month
// contract's words (month 2026-11, not period 2026-11 of main).

// CorrectScore sets playerID's total in period key of board to
// *score (within the board's bounds; the player's subscore and metadata
// kept, reached at the time of the correction), or removes the player from
// the period when score is nil (their later events for it are then
// REJECTED with FORBIDDEN), and records the correction with its reason. On a
// CLOSED period it rebuilds the final ranks, bumps their version, records
// the new participants and digest and, with settlement on, a
// period.corrected message (month.corrected on a MONTH board) that lists the
// claims whose rank, score or tier it changed (changedclaims.go); the
// claims are kept. main's periods are its months, checked as the month
// contract has it: the key, then the score, then the reason. EBADINPUT for
// a score outside the board's bounds, a bad reason or a key that is not the
// board's; ENOTFOUND for an unknown board, a period no event opened, or a
// player to remove who has no score; ECONFLICT while the period is CLOSING.
func (db *DB) CorrectScore(ctx context.Context, board, key, playerID string, score *int, reason string) (*leaderboard.Correction, error) {
	if board == leaderboard.MainBoard {
		if _, err := leaderboard.ParseMainKey(key); err != nil {
			return nil, err
		}
		if score != nil && (*score < leaderboard.MinScore || *score > leaderboard.MaxScore) {
			return nil, leaderboard.OutOfRange(*score)
		}
	}
	if err := leaderboard.CheckReason(reason); err != nil {
		return nil, err
	}
	b, err := db.boardWithKey(ctx, board, key)
	if err != nil {
		return nil, err
	}
	if score != nil {
		if err := b.CheckTotal(*score); err != nil {
			return nil, err
		}
	}
	var c *leaderboard.Correction
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		c, err = db.correctPeriodTx(ctx, tx, b, key, playerID, score, reason, nil)
		return err
	})
	if err != nil {
		return nil, errorf("correct %q in period %s of %s: %w", playerID, key, board, err)
	}
	return c, nil
}

// boardWithKey returns board having checked that key is one of its periods'
// keys.
func (db *DB) boardWithKey(ctx context.Context, board, key string) (*leaderboard.Board, error) {
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, err
	}
	if _, err := b.PeriodSpan(key); err != nil {
		return nil, err
	}
	return b, nil
}

// closedPeriodRow is what a correction reads of a period's row.
type closedPeriodRow struct {
	periodRow
	closedAt     *time.Time
	bucket       *time.Time // the partition of its final ranks, once CLOSED
	participants *int       // its final ranks' count, once CLOSED
	version      int        // the version of its final ranks (ranks_version)
}

// correctPeriodTx corrects playerID's total in period key of b, as
// CorrectScore says, in tx. With erasure set, the correction is that
// erasure's removal of the player (erasure.go), in a transaction
// erasureStep readied: it records and announces the erasure instead of the
// player, and not the total before; the erasure deletes the removal marker
// it leaves.
func (db *DB) correctPeriodTx(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, key, playerID string, score *int,
	reason string, erasure *int64) (*leaderboard.Correction, error) {
	// An erasure's step set its timeouts already (erasureStep).
	if erasure == nil {
		if err := longJob(ctx, tx); err != nil {
			return nil, err
		}
	}
	const lockPeriod = `SELECT id, status, starts_at, ends_at, closed_at, final_bucket, participants, ranks_version
		FROM periods WHERE board_id = $1 AND key = $2 FOR UPDATE`
	var (
		row    = closedPeriodRow{periodRow: periodRow{key: key}}
		status string
	)
	err := tx.QueryRow(ctx, lockPeriod, b.ID, key).Scan(&row.id, &status, &row.startsAt, &row.endsAt, &row.closedAt, &row.bucket,
		&row.participants, &row.version)
	if noRows(err) {
		return nil, periodHasNoScores(b.ID, key)
	} else if err != nil {
		return nil, err
	}
	row.status = leaderboard.PeriodStatus(status)
	if row.status == leaderboard.PeriodClosing {
		if b.ID == leaderboard.MainBoard {
			return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is closing: correct it once it is CLOSED", key)
		}
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s is closing: correct it once it is CLOSED", key, b.ID)
	}
	var removed *removal
	if row.status == leaderboard.PeriodClosed && score == nil && !b.HasCohorts() && !row.bucket.Equal(ownBucket) {
		if removed, err = removalOf(ctx, tx, &row, playerID); err != nil {
			return nil, err
		}
	}
	now := db.now()
	before, err := correctBoardRow(ctx, tx, b, &row.periodRow, playerID, score, now)
	if err != nil {
		return nil, err
	}
	c := &leaderboard.Correction{Board: b.ID, Period: key, Month: b.MonthOfPeriod(key, row.startsAt),
		PlayerID: playerID, Before: before, After: score, Reason: reason}
	recorded := &playerID
	if erasure != nil {
		c.PlayerID, c.Before, c.Erasure, recorded = "", nil, new(strconv.FormatInt(*erasure, 10)), nil
	}
	const record = `INSERT INTO corrections (board_id, period_id, player_id, score_before, score_after, reason, at, erasure_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, at`
	var id int64
	if err := tx.QueryRow(ctx, record, b.ID, row.id, recorded, c.Before, score, reason, now, erasure).Scan(&id, &c.At); err != nil {
		return nil, err
	}
	c.ID = strconv.FormatInt(id, 10)
	if row.status != leaderboard.PeriodClosed {
		return c, nil
	}
	return c, db.rerankPeriod(ctx, tx, b, &row, c, removed)
}

// removal is a player a correction removes from a CLOSED period, with their
// final rank.
type removal struct {
	player string
	rank   int32
}

// removalOf returns playerID's final rank in closed period row, whose final
// ranks share their month's partition, nil when they have none: by the
// player index of the partition.
func removalOf(ctx context.Context, tx pgx.Tx, row *closedPeriodRow, playerID string) (*removal, error) {
	const q = `SELECT rank FROM board_final_ranks WHERE bucket = $1 AND period_id = $2 AND player_id = $3`
	r := &removal{player: playerID}
	err := tx.QueryRow(ctx, q, *row.bucket, row.id, playerID).Scan(&r.rank)
	if noRows(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return r, nil
}

// correctBoardRow sets or removes playerID's row in period row of b, and
// returns the total before.
func correctBoardRow(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, playerID string, score *int,
	now time.Time) (*int, error) {
	const lockRow = `SELECT score, subscore, reached_at FROM board_scores WHERE period_id = $1 AND player_id = $2 FOR UPDATE`
	var (
		before, subscore *int
		reachedAt        time.Time
	)
	if err := tx.QueryRow(ctx, lockRow, row.id, playerID).Scan(&before, &subscore, &reachedAt); err != nil && !noRows(err) {
		return nil, err
	}
	writes := &pgx.Batch{}
	if before == nil && score != nil && b.HasCohorts() && row.status == leaderboard.PeriodOpen {
		// A first standing given by an admin joins a cohort, as a first
		// applied event does.
		player := newCohortPlayer{key: boardRowKey{periodRef: periodRef{board: b.ID, key: row.key}, player: playerID},
			periodID: row.id}
		if err := assignCohorts(ctx, tx, writes, map[string]*leaderboard.Board{b.ID: b}, []newCohortPlayer{player}); err != nil {
			return nil, err
		}
	}
	// The row's counters move with it (rankcounts.go).
	counts := newRankDeltas()
	if before != nil && (score == nil || *score != *before) {
		counts.countRow(b, row.id, leaderboard.BoardRow{Score: *before, Subscore: subscore, ReachedAt: reachedAt}, -1)
	}
	switch {
	case score == nil && before == nil && b.ID == leaderboard.MainBoard:
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "player %q has no score in %s", playerID, row.key)
	case score == nil && before == nil:
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "player %q has no score in period %s of %s", playerID, row.key, b.ID)
	case score == nil:
		writes.Queue(`DELETE FROM board_scores WHERE period_id = $1 AND player_id = $2`, row.id, playerID)
		writes.Queue(`INSERT INTO board_removed_players (period_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			row.id, playerID)
	case before != nil && *before == *score:
		// The total stands: nothing moves, the correction is still recorded.
	default:
		sortScore, sortSubscore := b.SortKey(*score, subscore)
		writes.Queue(`INSERT INTO players (id) VALUES ($1) ON CONFLICT DO NOTHING`, playerID)
		writes.Queue(`INSERT INTO board_scores (period_id, player_id, score, sort_score, sort_subscore, reached_at, seq)
			VALUES ($1, $2, $3, $4, $5, $6, nextval('score_seq'))
			ON CONFLICT (period_id, player_id) DO UPDATE SET score = EXCLUDED.score, sort_score = EXCLUDED.sort_score,
				sort_subscore = EXCLUDED.sort_subscore, reached_at = EXCLUDED.reached_at, seq = EXCLUDED.seq`,
			row.id, playerID, *score, sortScore, sortSubscore, now)
		counts.countRow(b, row.id, leaderboard.BoardRow{Score: *score, Subscore: subscore, ReachedAt: now}, 1)
		// A score given back by an admin lets the player's events count again.
		writes.Queue(`DELETE FROM board_removed_players WHERE period_id = $1 AND player_id = $2`, row.id, playerID)
	}
	counts.queue(writes)
	if err := tx.SendBatch(ctx, writes).Close(); err != nil {
		return nil, err
	}
	if err := counts.writeSparseCells(ctx, tx); err != nil {
		return nil, err
	}
	return before, nil
}

// rerankPeriod replaces closed period row of b's final ranks with its
// corrected scores ranked again, in the transaction of correction c, and
// records the new participants, digest and version, and the message with
// the claims the correction changed. removed is the player c removed from
// a board without cohorts, with their final rank, nil otherwise: their rank
// alone goes and the ranks below move up by one (shiftOutFinalRank), which
// is what ranking the scores again writes, the rest of the rows kept.
// Final ranks of their own are ranked again into their next version, which
// replaces the one in use (rankPeriod).
func (db *DB) rerankPeriod(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *closedPeriodRow,
	c *leaderboard.Correction, removed *removal) error {
	// The claims in flight commit first; those after read the new ranks.
	if err := lockPeriodClaims(ctx, tx, row.id); err != nil {
		return err
	}
	ranks, err := shiftOutFinalRank(ctx, tx, b, row, removed)
	if err != nil {
		return err
	}
	if ranks == nil && !row.bucket.Equal(ownBucket) {
		const drop = `DELETE FROM board_final_ranks WHERE bucket = $1 AND period_id = $2`
		if _, err := tx.Exec(ctx, drop, *row.bucket, row.id); err != nil {
			return err
		}
	}
	if ranks == nil {
		if ranks, err = rankPeriod(ctx, tx, b, row.id, *row.bucket, 0, row.version+1, nil, nil); err != nil {
			return err
		}
	}
	if err := rerankCohorts(ctx, tx, b, &row.periodRow, *row.bucket, ranks); err != nil {
		return err
	}
	writes := &pgx.Batch{}
	const update = `UPDATE periods SET participants = $3, digest = $4, ranks_version = ranks_version + 1
		WHERE board_id = $1 AND id = $2`
	writes.Queue(update, b.ID, row.id, ranks.participants, ranks.digest)
	writes.Queue(announcePeriodSQL, row.id)
	if db.settlement {
		correction := messageCorrectOf(c)
		if correction.changedClaims, err = changedClaims(ctx, tx, b, row, ranks.participants); err != nil {
			return err
		}
		msg, err := periodMessageOf(b, &row.periodRow, *row.closedAt, ranks, correction)
		if err != nil {
			return err
		}
		queueMessage(writes, b.ID, row.id, msg)
	}
	return tx.SendBatch(ctx, writes).Close()
}

// shiftOutFinalRank ranks closed period row of b again once removed's score
// row went, when b has no cohorts and the removal is the only change: the
// scores left, read and ranked as rankPeriod reads them, are one fewer than
// the final ranks. It then deletes removed's final rank and moves every
// rank below it up by one in one statement (the rows below deleted and
// written again, rank order kept), and returns the ranking, as rankPeriod's.
// It returns nil, having written nothing, otherwise: a full re-rank is due.
func shiftOutFinalRank(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *closedPeriodRow,
	removed *removal) (*rankedPeriod, error) {
	if removed == nil || b.HasCohorts() || row.participants == nil {
		return nil, nil
	}
	rows, err := readRankedRows(ctx, tx, periodSource(row.id, withBoardColumns, *row.participants))
	if err != nil {
		return nil, fmt.Errorf("rank the scores: %w", err)
	}
	if rows.len() != *row.participants-1 {
		return nil, nil
	}
	// The sort takes every row deleted before the first is written again:
	// no new rank meets an old one in the primary key.
	table := finalRanksPartition(*row.bucket)
	shift := `WITH gone AS (
			DELETE FROM ` + table + ` WHERE bucket = $1 AND period_id = $2 AND rank >= $4
			RETURNING *),
		moved AS (
			INSERT INTO ` + table + ` (bucket, period_id, rank, player_id, score, subscore, reached_at, metadata,
				cohort_rank, cohort_size, next_league)
			SELECT bucket, period_id, rank - 1, player_id, score, subscore, reached_at, metadata,
				cohort_rank, cohort_size, next_league
			FROM gone WHERE player_id <> $3 ORDER BY rank
			RETURNING 1)
		SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM moved)`
	var gone, moved int64
	if err := tx.QueryRow(ctx, shift, *row.bucket, row.id, removed.player, removed.rank).Scan(&gone, &moved); err != nil {
		return nil, fmt.Errorf("shift the final ranks: %w", err)
	}
	if gone == 0 {
		return nil, nil // removed had no final rank: nothing was written
	}
	if gone != moved+1 {
		return nil, fmt.Errorf("shifted %d of %d final ranks out of period %d", moved, gone, row.id)
	}
	return rankingOf(ctx, tx, b, rows, nil)
}

// Corrections lists the corrections of period key of board, oldest first:
// clearPeriod's with Cleared set and no player; main's periods are its
// months. None for a period no event opened. EBADINPUT for a key that is not
// the board's; ENOTFOUND for an unknown board.
func (db *DB) Corrections(ctx context.Context, board, key string) ([]leaderboard.Correction, error) {
	if board == leaderboard.MainBoard {
		if _, err := leaderboard.ParseMainKey(key); err != nil {
			return nil, err
		}
	}
	b, err := db.boardWithKey(ctx, board, key)
	if err != nil {
		return nil, err
	}
	const q = `SELECT c.id, c.player_id, c.score_before, c.score_after, c.reason, c.at, p.starts_at, c.erasure_id::text
		FROM periods p JOIN corrections c ON c.period_id = p.id AND c.board_id = p.board_id
		WHERE p.board_id = $1 AND p.key = $2 ORDER BY c.id`
	rows, err := db.pool.Query(ctx, q, b.ID, key)
	if err != nil {
		return nil, errorf("list corrections of period %s of %s: %w", key, board, err)
	}
	out := []leaderboard.Correction{}
	var (
		c        leaderboard.Correction
		id       int64
		player   *string
		startsAt time.Time
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &player, &c.Before, &c.After, &c.Reason, &c.At, &startsAt, &c.Erasure}, func() error {
		c.ID, c.Board, c.Period, c.Month = strconv.FormatInt(id, 10), b.ID, key, b.MonthOfPeriod(key, startsAt)
		switch {
		case player != nil:
			c.PlayerID = *player
		case c.Erasure != nil:
			// An erased player's correction: no player, and no clear.
		default:
			c.Cleared = true
		}
		out = append(out, c)
		c = leaderboard.Correction{}
		return nil
	})
	if err != nil {
		return nil, errorf("list corrections of period %s of %s: %w", key, board, err)
	}
	return out, nil
}

// periodHasNoScores is the ENOTFOUND of period key of board, which no event
// opened: in the month contract's words on main.
func periodHasNoScores(board, key string) *leaderboard.Error {
	if board == leaderboard.MainBoard {
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", key)
	}
	return leaderboard.Errorf(leaderboard.ENOTFOUND, "period %s of %s has no scores", key, board)
}
