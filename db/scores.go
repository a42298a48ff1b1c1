package db

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// maxAttempts bounds how often SubmitScores runs a batch again after losing a
// race with a concurrent batch (same new player, same event id, deadlock).
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
// event. The whole call is one transaction: every result is decided in Go
// from rows locked up front, then written with a few set-based statements, so
// each event is applied atomically on its own and nothing is acknowledged
// before it is committed. EBADINPUT when there are more than MaxBatch events.
func (db *DB) SubmitScores(ctx context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	if len(events) > leaderboard.MaxBatch {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT,
			"a call takes at most %d events, got %d", leaderboard.MaxBatch, len(events))
	}
	b := newBatch(events, db.now(), db.loc, db.closeGrace)
	for attempt := 1; ; attempt++ {
		results, err := db.applyBatch(ctx, b)
		var toOpen unopenedMonths
		switch {
		case err == nil:
			return results, nil
		case errors.As(err, &toOpen):
			// Nothing was written; open the months and apply the batch again.
			for _, m := range toOpen {
				if err := db.openMonth(ctx, m); err != nil {
					return nil, err
				}
			}
		case !isRetryable(err):
			return nil, errorf("submit scores: %w", err)
		case attempt >= maxAttempts:
			return nil, errors.Join(errContention, err)
		default:
			select {
			case <-ctx.Done():
				return nil, errorf("submit scores: %w", ctx.Err())
			case <-time.After(retryPause(attempt)):
			}
		}
	}
}

// unopenedMonths is the error of a batch that would accept events in months
// that have not opened yet. A month opens with its first accepted event, so a
// call whose events are all rejected never opens one.
type unopenedMonths []leaderboard.Month

func (u unopenedMonths) Error() string {
	return fmt.Sprintf("months %v are not open yet", []leaderboard.Month(u))
}

// batch is one submitScores call after validation.
type batch struct {
	events []leaderboard.ScoreEvent
	now    time.Time
	// at and month hold each event's time and month; rejected holds the
	// results of events that failed validation.
	at       []time.Time
	month    []leaderboard.Month
	rejected map[int]leaderboard.ScoreResult
}

// newBatch validates events as of now in the event time zone loc, where a
// month takes events until grace after its end.
func newBatch(events []leaderboard.ScoreEvent, now time.Time, loc *time.Location, grace time.Duration) *batch {
	b := &batch{
		events:   events,
		now:      now,
		at:       make([]time.Time, len(events)),
		month:    make([]leaderboard.Month, len(events)),
		rejected: map[int]leaderboard.ScoreResult{},
	}
	for i, e := range events {
		if err := e.Validate(now); err != nil {
			b.rejected[i] = leaderboard.Reject(e, leaderboard.Month{}, err)
			continue
		}
		b.at[i] = now
		if e.OccurredAt != nil {
			b.at[i] = *e.OccurredAt
		}
		b.month[i] = leaderboard.MonthOf(b.at[i], loc)
		if err := leaderboard.CheckMonth(b.month[i], leaderboard.MonthOf(now, loc)); err != nil {
			b.rejected[i] = leaderboard.Reject(e, leaderboard.Month{}, err)
		} else if closesAt := b.month[i].End(loc).Add(grace); !now.Before(closesAt) {
			// Past closesAt the month is due to close: refused even while it
			// is still OPEN, so nothing lands after the close was announced.
			b.rejected[i] = leaderboard.Reject(e, b.month[i], leaderboard.Errorf(leaderboard.EMONTHCLOSED,
				"month %s took events until %s", b.month[i], closesAt.UTC().Format(time.RFC3339)))
		}
	}
	return b
}

// months returns the months of the valid events, oldest first.
func (b *batch) months() []leaderboard.Month {
	set := map[leaderboard.Month]bool{}
	for i := range b.events {
		if _, bad := b.rejected[i]; !bad {
			set[b.month[i]] = true
		}
	}
	return slices.SortedFunc(maps.Keys(set), compareMonths)
}

func compareMonths(a, b leaderboard.Month) int {
	return a.Date().Compare(b.Date())
}

// scoreRow is a player's total in a month as the batch sees it.
type scoreRow struct {
	exists    bool // the row was in the database before the batch
	score     int
	reachedAt time.Time
	seq       int64
	// stored is the row's key as the database had it, for the rank counts.
	stored counterCell
	// changedBy is the index of the last event that changed the row in this
	// batch, or -1; it orders the sequence numbers handed out at the end.
	changedBy int
	// removed is set when an admin removed the player from the month: their
	// events for it are refused.
	removed bool
}

// acceptedEvent is an event that was APPLIED or UNCHANGED, as stored in
// score_events for idempotency and audit.
type acceptedEvent struct {
	index    int
	month    leaderboard.Month
	status   leaderboard.ScoreStatus
	oldScore *int
	newScore int
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
		q    = `SELECT month, status FROM months WHERE month = ANY($1)`
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

// priorEvent is an event id accepted before: its outcome, reported again as
// DUPLICATE, and what it asked, to tell a retry from a reused id.
type priorEvent struct {
	result leaderboard.ScoreResult
	mode   leaderboard.ScoreMode
	value  int
}

// sameAs reports whether e asks what the prior event asked.
func (p priorEvent) sameAs(e leaderboard.ScoreEvent) bool {
	return p.result.PlayerID == e.PlayerID && p.mode == e.Mode && p.value == e.Value
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
func queueLockScoreRows(reads *pgx.Batch, b *batch) map[leaderboard.PlayerMonth]*scoreRow {
	players := map[leaderboard.Month][]string{}
	rows := map[leaderboard.PlayerMonth]*scoreRow{}
	for i, e := range b.events {
		if _, bad := b.rejected[i]; bad {
			continue
		}
		key := leaderboard.PlayerMonth{Month: b.month[i], PlayerID: e.PlayerID}
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
				row := rows[leaderboard.PlayerMonth{Month: m, PlayerID: playerID}]
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
func queueRemovedPlayers(reads *pgx.Batch, b *batch, rows map[leaderboard.PlayerMonth]*scoreRow) {
	const q = `SELECT month, player_id FROM removed_players
		WHERE (month, player_id) IN (SELECT * FROM unnest($1::date[], $2::text[]))`
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
			rows[leaderboard.PlayerMonth{Month: leaderboard.MonthFromDate(date), PlayerID: playerID}].removed = true
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

// decide applies the score rules to every event in order, updating rows and
// filling results, and returns the events to record as accepted.
func decide(b *batch, status map[leaderboard.Month]leaderboard.MonthStatus, applied map[string]priorEvent,
	rows map[leaderboard.PlayerMonth]*scoreRow, results []leaderboard.ScoreResult) []acceptedEvent {
	var accepted []acceptedEvent
	for i, e := range b.events {
		// A retry is DUPLICATE even once its month stopped taking events.
		if prior, ok := applied[e.EventID]; ok && prior.sameAs(e) {
			results[i] = prior.result
			continue
		} else if ok {
			results[i] = leaderboard.Reject(e, leaderboard.Month{}, leaderboard.Errorf(leaderboard.EBADINPUT,
				"eventId %q was used before for a different event (player, mode or value): an eventId names one event", e.EventID))
			continue
		}
		if r, bad := b.rejected[i]; bad {
			results[i] = r
			continue
		}
		m := b.month[i]
		// A month without a row is not open yet: decide as if it were, and
		// applyBatch opens it first if any of its events is accepted.
		if s, ok := status[m]; ok && s != leaderboard.MonthOpen {
			results[i] = leaderboard.Reject(e, m, leaderboard.Errorf(leaderboard.EMONTHCLOSED,
				"month %s is %s and takes no more scores", m, s))
			continue
		}
		row := rows[leaderboard.PlayerMonth{Month: m, PlayerID: e.PlayerID}]
		if row.removed {
			results[i] = leaderboard.Reject(e, m, leaderboard.Errorf(leaderboard.EFORBIDDEN,
				"player %q was removed from month %s by an admin", e.PlayerID, m))
			continue
		}
		seen := row.exists || row.changedBy >= 0
		total := e.Mode.Apply(row.score, e.Value)
		if total < leaderboard.MinScore || total > leaderboard.MaxScore {
			results[i] = leaderboard.Reject(e, m, leaderboard.OutOfRange(total))
			continue
		}
		a := acceptedEvent{index: i, month: m, status: leaderboard.StatusUnchanged, newScore: total}
		if seen {
			a.oldScore = new(row.score)
		}
		if !seen || total != row.score {
			a.status = leaderboard.StatusApplied
			// A late event never moves reachedAt backwards.
			if !seen || b.at[i].After(row.reachedAt) {
				row.reachedAt = b.at[i]
			}
			row.score = total
			row.changedBy = i
		}
		accepted = append(accepted, a)
		results[i] = leaderboard.ScoreResult{EventID: e.EventID, Status: a.status, Month: m, PlayerID: e.PlayerID, Score: new(total)}
		applied[e.EventID] = priorEvent{mode: e.Mode, value: e.Value, result: leaderboard.ScoreResult{
			EventID: e.EventID, Status: leaderboard.StatusDuplicate, Month: m, PlayerID: e.PlayerID, Score: new(total)}}
	}
	return accepted
}

// monthsToOpen returns the months, oldest first, of accepted events that have
// no month row yet.
func monthsToOpen(status map[leaderboard.Month]leaderboard.MonthStatus, accepted []acceptedEvent) unopenedMonths {
	var out unopenedMonths
	for _, a := range accepted {
		if _, ok := status[a.month]; !ok && !slices.Contains(out, a.month) {
			out = append(out, a.month)
		}
	}
	slices.SortFunc(out, compareMonths)
	return out
}

// assignSeqs hands each changed row one of seqs, in the order of the events
// that changed them, so exact ties of time rank by arrival.
func assignSeqs(rows map[leaderboard.PlayerMonth]*scoreRow, seqs []int64) {
	var changed []*scoreRow
	for _, r := range rows {
		if r.changedBy >= 0 {
			changed = append(changed, r)
		}
	}
	slices.SortFunc(changed, func(a, b *scoreRow) int { return a.changedBy - b.changedBy })
	for i, r := range changed {
		r.seq = seqs[i]
	}
}

// queueWrites queues the batch's outcome: players and their names, new and
// changed score rows, the accepted events, and the rank counters.
func queueWrites(writes *pgx.Batch, b *batch, rows map[leaderboard.PlayerMonth]*scoreRow, accepted []acceptedEvent) {
	if len(accepted) == 0 {
		return
	}
	queuePlayers(writes, b, accepted)
	queueScores(writes, rows)
	queueEvents(writes, b, accepted)
	// Last, so that the hot counter rows stay locked only until the commit.
	queueRankCounts(writes, rows)
}

// queuePlayers upserts the accepted events' players and stores the latest
// name each event carried, in id order so that concurrent batches lock alike.
func queuePlayers(writes *pgx.Batch, b *batch, accepted []acceptedEvent) {
	names := map[string]*string{}
	for _, a := range accepted {
		e := b.events[a.index]
		if e.PlayerName != nil || names[e.PlayerID] == nil {
			names[e.PlayerID] = e.PlayerName
		}
	}
	ids := slices.Sorted(maps.Keys(names))
	values := make([]*string, len(ids))
	for i, id := range ids {
		values[i] = names[id]
	}
	const q = `INSERT INTO players (id, name)
		SELECT id, name FROM unnest($1::text[], $2::text[]) AS p(id, name) ORDER BY id
		ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
		WHERE EXCLUDED.name IS NOT NULL AND players.name IS DISTINCT FROM EXCLUDED.name`
	writes.Queue(q, ids, values)
}

// queueScores inserts the rows that are new and updates the rows that changed.
// The INSERT has no ON CONFLICT on purpose: a concurrent first event for the
// same player must fail this batch (to be retried), not be overwritten.
func queueScores(writes *pgx.Batch, rows map[leaderboard.PlayerMonth]*scoreRow) {
	var inserts, updates scoreColumns
	for _, key := range slices.SortedFunc(maps.Keys(rows), comparePlayerMonths) {
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

func (c *scoreColumns) add(key leaderboard.PlayerMonth, r *scoreRow) {
	c.months = append(c.months, key.Month.Date())
	c.players = append(c.players, key.PlayerID)
	c.scores = append(c.scores, int32(r.score))
	c.reachedAt = append(c.reachedAt, r.reachedAt)
	c.seqs = append(c.seqs, r.seq)
}

func comparePlayerMonths(a, b leaderboard.PlayerMonth) int {
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
		months, occurred              = make([]time.Time, n), make([]time.Time, n)
		values, newScores             = make([]int32, n), make([]int32, n)
		oldScores                     = make([]*int32, n)
	)
	for i, a := range accepted {
		e := b.events[a.index]
		ids[i], players[i], modes[i], statuses[i] = e.EventID, e.PlayerID, string(e.Mode), string(a.status)
		months[i], occurred[i] = a.month.Date(), b.at[a.index]
		values[i], newScores[i] = int32(e.Value), int32(a.newScore)
		if a.oldScore != nil {
			oldScores[i] = new(int32(*a.oldScore))
		}
	}
	const q = `INSERT INTO score_events
		(event_id, month, player_id, mode, value, occurred_at, received_at, status, old_score, new_score)
		SELECT e.event_id, e.month, e.player_id, e.mode, e.value, e.occurred_at, $7, e.status, e.old_score, e.new_score
		FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $8::text[], $9::int[], $10::int[])
			AS e(event_id, month, player_id, mode, value, occurred_at, status, old_score, new_score)`
	writes.Queue(q, ids, months, players, modes, values, occurred, b.now, statuses, oldScores, newScores)
}
