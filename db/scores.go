package db

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// maxAttempts bounds how often applyWithRetries runs a batch again after
// losing a race with a concurrent batch (same new player, same event id, deadlock).
const maxAttempts = 10

// errContention is the answer when a batch lost its race every time: the
// client retries it later, and its events apply once.
var errContention = leaderboard.Errorf(leaderboard.EUNAVAILABLE,
	"too many concurrent submissions for the same players: retry the call")

// retryPause returns a random pause before attempt n+1 of a batch that lost
// a race, growing with n: racing batches drift apart instead of colliding
// again in step.
func retryPause(n int) time.Duration {
	return time.Duration(1+rand.IntN(1<<min(n, 6))) * time.Millisecond
}

// SubmitScores applies events in the order given and returns one result per
// event. Every result is decided in Go from rows locked up front, then
// written with a few set-based statements, in one transaction that may hold
// other calls' events too (see submitqueue.go), so each event is applied
// atomically on its own and nothing is acknowledged before it is committed.
// Events of boards other than main take a path of their own (see
// boardsubmit.go). EBADINPUT when there are more than MaxBatch events.
func (db *DB) SubmitScores(ctx context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	if len(events) > leaderboard.MaxBatch {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT,
			"a call takes at most %d events, got %d", leaderboard.MaxBatch, len(events))
	}
	now := db.now()
	if slices.ContainsFunc(events, onOtherBoard) {
		return db.submitSplit(ctx, events, now)
	}
	return db.submitMain(ctx, events, now)
}

// submitMain applies events of the board main, received at now.
func (db *DB) submitMain(ctx context.Context, events []leaderboard.ScoreEvent, now time.Time) ([]leaderboard.ScoreResult, error) {
	return db.submits.submit(ctx, newBatch(events, now, db.loc, db.closeGrace))
}

// applyWithRetries applies b, again after a lost race with a concurrent
// transaction (same new player, same event id, deadlock), and opens the
// months its events are the first of.
func (db *DB) applyWithRetries(ctx context.Context, b *batch) ([]leaderboard.ScoreResult, error) {
	return withRetries(ctx, func() ([]leaderboard.ScoreResult, error) { return db.applyBatch(ctx, b) },
		func(err error) (bool, error) {
			var toOpen unopenedMonths
			if !errors.As(err, &toOpen) {
				return false, nil
			}
			for _, m := range toOpen {
				if err := db.openMonth(ctx, m); err != nil {
					return true, err
				}
			}
			return true, nil
		})
}

// withRetries runs apply until it succeeds: again after open made what its
// error said was missing (open reports whether the error was of that kind),
// and again, after a growing random pause, after a lost race with a
// concurrent transaction, at most maxAttempts times.
func withRetries(ctx context.Context, apply func() ([]leaderboard.ScoreResult, error),
	open func(error) (bool, error)) ([]leaderboard.ScoreResult, error) {
	for attempt := 1; ; attempt++ {
		results, err := apply()
		if err == nil {
			return results, nil
		}
		// Nothing was written; open what is missing and apply again.
		if opened, openErr := open(err); openErr != nil {
			return nil, openErr
		} else if opened {
			continue
		}
		switch {
		case !isRetryable(err):
			return nil, errorf("submit scores: %w", err)
		case attempt >= maxAttempts:
			return nil, errors.Join(errContention, err)
		}
		select {
		case <-ctx.Done():
			return nil, errorf("submit scores: %w", ctx.Err())
		case <-time.After(retryPause(attempt)):
		}
	}
}

func (db *DB) applyBatch(ctx context.Context, b *batch) ([]leaderboard.ScoreResult, error) {
	results := make([]leaderboard.ScoreResult, len(b.events))
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// One round trip reads and locks everything the decisions need,
		// another writes them all.
		reads := &pgx.Batch{}
		status := queueLockMonths(reads, b.months())
		applied := queueAppliedEvents(reads, b.events)
		rows := queueLockScoreRows(reads, b)
		queueRemovedPlayers(reads, b, rows)
		seqs := queueSeqs(reads, len(b.events)-len(b.rejected))
		if err := tx.SendBatch(ctx, reads).Close(); err != nil {
			return err
		}
		accepted := decide(b, status, applied, rows, results)
		if toOpen := monthsToOpen(status, accepted); len(toOpen) > 0 {
			return toOpen
		}
		assignSeqs(rows, *seqs)
		writes := &pgx.Batch{}
		queueWrites(writes, b, rows, accepted)
		if err := tx.SendBatch(ctx, writes).Close(); err != nil {
			return errorf("write scores: %w", err)
		}
		return nil
	})
	return results, err
}

// queueLockMonths queues the taking of each month's write lock, shared, held
// until commit so that a close's stop waits for this batch, then the read of
// each month's status, which sees a stop committed while this batch waited.
func queueLockMonths(reads *pgx.Batch, months []leaderboard.Month) map[leaderboard.Month]leaderboard.MonthStatus {
	const (
		lock = `SELECT pg_advisory_xact_lock_shared($1, k) FROM unnest($2::int[]) AS k ORDER BY k`
		q    = `SELECT to_date(key, 'YYYY-MM'), status FROM periods
			WHERE board_id = 'main' AND key IN (SELECT to_char(d, 'YYYY-MM') FROM unnest($1::date[]) AS d)`
	)
	dates, keys := make([]time.Time, len(months)), make([]int32, len(months))
	for i, m := range months {
		dates[i], keys[i] = m.Date(), monthKey(m)
	}
	reads.Queue(lock, monthWriteLockClass, keys)
	status := map[leaderboard.Month]leaderboard.MonthStatus{}
	reads.Queue(q, dates).Query(func(rows pgx.Rows) error {
		var (
			date time.Time
			s    string
		)
		_, err := pgx.ForEachRow(rows, []any{&date, &s}, func() error {
			status[leaderboard.MonthFromDate(date)] = leaderboard.MonthStatus(s)
			return nil
		})
		if err != nil {
			return errorf("lock months: %w", err)
		}
		return nil
	})
	return status
}

// queueAppliedEvents queues the read of the stored outcome of the batch's
// event ids that were accepted before.
func queueAppliedEvents(reads *pgx.Batch, events []leaderboard.ScoreEvent) map[string]priorEvent {
	const q = `SELECT event_id, month, player_id, new_score, mode, value FROM score_events WHERE event_id = ANY($1)`
	ids := make([]string, len(events))
	for i, e := range events {
		ids[i] = e.EventID
	}
	applied := map[string]priorEvent{}
	reads.Queue(q, ids).Query(func(rows pgx.Rows) error {
		var (
			p     priorEvent
			date  time.Time
			score int
			mode  string
		)
		_, err := pgx.ForEachRow(rows, []any{&p.result.EventID, &date, &p.result.PlayerID, &score, &mode, &p.value}, func() error {
			p.result.Month = leaderboard.MonthFromDate(date)
			p.result.Status = leaderboard.StatusDuplicate
			p.result.Score = new(score)
			p.mode = leaderboard.ScoreMode(mode)
			applied[p.result.EventID] = p
			return nil
		})
		if err != nil {
			return errorf("read applied events: %w", err)
		}
		return nil
	})
	return applied
}

// queueLockScoreRows queues the read, FOR UPDATE, of the existing score rows
// of the batch's players, month by month and player by player in a fixed
// order so that concurrent batches cannot deadlock. Players without a row get
// a placeholder; a concurrent batch that inserts the same player first makes
// this batch's INSERT fail with a unique violation, and the batch is retried.
func queueLockScoreRows(reads *pgx.Batch, b *batch) map[monthPlayer]*scoreRow {
	players := map[leaderboard.Month][]string{}
	rows := map[monthPlayer]*scoreRow{}
	for i, e := range b.events {
		if _, bad := b.rejected[i]; bad {
			continue
		}
		key := monthPlayer{Month: b.month[i], PlayerID: e.PlayerID}
		if rows[key] == nil {
			rows[key] = &scoreRow{changedBy: -1}
			players[key.Month] = append(players[key.Month], e.PlayerID)
		}
	}
	const q = `SELECT player_id, score, reached_at, seq FROM scores
		WHERE month = $1 AND player_id = ANY($2) ORDER BY player_id FOR UPDATE`
	for _, m := range b.months() {
		reads.Queue(q, m.Date(), players[m]).Query(func(result pgx.Rows) error {
			var (
				playerID string
				r        scoreRow
			)
			_, err := pgx.ForEachRow(result, []any{&playerID, &r.score, &r.reachedAt, &r.seq}, func() error {
				row := rows[monthPlayer{Month: m, PlayerID: playerID}]
				row.exists, row.score, row.reachedAt, row.seq = true, r.score, r.reachedAt, r.seq
				row.stored = cellOf(m, r.score, r.reachedAt)
				return nil
			})
			if err != nil {
				return errorf("lock scores: %w", err)
			}
			return nil
		})
	}
	return rows
}

// queueRemovedPlayers queues the read of which of the batch's players an
// admin removed from their month, and marks their rows.
func queueRemovedPlayers(reads *pgx.Batch, b *batch, rows map[monthPlayer]*scoreRow) {
	const q = `SELECT to_date(m.key, 'YYYY-MM'), r.player_id FROM unnest($1::date[], $2::text[]) AS k (month, player_id)
		JOIN periods m ON m.board_id = 'main' AND m.key = to_char(k.month, 'YYYY-MM')
		JOIN board_removed_players r ON r.period_id = m.id AND r.player_id = k.player_id`
	months, players := make([]time.Time, 0, len(rows)), make([]string, 0, len(rows))
	for key := range rows {
		months, players = append(months, key.Month.Date()), append(players, key.PlayerID)
	}
	reads.Queue(q, months, players).Query(func(result pgx.Rows) error {
		var (
			date     time.Time
			playerID string
		)
		_, err := pgx.ForEachRow(result, []any{&date, &playerID}, func() error {
			rows[monthPlayer{Month: leaderboard.MonthFromDate(date), PlayerID: playerID}].removed = true
			return nil
		})
		if err != nil {
			return errorf("read removed players: %w", err)
		}
		return nil
	})
}

// queueSeqs queues the reservation of n sequence numbers, in ascending order:
// as many as rows the batch may change. Numbers it does not use leave gaps,
// which only order ties.
func queueSeqs(reads *pgx.Batch, n int) *[]int64 {
	const q = `SELECT nextval('score_seq') FROM generate_series(1, $1) ORDER BY 1`
	seqs := new([]int64)
	reads.Queue(q, n).Query(func(rows pgx.Rows) error {
		var err error
		if *seqs, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return errorf("reserve sequence numbers: %w", err)
		}
		return nil
	})
	return seqs
}

// queueWrites queues the batch's outcome: players and their names, new and
// changed score rows, the accepted events, and the rank counters.
func queueWrites(writes *pgx.Batch, b *batch, rows map[monthPlayer]*scoreRow, accepted []acceptedEvent) {
	if len(accepted) == 0 {
		return
	}
	queuePlayers(writes, b, rows, accepted)
	queueScores(writes, rows)
	queueEvents(writes, b, accepted)
	// Last, so that the hot counter rows stay locked only until the commit.
	queueRankCounts(writes, rows)
}

// queuePlayers upserts the accepted events' players and stores the latest
// name each event carried, in id order so that concurrent batches lock alike.
// A player who has a score in the event's month is stored already (scores
// reference players) and, without a name in the event, is left alone: the
// upsert would lock the row, a write of its own, for nothing.
func queuePlayers(writes *pgx.Batch, b *batch, rows map[monthPlayer]*scoreRow, accepted []acceptedEvent) {
	names := map[string]*string{}
	for _, a := range accepted {
		e := b.events[a.index]
		if e.PlayerName == nil && rows[monthPlayer{Month: a.month, PlayerID: e.PlayerID}].exists {
			continue
		}
		keepLatestName(names, e)
	}
	queueNames(writes, names)
}

// keepLatestName records e's player in names with the name e carried, unless
// an earlier event of the batch named them and e names no one.
func keepLatestName(names map[string]*string, e leaderboard.ScoreEvent) {
	if e.PlayerName != nil || names[e.PlayerID] == nil {
		names[e.PlayerID] = e.PlayerName
	}
}

// queueNames upserts the players of names with their names, in id order so
// that concurrent batches lock alike.
func queueNames(writes *pgx.Batch, names map[string]*string) {
	if len(names) == 0 {
		return
	}
	ids := slices.Sorted(maps.Keys(names))
	values := make([]*string, len(ids))
	for i, id := range ids {
		values[i] = names[id]
	}
	writes.Queue(upsertPlayers, ids, values)
}

// upsertPlayers stores players $1 with names $2, in id order; a nil name
// leaves the stored one.
const upsertPlayers = `INSERT INTO players (id, name)
	SELECT id, name FROM unnest($1::text[], $2::text[]) AS p(id, name) ORDER BY id
	ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
	WHERE EXCLUDED.name IS NOT NULL AND players.name IS DISTINCT FROM EXCLUDED.name`

// queueScores inserts the rows that are new and updates the rows that changed.
// The INSERT has no ON CONFLICT on purpose: a concurrent first event for the
// same player must fail this batch (to be retried), not be overwritten.
func queueScores(writes *pgx.Batch, rows map[monthPlayer]*scoreRow) {
	var inserts, updates scoreColumns
	for _, key := range slices.SortedFunc(maps.Keys(rows), compareMonthPlayers) {
		r := rows[key]
		switch {
		case r.changedBy < 0:
		case r.exists:
			updates.add(key, r)
		default:
			inserts.add(key, r)
		}
	}
	const insert = `INSERT INTO scores (month, player_id, score, reached_at, seq)
		SELECT * FROM unnest($1::date[], $2::text[], $3::int[], $4::timestamptz[], $5::bigint[])`
	const update = `UPDATE scores s SET score = u.score, reached_at = u.reached_at, seq = u.seq
		FROM unnest($1::date[], $2::text[], $3::int[], $4::timestamptz[], $5::bigint[])
			AS u(month, player_id, score, reached_at, seq)
		WHERE s.month = u.month AND s.player_id = u.player_id`
	for _, w := range []struct {
		q    string
		cols *scoreColumns
	}{{insert, &inserts}, {update, &updates}} {
		if len(w.cols.players) == 0 {
			continue
		}
		c := w.cols
		writes.Queue(w.q, c.months, c.players, c.scores, c.reachedAt, c.seqs)
	}
}

// scoreColumns holds score rows column by column, for unnest.
type scoreColumns struct {
	months    []time.Time
	players   []string
	scores    []int32
	reachedAt []time.Time
	seqs      []int64
}

func (c *scoreColumns) add(key monthPlayer, r *scoreRow) {
	c.months = append(c.months, key.Month.Date())
	c.players = append(c.players, key.PlayerID)
	c.scores = append(c.scores, int32(r.score))
	c.reachedAt = append(c.reachedAt, r.reachedAt)
	c.seqs = append(c.seqs, r.seq)
}

// monthPlayer names one player's row in one of main's months.
type monthPlayer struct {
	Month    leaderboard.Month
	PlayerID string
}

func compareMonthPlayers(a, b monthPlayer) int {
	if c := compareMonths(a.Month, b.Month); c != 0 {
		return c
	}
	return strings.Compare(a.PlayerID, b.PlayerID)
}

// queueEvents records the accepted events. A concurrent batch that recorded
// one of the same event ids first makes this INSERT fail with a unique
// violation; the retry then finds it and reports DUPLICATE.
func queueEvents(writes *pgx.Batch, b *batch, accepted []acceptedEvent) {
	n := len(accepted)
	var (
		ids, players, modes, statuses = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		months, occurred, received    = make([]time.Time, n), make([]time.Time, n), make([]time.Time, n)
		values, newScores             = make([]int32, n), make([]int32, n)
		oldScores                     = make([]*int32, n)
	)
	for i, a := range accepted {
		e := b.events[a.index]
		ids[i], players[i], modes[i], statuses[i] = e.EventID, e.PlayerID, string(e.Mode), string(a.status)
		months[i], occurred[i], received[i] = a.month.Date(), b.at[a.index], b.received[a.index]
		values[i], newScores[i] = int32(e.Value), int32(a.newScore)
		if a.oldScore != nil {
			oldScores[i] = new(int32(*a.oldScore))
		}
	}
	const q = `INSERT INTO score_events
		(event_id, month, player_id, mode, value, occurred_at, received_at, status, old_score, new_score)
		SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
			$7::timestamptz[], $8::text[], $9::int[], $10::int[])`
	writes.Queue(q, ids, months, players, modes, values, occurred, received, statuses, oldScores, newScores)
}
