package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// A storm of due periods (ten thousand daily boards closing at midnight) is
// closed in groups: one transaction ranks, digests, marks CLOSED and records
// the settlement messages of up to a hundred periods, in six round trips and
// one commit, where closing them one by one costs eleven round trips and a
// commit each. The guarantees are the single close's: each period's close
// lock (the same advisory lock, tried, so that another instance's periods
// are skipped), its row FOR UPDATE, the CLOSED check after it, and the
// ranks, digest, status and message committed together or not at all.

// groupPeriod is a period of a group close: its row and its board.
type groupPeriod struct {
	board *leaderboard.Board
	row   periodRow
	// bucket is its final ranks' partition key, as of the group's start.
	bucket time.Time
	// large says the period has groupMaxPlayers players or more.
	large bool
}

// groupMaxPlayers is the fewest players of a period that is closed on its
// own rather than in a group: a group's one statement ranked a million-player
// season in 16.3 s where closePeriod took 5 to 8 s (issue 37), and a close of
// its own ranks by binary COPY (rankPeriod), while the group spares a small
// period rankPeriod's round trips. Counting up to it reads at most that many
// index entries a period.
const groupMaxPlayers = 10_000

// TryClosePeriods closes the periods named by due (their Board and Key),
// many in one transaction, skipping those whose close lock another
// transaction holds (another instance closing them) and those CLOSED
// already. It returns the periods it closed, with their Board, Key, Status,
// StartsAt, EndsAt, ClosedAt, Participants and Digest only. A period whose
// row a submission in flight holds is closed on its own once the group has
// committed, waiting for the submission as ClosePeriod does; so is a period
// of groupMaxPlayers players or more. When the
// group's transaction fails, its periods are closed one by one, so that one
// bad period cannot hold back the others; the error then says which failed.
func (db *DB) TryClosePeriods(ctx context.Context, due []leaderboard.Period) ([]leaderboard.Period, error) {
	err := db.closePhase.start(ctx, "group read")
	var loaded []*groupPeriod
	if err == nil {
		loaded, err = db.loadGroup(ctx, due)
	}
	if err != nil {
		return db.closeOneByOne(ctx, due, fmt.Errorf("read the group: %w", err))
	}
	var (
		group  []*groupPeriod
		closed []leaderboard.Period
		busy   []*groupPeriod
	)
	for _, p := range loaded {
		if p.large {
			busy = append(busy, p)
		} else {
			group = append(group, p)
		}
	}
	if len(group) > 0 {
		var held []*groupPeriod
		closed, held, err = db.closeGroup(ctx, group)
		if err == nil {
			err = db.closePhase.start(ctx, "group closed")
		}
		if err != nil {
			return db.closeOneByOne(ctx, due, err)
		}
		busy = append(busy, held...)
	}
	var errs []error
	for _, p := range busy {
		c, ran, err := db.TryClosePeriod(ctx, p.board.ID, p.row.key)
		switch {
		case err != nil:
			errs = append(errs, err)
		case ran:
			closed = append(closed, *c)
		}
	}
	return closed, errors.Join(errs...)
}

// closeGroup closes group in one transaction, as closeGroupTx does.
func (db *DB) closeGroup(ctx context.Context, group []*groupPeriod) (closed []leaderboard.Period, busy []*groupPeriod, err error) {
	err = db.closePhase.start(ctx, "group partition")
	if err == nil {
		err = db.ensureGroupPartitions(ctx, group)
	}
	if err == nil {
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			var err error
			if closed, busy, err = db.closeGroupTx(ctx, tx, group); err != nil {
				return err
			}
			return db.closePhase.start(ctx, "group commit")
		})
	}
	if err != nil {
		for _, p := range group {
			// Retention may have dropped a bucket's partition: look again.
			db.finalBuckets.Delete(p.bucket)
		}
		return nil, nil, fmt.Errorf("close a group of %d periods: %w", len(group), err)
	}
	return closed, busy, nil
}

// closeOneByOne closes due with TryClosePeriod, one at a time, after the
// group's close failed with why: it returns those closed and, when some
// failed, why the group failed and why each of those did.
func (db *DB) closeOneByOne(ctx context.Context, due []leaderboard.Period, why error) ([]leaderboard.Period, error) {
	var (
		closed []leaderboard.Period
		errs   []error
	)
	for _, d := range due {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		p, ran, err := db.TryClosePeriod(ctx, d.Board, d.Key)
		switch {
		case err != nil:
			errs = append(errs, err)
		case ran:
			closed = append(closed, *p)
		}
	}
	if len(errs) > 0 {
		return closed, errors.Join(append([]error{why}, errs...)...)
	}
	return closed, nil
}

// loadGroup reads, in one round trip, the rows of the periods of due that
// are not CLOSED, and their boards: those whose board or row is gone are
// left out.
func (db *DB) loadGroup(ctx context.Context, due []leaderboard.Period) ([]*groupPeriod, error) {
	boardIDs, keys := make([]string, 0, len(due)), make([]string, 0, len(due))
	for _, d := range due {
		boardIDs, keys = append(boardIDs, d.Board), append(keys, d.Key)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	reads := &pgx.Batch{}
	boards := map[string]*leaderboard.Board{}
	reads.Queue(boardsByIDSQL, boardIDs).Query(db.scanBoardsInto(boards))
	var group []*groupPeriod
	const periods = `SELECT p.board_id, p.id, p.key, p.status, p.starts_at, p.ends_at,
			(SELECT count(*) FROM (SELECT FROM board_scores s WHERE s.period_id = p.id LIMIT $3) s) = $3
		FROM unnest($1::text[], $2::text[]) AS w(board_id, key) JOIN periods p USING (board_id, key)
		WHERE p.status <> 'CLOSED'`
	now := db.now()
	reads.Queue(periods, boardIDs, keys, groupMaxPlayers).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var (
				board string
				p     groupPeriod
			)
			if err := rows.Scan(&board, &p.row.id, &p.row.key, &p.row.status, &p.row.startsAt, &p.row.endsAt,
				&p.large); err != nil {
				return err
			}
			if p.board = boards[board]; p.board != nil {
				p.bucket = finalBucket(p.board, p.row.endsAt, now)
				group = append(group, &p)
			}
		}
		return rows.Err()
	})
	if err := db.pool.SendBatch(ctx, reads).Close(); err != nil {
		return nil, err
	}
	return group, nil
}

// ensureGroupPartitions makes the final ranks partitions of group's buckets
// that are missing, each in a transaction of its own.
func (db *DB) ensureGroupPartitions(ctx context.Context, group []*groupPeriod) error {
	seen := map[time.Time]bool{}
	for _, p := range group {
		if !seen[p.bucket] {
			seen[p.bucket] = true
			if err := db.ensureFinalRanksPartition(ctx, p.bucket); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeGroupTx is the group close's transaction: it closes the periods of
// group whose close lock and row it takes without waiting, and returns
// them, and those whose close lock it took but whose row a submission in
// flight holds (busy), left for ClosePeriod's wait.
func (db *DB) closeGroupTx(ctx context.Context, tx pgx.Tx, group []*groupPeriod) (closed []leaderboard.Period,
	busy []*groupPeriod, err error) {
	if err := db.closePhase.start(ctx, "group lock"); err != nil {
		return nil, nil, err
	}
	mine, busy, err := lockGroup(ctx, tx, group)
	if err != nil || len(mine) == 0 {
		return nil, busy, err
	}
	closedAt := db.now()
	ids, buckets := make([]int32, len(mine)), make([]time.Time, len(mine))
	for i, p := range mine {
		// p.bucket stays the one whose partition was made for the group.
		ids[i], buckets[i] = p.row.id, p.bucket
	}
	if err := db.closePhase.start(ctx, "group rank"); err != nil {
		return nil, nil, err
	}
	ranks, err := rankGroup(ctx, tx, mine, ids, buckets)
	if err == nil {
		err = db.closePhase.start(ctx, "group cohorts")
	}
	if err != nil {
		return nil, nil, err
	}
	var (
		boardIDs     = make([]string, len(mine))
		participants = make([]int32, len(mine))
		digests      = make([]string, len(mine))
		messages     groupMessages
	)
	for i, p := range mine {
		r := ranks[i]
		boardIDs[i], participants[i], digests[i] = p.board.ID, int32(r.participants), r.digest
		if err := closeCohorts(ctx, tx, p.board, &p.row, p.bucket, r); err != nil {
			return nil, nil, err
		}
		if db.settlement {
			msg, err := periodMessageOf(p.board, &p.row, closedAt, r, nil)
			if err != nil {
				return nil, nil, err
			}
			messages.add(p.board.ID, p.row.id, msg)
		}
		closed = append(closed, leaderboard.Period{Board: p.board.ID, Key: p.row.key, Status: leaderboard.PeriodClosed,
			StartsAt: p.row.startsAt, EndsAt: p.row.endsAt, ClosedAt: &closedAt, Participants: r.participants, Digest: r.digest})
	}
	if err := db.closePhase.start(ctx, "group mark"); err != nil {
		return nil, nil, err
	}
	writes := &pgx.Batch{}
	const markClosed = `UPDATE periods p SET status = 'CLOSED', closed_at = $1, participants = u.participants,
			digest = u.digest, ranks_version = 1, final_bucket = u.bucket
		FROM unnest($2::text[], $3::integer[], $4::integer[], $5::text[], $6::date[]) AS u(board_id, id, participants, digest, bucket)
		WHERE p.board_id = u.board_id AND p.id = u.id`
	writes.Queue(markClosed, closedAt, boardIDs, ids, participants, digests, buckets)
	if db.settlement {
		const record = `INSERT INTO outbox (id, type, board_id, period_id, body)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::text[])`
		writes.Queue(record, messages.ids, messages.types, messages.boards, messages.periods, messages.bodies)
	}
	if err := tx.SendBatch(ctx, writes).Close(); err != nil {
		return nil, nil, err
	}
	return closed, busy, nil
}

// groupMessages are the settlement messages of a group, column by column,
// to be recorded by one INSERT ... SELECT FROM unnest.
type groupMessages struct {
	ids, types, boards, bodies []string
	periods                    []int32
}

func (m *groupMessages) add(board string, period int32, msg outboxMessage) {
	m.ids, m.types, m.boards = append(m.ids, msg.id), append(m.types, msg.typ), append(m.boards, board)
	m.periods, m.bodies = append(m.periods, period), append(m.bodies, string(msg.body))
}

// lockGroup takes, in one statement, the close lock of each period of
// group that no other transaction holds, then the rows of those FOR UPDATE
// SKIP LOCKED. It returns the periods it holds both of, read again under
// the row lock, but those found CLOSED; and busy, those whose row a
// submission in flight holds FOR SHARE. Neither lock waits, so that groups
// of two instances cannot deadlock whatever their periods, nor with
// submissions that lock several periods.
func lockGroup(ctx context.Context, tx pgx.Tx, group []*groupPeriod) (mine, busy []*groupPeriod, err error) {
	// The settings are longJob's, sent with the locks in one round trip: a
	// group's close may take longer than a request's statement timeout.
	locks := &pgx.Batch{}
	locks.Queue(`SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '1min', true)`)
	boardIDs, ids := make([]string, len(group)), make([]int32, len(group))
	byID := make(map[int32]*groupPeriod, len(group))
	for i, p := range group {
		boardIDs[i], ids[i] = p.board.ID, p.row.id
		byID[p.row.id] = p
	}
	// mine is materialized so that the try-locks are taken on the group's
	// periods only, whatever plan the rows' lookup gets.
	const q = `WITH mine AS MATERIALIZED (
			SELECT u.board_id, u.id FROM unnest($1::text[], $2::integer[]) AS u(board_id, id)
			WHERE pg_try_advisory_xact_lock($3, u.id)
		), held AS MATERIALIZED (
			SELECT p.id, p.status, p.starts_at, p.ends_at FROM periods p JOIN mine m ON p.board_id = m.board_id AND p.id = m.id
			FOR UPDATE OF p SKIP LOCKED
		)
		SELECT m.id, h.id IS NOT NULL, COALESCE(h.status, ''), h.starts_at, h.ends_at FROM mine m LEFT JOIN held h ON h.id = m.id
		ORDER BY m.id`
	locks.Queue(q, boardIDs, ids, periodCloseLockClass).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var (
				id       int32
				held     bool
				status   string
				startsAt *time.Time
				endsAt   *time.Time
			)
			if err := rows.Scan(&id, &held, &status, &startsAt, &endsAt); err != nil {
				return err
			}
			p := byID[id]
			switch {
			case !held:
				busy = append(busy, p)
			case leaderboard.PeriodStatus(status) != leaderboard.PeriodClosed:
				p.row.status, p.row.startsAt, p.row.endsAt = leaderboard.PeriodStatus(status), *startsAt, endsAt
				mine = append(mine, p)
			}
		}
		return rows.Err()
	})
	if err := tx.SendBatch(ctx, locks).Close(); err != nil {
		return nil, nil, err
	}
	return mine, busy, nil
}

// rankGroup is rankPeriod for the periods of group, ids and buckets their
// ids and buckets: one statement copies the scores of them all, numbered by
// ROW_NUMBER() per period in their boards' order, into their buckets' final
// ranks, and reads them back by period and rank for the digests and the
// messages. It returns each period's ranking, in group's order. The names
// are a subquery per rank, not rankPeriod's lateral join: for a group's
// thousands of ranks the planner turned that join into a hash of every
// player (a sequential scan of a million rows, half a second a group).
func rankGroup(ctx context.Context, tx pgx.Tx, group []*groupPeriod, ids []int32, buckets []time.Time) ([]*rankedPeriod, error) {
	const q = `WITH ranked AS (
			SELECT s.period_id, ROW_NUMBER() OVER (PARTITION BY s.period_id
					ORDER BY s.sort_score, s.sort_subscore, s.reached_at, s.seq)::integer AS rank,
				s.player_id, s.score, s.subscore, s.reached_at, s.metadata
			FROM board_scores s WHERE s.period_id = ANY($1)
		), kept AS (
			INSERT INTO board_final_ranks (bucket, period_id, rank, player_id, score, subscore, reached_at, metadata)
			SELECT g.bucket, r.period_id, r.rank, r.player_id, r.score, r.subscore, r.reached_at, r.metadata
			FROM ranked r JOIN unnest($1::integer[], $2::date[]) AS g(period_id, bucket) USING (period_id)
		)
		SELECT r.period_id, r.rank, r.player_id, r.score,
			CASE WHEN r.rank <= $3 THEN (SELECT p.name FROM players p WHERE p.id = r.player_id) END,
			CASE WHEN r.rank <= $3 THEN r.metadata END
		FROM ranked r
		ORDER BY r.period_id, r.rank`
	rows, err := tx.Query(ctx, q, ids, buckets, messageTop)
	if err != nil {
		return nil, fmt.Errorf("rank the group's scores: %w", err)
	}
	byID := make(map[int32]*periodRanking, len(ids))
	for _, id := range ids {
		byID[id] = newPeriodRanking()
	}
	var (
		id       int32
		rank     int
		playerID []byte
		score    int
		name     *string
		metadata []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &rank, &playerID, &score, &name, &metadata}, func() error {
		byID[id].add(rank, playerID, score, name, metadata)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rank the group's scores: %w", err)
	}
	out := make([]*rankedPeriod, len(group))
	for i, p := range group {
		out[i] = byID[p.row.id].done(p.board)
	}
	return out, nil
}
