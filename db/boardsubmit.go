package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Scores of every board, main included: rows live in board_scores, keyed by
// the period's id, counted in period_rank_counts (rankcounts.go). Concurrent
// calls are merged into shared transactions (submitqueue.go), and the rows
// the decisions need are read and locked in one round trip, decided in Go,
// and written in another. Main's months keep the words of the month
// contract at the edge: its results carry their month, and its refusals say
// month (withMonth, checkMainMonth).

// periodRef names a period of a board.
type periodRef struct{ board, key string }

// boardPeriod is the period an event falls in, with its times as its row
// has them, or would have them once the event opens it.
type boardPeriod struct {
	periodRef
	startsAt time.Time
	endsAt   *time.Time
}

// boardBatch is the events of a call, after the
// checks that take no lock: validation, the board, and the period each event
// falls in; or those of several calls, merged into one transaction.
type boardBatch struct {
	events []leaderboard.ScoreEvent
	// received holds the time each event's call was received.
	received []time.Time
	// boards holds the boards the events name. Calls merged may have read a
	// board at different times; the rules used once an event is placed
	// (Decide, SortKey, the reset) are fixed at the board's creation, so
	// either copy serves.
	boards map[string]*leaderboard.Board
	// valid holds the indexes of the events that passed validation, whose
	// ids may have been accepted before.
	valid []int
	// at and period hold each event's time and period; rejected holds the
	// results of events refused by these checks.
	at       []time.Time
	period   []boardPeriod
	rejected map[int]leaderboard.ScoreResult
}

// rejectOnBoard returns a REJECTED result for e, of period key when known.
func rejectOnBoard(e leaderboard.ScoreEvent, key string, err *leaderboard.Error) leaderboard.ScoreResult {
	r := leaderboard.Reject(e, err)
	r.Board, r.Period = e.BoardID(), key
	return withMonth(r)
}

// withMonth returns r with its Month set when it is a result of a month of
// main: the contract's month field of main's results.
func withMonth(r leaderboard.ScoreResult) leaderboard.ScoreResult {
	if r.Board == leaderboard.MainBoard && r.Period != "" {
		r.Month, _ = leaderboard.ParseMonth(r.Period)
	}
	return r
}

// checkMainMonth returns main's EBADINPUT error for an event at at that
// falls in a month before the one before now's (leaderboard.CheckMonth), nil
// on any other board.
func checkMainMonth(board *leaderboard.Board, at, now time.Time) *leaderboard.Error {
	if board.ID != leaderboard.MainBoard {
		return nil
	}
	return leaderboard.CheckMonth(leaderboard.MonthOf(at, board.Location), leaderboard.MonthOf(now, board.Location))
}

// checkBoardNumbers returns an EBADINPUT error unless e's value and
// subscore fit the database's integers; whether the total fits the board's
// bounds is Board.Decide's to say.
func checkBoardNumbers(e leaderboard.ScoreEvent) *leaderboard.Error {
	outside := func(n int) bool { return n < math.MinInt32 || n > math.MaxInt32 }
	if outside(e.Value) || (e.Subscore != nil && outside(*e.Subscore)) {
		return leaderboard.Errorf(leaderboard.EBADINPUT, "value and subscore must be 32-bit integers")
	}
	return nil
}

// newBoardBatch checks events received at now, reading their boards and the
// seasons they fall in: an unknown board is NOT_FOUND; an event before its
// board's start, or outside every season of a SEASON board, NOT_STARTED; one
// whose period starts at or after the board's end, or whose period takes no
// more events (past its closesAt), MONTH_CLOSED.
func (db *DB) newBoardBatch(ctx context.Context, events []leaderboard.ScoreEvent, now time.Time) (*boardBatch, error) {
	b := &boardBatch{events: events, received: make([]time.Time, len(events)), at: make([]time.Time, len(events)),
		period: make([]boardPeriod, len(events)), rejected: map[int]leaderboard.ScoreResult{}}
	if slices.ContainsFunc(events, func(e leaderboard.ScoreEvent) bool { return e.Metadata != nil }) {
		b.events = slices.Clone(events) // their metadata is replaced by its normalized text
	}
	for i, e := range events {
		b.received[i] = now
		err := e.Validate(now)
		if err == nil {
			err = checkBoardNumbers(e)
		}
		if err == nil && e.Metadata != nil {
			b.events[i].Metadata, err = leaderboard.NormalizeMetadata(e.Metadata)
		}
		if err != nil {
			b.rejected[i] = rejectOnBoard(e, "", err)
			continue
		}
		b.at[i] = now
		if e.OccurredAt != nil {
			b.at[i] = *e.OccurredAt
		}
		b.valid = append(b.valid, i)
	}
	seasons, err := db.readBoardsAndSeasons(ctx, b)
	if err != nil {
		return nil, err
	}
	for _, i := range b.valid {
		e := events[i]
		board := b.boards[e.BoardID()]
		if board == nil {
			b.rejected[i] = rejectOnBoard(e, "", leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", e.BoardID()))
			continue
		}
		if err := checkMainMonth(board, b.at[i], now); err != nil {
			b.rejected[i] = rejectOnBoard(e, "", err)
			continue
		}
		p, err := placeEvent(board, b.at[i], seasons[i], now)
		if err != nil {
			b.rejected[i] = rejectOnBoard(e, p.key, err)
			continue
		}
		b.period[i] = p
	}
	return b, nil
}

// readBoardsAndSeasons reads, in one round trip, the boards the valid
// events of b name into b.boards, and returns the season of a SEASON board
// each falls in, by the event's index.
func (db *DB) readBoardsAndSeasons(ctx context.Context, b *boardBatch) (map[int]*boardPeriod, error) {
	b.boards = map[string]*leaderboard.Board{}
	seasons := map[int]*boardPeriod{}
	if len(b.valid) == 0 {
		return seasons, nil
	}
	ids, times, indexes := make([]string, len(b.valid)), make([]time.Time, len(b.valid)), make([]int32, len(b.valid))
	for n, i := range b.valid {
		ids[n], times[n], indexes[n] = b.events[i].BoardID(), b.at[i], int32(i)
	}
	// The newest season starting at or before the event's time holds it
	// when it has not ended: seasons of a board never overlap.
	const seasonsQuery = `SELECT k.i, p.key, p.starts_at, p.ends_at
		FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS k(board_id, at, i)
		JOIN boards b ON b.id = k.board_id AND b.reset = 'SEASON'
		JOIN LATERAL (SELECT key, starts_at, ends_at FROM periods p
			WHERE p.board_id = k.board_id AND p.starts_at <= k.at
			ORDER BY p.starts_at DESC LIMIT 1) p ON p.ends_at > k.at`
	reads := &pgx.Batch{}
	reads.Queue(boardsByIDSQL, ids).Query(db.scanBoardsInto(b.boards))
	reads.Queue(seasonsQuery, ids, times, indexes).Query(func(rows pgx.Rows) error {
		var (
			i int32
			p boardPeriod
		)
		_, err := pgx.ForEachRow(rows, []any{&i, &p.key, &p.startsAt, &p.endsAt}, func() error {
			season := p
			season.board = b.events[i].BoardID()
			seasons[int(i)] = &season
			return nil
		})
		return err
	})
	if err := db.pool.SendBatch(ctx, reads).Close(); err != nil {
		return nil, errorf("read boards: %w", err)
	}
	return seasons, nil
}

// placeEvent returns the period of board an event at at falls in, as of
// now; season is the season holding at on a SEASON board, nil for none. The
// error says why the period takes no event at at (the period is returned
// when known).
func placeEvent(board *leaderboard.Board, at time.Time, season *boardPeriod, now time.Time) (boardPeriod, *leaderboard.Error) {
	const form = time.RFC3339
	if at.Before(board.StartsAt) {
		return boardPeriod{}, leaderboard.Errorf(leaderboard.ENOTSTARTED, "board %s starts at %s; the event is at %s",
			board.ID, board.StartsAt.UTC().Format(form), at.UTC().Format(form))
	}
	var p boardPeriod
	if board.Reset == leaderboard.ResetSeason {
		if season == nil {
			return boardPeriod{}, leaderboard.Errorf(leaderboard.ENOTSTARTED, "board %s has no season at %s",
				board.ID, at.UTC().Format(form))
		}
		p = *season
	} else {
		key, span, err := board.PeriodOf(at)
		if err != nil {
			return boardPeriod{}, err.(*leaderboard.Error)
		}
		// As Board.UnopenedPeriod shows it before it opens.
		p = boardPeriod{periodRef: periodRef{board: board.ID, key: key}, startsAt: span.Start, endsAt: span.End}
		if board.StartsAt.After(p.startsAt) {
			p.startsAt = board.StartsAt
		}
	}
	switch {
	case board.EndsAt != nil && !p.startsAt.Before(*board.EndsAt):
		return p, leaderboard.Errorf(leaderboard.EMONTHCLOSED, "board %s ended at %s: period %s is closed",
			board.ID, board.EndsAt.UTC().Format(form), p.key)
	case p.endsAt != nil && !at.Before(*p.endsAt):
		// Only the period "all" of a NONE board ends before an event in it:
		// at the board's end.
		return p, leaderboard.Errorf(leaderboard.EMONTHCLOSED, "board %s ended at %s: period %s is closed",
			board.ID, p.endsAt.UTC().Format(form), p.key)
	case p.endsAt != nil && !now.Before(p.endsAt.Add(board.CloseGrace)) && board.ID == leaderboard.MainBoard:
		return p, leaderboard.Errorf(leaderboard.EMONTHCLOSED, "month %s took events until %s",
			p.key, p.endsAt.Add(board.CloseGrace).UTC().Format(form))
	case p.endsAt != nil && !now.Before(p.endsAt.Add(board.CloseGrace)):
		// Past closesAt the period is due to close: refused even while it is
		// still OPEN, so that nothing lands after its close was announced.
		return p, leaderboard.Errorf(leaderboard.EMONTHCLOSED, "period %s of board %s took events until %s: the period is closed",
			p.key, board.ID, p.endsAt.Add(board.CloseGrace).UTC().Format(form))
	}
	return p, nil
}

func (b *boardBatch) size() int { return len(b.events) }

// mergeBoardBatches returns one batch of the events of bs, in order.
func mergeBoardBatches(bs []*boardBatch) *boardBatch {
	if len(bs) == 1 {
		return bs[0]
	}
	merged := &boardBatch{boards: map[string]*leaderboard.Board{}, rejected: map[int]leaderboard.ScoreResult{}}
	for _, b := range bs {
		offset := len(merged.events)
		merged.events = append(merged.events, b.events...)
		merged.received = append(merged.received, b.received...)
		merged.at = append(merged.at, b.at...)
		merged.period = append(merged.period, b.period...)
		maps.Copy(merged.boards, b.boards)
		for _, i := range b.valid {
			merged.valid = append(merged.valid, offset+i)
		}
		for i, r := range b.rejected {
			merged.rejected[offset+i] = r
		}
	}
	return merged
}

// periodToOpen is a period to open, with the time the call of its first
// accepted event was received.
type periodToOpen struct {
	boardPeriod
	at time.Time
}

// unopenedPeriods is the error of a batch that would accept events in
// periods without a row yet. A period opens with its first accepted event,
// as a month does, so a call whose events are all rejected opens none.
type unopenedPeriods []periodToOpen

func (u unopenedPeriods) Error() string { return fmt.Sprintf("%d periods are not open yet", len(u)) }

// submitBoardScores applies events of any board, received at
// now, in a transaction that may hold other calls' events too.
func (db *DB) submitBoardScores(ctx context.Context, events []leaderboard.ScoreEvent, now time.Time) ([]leaderboard.ScoreResult, error) {
	b, err := db.newBoardBatch(ctx, events, now)
	if err != nil {
		return nil, errorf("submit scores: %w", err)
	}
	return db.boardSubmits.submit(ctx, b)
}

// writeBoardSubmissions applies a group of calls in one transaction and answers each.
func (db *DB) writeBoardSubmissions(group []*submission[*boardBatch]) {
	writeMerged(group, mergeBoardBatches, db.applyBoardWithRetries)
}

// applyBoardWithRetries applies b, again after a lost race with a concurrent
// transaction (the same new player or event id, a deadlock), and opens the
// periods its events are the first of.
func (db *DB) applyBoardWithRetries(ctx context.Context, b *boardBatch) ([]leaderboard.ScoreResult, error) {
	return withRetries(ctx, func() ([]leaderboard.ScoreResult, error) { return db.applyBoardBatch(ctx, b) },
		func(err error) (bool, error) {
			var toOpen unopenedPeriods
			if !errors.As(err, &toOpen) {
				return false, nil
			}
			if err := db.openPeriods(ctx, toOpen); err != nil {
				return true, errorf("submit scores: open periods: %w", err)
			}
			return true, nil
		})
}

// openPeriods makes the rows of periods; a period made meanwhile by another
// call stays as it is.
func (db *DB) openPeriods(ctx context.Context, periods unopenedPeriods) error {
	n := len(periods)
	boards, keys, starts, ends, created := make([]string, n), make([]string, n),
		make([]time.Time, n), make([]*time.Time, n), make([]time.Time, n)
	for i, p := range periods {
		boards[i], keys[i], starts[i], ends[i], created[i] = p.board, p.key, p.startsAt, p.endsAt, p.at
	}
	const q = `INSERT INTO periods (board_id, key, starts_at, ends_at, created_at)
		SELECT board_id, key, starts_at, ends_at, created_at
		FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[])
			AS p(board_id, key, starts_at, ends_at, created_at)
		ORDER BY board_id, key
		ON CONFLICT DO NOTHING`
	_, err := db.pool.Exec(ctx, q, boards, keys, starts, ends, created)
	return err
}

// periodState is a period's row as a batch locked it.
type periodState struct {
	id     int32
	status leaderboard.PeriodStatus
}

// boardEventRef names an event: its ids are one per board.
type boardEventRef struct{ board, eventID string }

// priorBoardEvent is an event id accepted before on its board: its outcome,
// reported again as DUPLICATE, and what it asked, to tell a retry from a
// reused id.
type priorBoardEvent struct {
	result   leaderboard.ScoreResult
	mode     leaderboard.ScoreMode
	value    int
	subscore *int
}

// sameAs reports whether e asks what the prior event asked; any event with
// an erased event's id is its retry.
func (p priorBoardEvent) sameAs(e leaderboard.ScoreEvent) bool {
	return p.erased() || p.result.PlayerID == e.PlayerID && p.mode == e.Mode && p.value == e.Value &&
		(p.subscore == nil) == (e.Subscore == nil) && (p.subscore == nil || *p.subscore == *e.Subscore)
}

// erased reports whether the prior event was an erased player's.
func (p priorBoardEvent) erased() bool { return p.result.PlayerID == erasedPlayer }

// outcome is what the retry e of the prior event answers.
func (p priorBoardEvent) outcome(e leaderboard.ScoreEvent) leaderboard.ScoreResult {
	r := p.result
	if p.erased() {
		r.PlayerID, r.Score = e.PlayerID, nil
	}
	return r
}

// boardRowKey names a player's row in a period.
type boardRowKey struct {
	periodRef
	player string
}

// boardRow is a player's row in a period as the batch sees it.
type boardRow struct {
	exists bool // the row was in the database before the batch
	// removed is set when an admin removed the player from the period:
	// their events for it are refused.
	removed bool
	row     leaderboard.BoardRow
	// stored is the row as it was in the database, when it was: its
	// counters move from there (rankcounts.go).
	stored leaderboard.BoardRow
	seq    int64
	// changedBy is the index of the last event that changed the row in this
	// batch, or -1; it orders the sequence numbers handed out at the end.
	changedBy int
}

// acceptedBoardEvent is an event that was APPLIED or UNCHANGED, as stored in
// board_score_events.
type acceptedBoardEvent struct {
	index    int
	status   leaderboard.ScoreStatus
	oldScore *int
	newScore int
}

func (db *DB) applyBoardBatch(ctx context.Context, b *boardBatch) ([]leaderboard.ScoreResult, error) {
	results := make([]leaderboard.ScoreResult, len(b.events))
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		reads := &pgx.Batch{}
		periods := queueLockPeriods(reads, b)
		prior := queuePriorBoardEvents(reads, b)
		rows := queueLockBoardRows(reads, b)
		queueRemovedBoardPlayers(reads, rows)
		seqs := queueSeqs(reads, len(b.events)-len(b.rejected))
		if err := tx.SendBatch(ctx, reads).Close(); err != nil {
			return err
		}
		accepted := decideBoardEvents(b, periods, prior, rows, results)
		var toOpen unopenedPeriods
		for _, a := range accepted {
			p := b.period[a.index]
			if _, ok := periods[p.periodRef]; !ok && !slices.ContainsFunc(toOpen, func(o periodToOpen) bool { return o.periodRef == p.periodRef }) {
				toOpen = append(toOpen, periodToOpen{boardPeriod: p, at: b.received[a.index]})
			}
		}
		if len(toOpen) > 0 {
			return toOpen
		}
		assignBoardSeqs(rows, *seqs)
		writes := &pgx.Batch{}
		if err := assignCohorts(ctx, tx, writes, b.boards, newCohortPlayers(b, periods, rows, accepted)); err != nil {
			return err
		}
		counts := queueBoardWrites(writes, b, periods, rows, accepted)
		if err := tx.SendBatch(ctx, writes).Close(); err != nil {
			return errorf("write scores: %w", err)
		}
		if err := counts.writeSparseCells(ctx, tx); err != nil {
			return errorf("write scores: %w", err)
		}
		return nil
	})
	return results, err
}

// placed returns the indexes of b's events that have a period, in order.
func (b *boardBatch) placed() []int {
	var out []int
	for i := range b.events {
		if _, bad := b.rejected[i]; !bad {
			out = append(out, i)
		}
	}
	return out
}

// queueLockPeriods queues the taking of each of the batch's periods' write
// locks, shared (periodWriteLockClass: a stop cannot starve behind a stream
// of submissions), then the read of their rows, FOR SHARE
// and in a fixed order: a close's stop takes the write lock exclusive and
// updates the row, so it waits for this batch, and this batch sees a stop
// committed while it waited.
func queueLockPeriods(reads *pgx.Batch, b *boardBatch) map[periodRef]periodState {
	var boards, keys []string
	for _, i := range b.placed() {
		boards, keys = append(boards, b.period[i].board), append(keys, b.period[i].key)
	}
	const (
		lock = `SELECT pg_advisory_xact_lock_shared($1, k)
			FROM (SELECT DISTINCT ` + periodWriteKeySQL + ` AS k FROM unnest($2::text[], $3::text[]) AS p(board_id, key)) AS keys
			ORDER BY k`
		q = `SELECT p.board_id, p.key, p.id, p.status FROM periods p
			WHERE (p.board_id, p.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
			ORDER BY p.board_id, p.key FOR SHARE`
	)
	reads.Queue(lock, periodWriteLockClass, boards, keys)
	periods := map[periodRef]periodState{}
	reads.Queue(q, boards, keys).Query(func(rows pgx.Rows) error {
		var (
			ref    periodRef
			state  periodState
			status string
		)
		_, err := pgx.ForEachRow(rows, []any{&ref.board, &ref.key, &state.id, &status}, func() error {
			state.status = leaderboard.PeriodStatus(status)
			periods[ref] = state
			return nil
		})
		if err != nil {
			return errorf("lock periods: %w", err)
		}
		return nil
	})
	return periods
}

// queuePriorBoardEvents queues the read of the stored outcome of the batch's
// event ids accepted before on their boards.
func queuePriorBoardEvents(reads *pgx.Batch, b *boardBatch) map[boardEventRef]priorBoardEvent {
	boards, ids := make([]string, len(b.valid)), make([]string, len(b.valid))
	for n, i := range b.valid {
		boards[n], ids[n] = b.events[i].BoardID(), b.events[i].EventID
	}
	const q = `SELECT e.board_id, e.event_id, COALESCE(p.key, ''), e.player_id, e.mode, e.value, e.subscore, e.new_score
		FROM board_score_events e LEFT JOIN periods p ON p.board_id = e.board_id AND p.id = e.period_id
		WHERE (e.board_id, e.event_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`
	prior := map[boardEventRef]priorBoardEvent{}
	reads.Queue(q, boards, ids).Query(func(rows pgx.Rows) error {
		var (
			p     priorBoardEvent
			score int
			mode  string
		)
		_, err := pgx.ForEachRow(rows, []any{&p.result.Board, &p.result.EventID, &p.result.Period, &p.result.PlayerID,
			&mode, &p.value, &p.subscore, &score}, func() error {
			p.result.Status = leaderboard.StatusDuplicate
			p.result.Score = new(score)
			p.mode = leaderboard.ScoreMode(mode)
			p.result = withMonth(p.result)
			prior[boardEventRef{board: p.result.Board, eventID: p.result.EventID}] = p
			p.subscore = nil
			return nil
		})
		if err != nil {
			return errorf("read applied events: %w", err)
		}
		return nil
	})
	return prior
}

// queueLockBoardRows queues the read, FOR UPDATE, of the existing rows of the
// batch's players in their periods, in a fixed order so that concurrent
// batches cannot deadlock. Players without a row get a placeholder; a
// concurrent batch that inserts the same player first makes this batch's
// INSERT fail with a unique violation, and the batch is retried.
func queueLockBoardRows(reads *pgx.Batch, b *boardBatch) map[boardRowKey]*boardRow {
	rows := map[boardRowKey]*boardRow{}
	var boards, keys, players []string
	for _, i := range b.placed() {
		key := boardRowKey{periodRef: b.period[i].periodRef, player: b.events[i].PlayerID}
		if rows[key] == nil {
			rows[key] = &boardRow{changedBy: -1}
			boards, keys, players = append(boards, key.board), append(keys, key.key), append(players, key.player)
		}
	}
	const q = `SELECT p.board_id, p.key, s.player_id, s.score, s.subscore, s.reached_at, s.seq
		FROM unnest($1::text[], $2::text[], $3::text[]) AS k(board_id, key, player_id)
		JOIN periods p ON p.board_id = k.board_id AND p.key = k.key
		JOIN board_scores s ON s.period_id = p.id AND s.player_id = k.player_id
		ORDER BY s.period_id, s.player_id
		FOR UPDATE OF s`
	reads.Queue(q, boards, keys, players).Query(func(result pgx.Rows) error {
		var (
			key boardRowKey
			r   boardRow
		)
		_, err := pgx.ForEachRow(result, []any{&key.board, &key.key, &key.player, &r.row.Score, &r.row.Subscore,
			&r.row.ReachedAt, &r.seq}, func() error {
			row := rows[key]
			row.exists, row.row, row.stored, row.seq = true, r.row, r.row, r.seq
			r.row.Subscore = nil
			return nil
		})
		if err != nil {
			return errorf("lock scores: %w", err)
		}
		return nil
	})
	return rows
}

// queueRemovedBoardPlayers queues the read of which of the batch's players
// an admin removed from their periods, and marks their rows. Most periods
// have no removed player: the batch's periods are looked up first, and
// only those with one are probed player by player (an index descent each,
// about two buffers an event).
func queueRemovedBoardPlayers(reads *pgx.Batch, rows map[boardRowKey]*boardRow) {
	boards, keys, players := make([]string, 0, len(rows)), make([]string, 0, len(rows)), make([]string, 0, len(rows))
	for key := range rows {
		boards, keys, players = append(boards, key.board), append(keys, key.key), append(players, key.player)
	}
	const q = `WITH removing AS MATERIALIZED (
			SELECT p.board_id, p.key, p.id FROM periods p
			WHERE (p.board_id, p.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
				AND EXISTS (SELECT FROM board_removed_players r WHERE r.period_id = p.id))
		SELECT m.board_id, m.key, r.player_id
		FROM removing m
		JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(board_id, key, player_id) ON k.board_id = m.board_id AND k.key = m.key
		JOIN board_removed_players r ON r.period_id = m.id AND r.player_id = k.player_id`
	reads.Queue(q, boards, keys, players).Query(func(result pgx.Rows) error {
		var key boardRowKey
		_, err := pgx.ForEachRow(result, []any{&key.board, &key.key, &key.player}, func() error {
			rows[key].removed = true
			return nil
		})
		if err != nil {
			return errorf("read removed players: %w", err)
		}
		return nil
	})
}

// decideBoardEvents applies the boards' rules to every event in order,
// updating rows and filling results, and returns the events to record as
// accepted.
func decideBoardEvents(b *boardBatch, periods map[periodRef]periodState, prior map[boardEventRef]priorBoardEvent,
	rows map[boardRowKey]*boardRow, results []leaderboard.ScoreResult) []acceptedBoardEvent {
	var accepted []acceptedBoardEvent
	for i, e := range b.events {
		ref := boardEventRef{board: e.BoardID(), eventID: e.EventID}
		// A retry is DUPLICATE even once its period stopped taking events.
		if p, ok := prior[ref]; ok && p.sameAs(e) {
			results[i] = p.outcome(e)
			continue
		} else if ok {
			results[i] = rejectOnBoard(e, "", reusedEventID(e))
			continue
		}
		if r, bad := b.rejected[i]; bad {
			results[i] = r
			continue
		}
		p := b.period[i]
		// A period without a row is not open yet: decide as if it were, and
		// applyBoardBatch opens it first if any of its events is accepted.
		state, ok := periods[p.periodRef]
		switch {
		case ok && state.status != leaderboard.PeriodOpen:
			results[i] = rejectOnBoard(e, p.key, periodTakesNoScores(p.periodRef, state.status))
			continue
		case !ok && b.boards[p.board].Reset == leaderboard.ResetSeason:
			// Only createSeason makes seasons: this one was removed since it was read.
			results[i] = rejectOnBoard(e, "", leaderboard.Errorf(leaderboard.ENOTSTARTED,
				"board %s has no season at %s", p.board, b.at[i].UTC().Format(time.RFC3339)))
			continue
		}
		row := rows[boardRowKey{periodRef: p.periodRef, player: e.PlayerID}]
		if row.removed {
			results[i] = rejectOnBoard(e, p.key, playerRemoved(p.periodRef, e.PlayerID))
			continue
		}
		var current *leaderboard.BoardRow
		if row.exists || row.changedBy >= 0 {
			current = &row.row
		}
		next, changed, err := b.boards[p.board].Decide(e, b.at[i], current)
		if err != nil {
			results[i] = rejectOnBoard(e, p.key, err)
			continue
		}
		a := acceptedBoardEvent{index: i, status: leaderboard.StatusUnchanged, newScore: next.Score}
		if current != nil {
			a.oldScore = new(current.Score)
		}
		if changed {
			a.status = leaderboard.StatusApplied
			row.row, row.changedBy = next, i
		}
		accepted = append(accepted, a)
		results[i] = withMonth(leaderboard.ScoreResult{EventID: e.EventID, Status: a.status, PlayerID: e.PlayerID,
			Score: new(next.Score), Board: p.board, Period: p.key})
		prior[ref] = priorBoardEvent{mode: e.Mode, value: e.Value, subscore: e.Subscore, result: withMonth(leaderboard.ScoreResult{
			EventID: e.EventID, Status: leaderboard.StatusDuplicate, PlayerID: e.PlayerID, Score: new(next.Score),
			Board: p.board, Period: p.key})}
	}
	return accepted
}

// assignBoardSeqs hands each changed row one of seqs, in the order of the
// events that changed them, so exact ties of time rank by arrival.
func assignBoardSeqs(rows map[boardRowKey]*boardRow, seqs []int64) {
	var changed []*boardRow
	for _, r := range rows {
		if r.changedBy >= 0 {
			changed = append(changed, r)
		}
	}
	slices.SortFunc(changed, func(a, b *boardRow) int { return a.changedBy - b.changedBy })
	for i, r := range changed {
		r.seq = seqs[i]
	}
}

// queueBoardWrites queues the batch's outcome: players and their names, new
// and changed rows, and the accepted events; it returns the counters' moves,
// whose sparse cells are written once the batch was sent
// (rankDeltas.writeSparseCells).
func queueBoardWrites(writes *pgx.Batch, b *boardBatch, periods map[periodRef]periodState,
	rows map[boardRowKey]*boardRow, accepted []acceptedBoardEvent) rankDeltas {
	if len(accepted) == 0 {
		return newRankDeltas()
	}
	queueBoardPlayers(writes, b, rows, accepted)
	counts := queueBoardRows(writes, b, periods, rows)
	queueBoardEvents(writes, b, periods, accepted)
	// Last, so that the hot counter rows stay locked only until the
	// commit.
	counts.queue(writes)
	return counts
}

// queueBoardPlayers upserts the accepted events' players with the latest
// name each event carried: a player with a row in the event's period, and
// no name in the event, is left alone.
func queueBoardPlayers(writes *pgx.Batch, b *boardBatch, rows map[boardRowKey]*boardRow, accepted []acceptedBoardEvent) {
	names := map[string]*string{}
	for _, a := range accepted {
		e := b.events[a.index]
		if e.PlayerName == nil && rows[boardRowKey{periodRef: b.period[a.index].periodRef, player: e.PlayerID}].exists {
			continue
		}
		keepLatestName(names, e)
	}
	queueNames(writes, names)
}

// boardRowColumns holds rows of board_scores column by column, for unnest.
type boardRowColumns struct {
	periods                   []int32
	players                   []string
	scores                    []int32
	subscores                 []*int32
	sortScores, sortSubscores []int64
	reachedAt                 []time.Time
	seqs                      []int64
	metadata                  []*string
}

func (c *boardRowColumns) add(board *leaderboard.Board, periodID int32, player string, r *boardRow) {
	sortScore, sortSubscore := board.SortKey(r.row.Score, r.row.Subscore)
	c.periods, c.players = append(c.periods, periodID), append(c.players, player)
	c.scores, c.subscores = append(c.scores, int32(r.row.Score)), append(c.subscores, int32Ptr(r.row.Subscore))
	c.sortScores, c.sortSubscores = append(c.sortScores, sortScore), append(c.sortSubscores, sortSubscore)
	c.reachedAt, c.seqs = append(c.reachedAt, r.row.ReachedAt), append(c.seqs, r.seq)
	var metadata *string
	if r.row.Metadata != nil {
		metadata = new(string(r.row.Metadata))
	}
	c.metadata = append(c.metadata, metadata)
}

// int32Ptr returns *n as an int32, nil for nil.
func int32Ptr(n *int) *int32 {
	if n == nil {
		return nil
	}
	return new(int32(*n))
}

// queueBoardRows inserts the rows that are new and updates the rows that
// changed, in (period, player) order, and returns the moves of their rank
// counters. The INSERT has no ON CONFLICT on purpose: a concurrent first
// event of the same player must fail this batch (to be retried), not be
// overwritten.
func queueBoardRows(writes *pgx.Batch, b *boardBatch, periods map[periodRef]periodState,
	rows map[boardRowKey]*boardRow) rankDeltas {
	keys := slices.SortedFunc(maps.Keys(rows), func(x, y boardRowKey) int {
		return cmp.Or(cmp.Compare(periods[x.periodRef].id, periods[y.periodRef].id), strings.Compare(x.player, y.player))
	})
	var inserts, updates boardRowColumns
	counts := newRankDeltas()
	for _, key := range keys {
		r := rows[key]
		if r.changedBy < 0 {
			continue
		}
		board, id := b.boards[key.board], periods[key.periodRef].id
		if r.exists {
			updates.add(board, id, key.player, r)
			counts.countRow(board, id, r.stored, -1)
		} else {
			inserts.add(board, id, key.player, r)
		}
		counts.countRow(board, id, r.row, 1)
	}
	const (
		columns = `unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::bigint[], $6::bigint[], $7::timestamptz[],
			$8::bigint[], $9::text[]) AS u(period_id, player_id, score, subscore, sort_score, sort_subscore, reached_at, seq, metadata)`
		insert = `INSERT INTO board_scores
			(period_id, player_id, score, subscore, sort_score, sort_subscore, reached_at, seq, metadata)
			SELECT period_id, player_id, score, subscore, sort_score, sort_subscore, reached_at, seq, metadata::jsonb
			FROM ` + columns
		update = `UPDATE board_scores s SET score = u.score, subscore = u.subscore, sort_score = u.sort_score,
			sort_subscore = u.sort_subscore, reached_at = u.reached_at, seq = u.seq, metadata = u.metadata::jsonb
			FROM ` + columns + `
			WHERE s.period_id = u.period_id AND s.player_id = u.player_id`
	)
	for _, w := range []struct {
		q    string
		cols *boardRowColumns
	}{{insert, &inserts}, {update, &updates}} {
		if c := w.cols; len(c.players) > 0 {
			writes.Queue(w.q, c.periods, c.players, c.scores, c.subscores, c.sortScores, c.sortSubscores,
				c.reachedAt, c.seqs, c.metadata)
		}
	}
	return counts
}

// queueBoardEvents records the accepted events. A concurrent batch that
// recorded one of the same event ids first makes this INSERT fail with a
// unique violation; the retry then finds it and reports DUPLICATE.
func queueBoardEvents(writes *pgx.Batch, b *boardBatch, periods map[periodRef]periodState, accepted []acceptedBoardEvent) {
	n := len(accepted)
	var (
		boards, ids, players = make([]string, n), make([]string, n), make([]string, n)
		modes, statuses      = make([]string, n), make([]string, n)
		periodIDs            = make([]int32, n)
		values, newScores    = make([]int32, n), make([]int32, n)
		subscores, oldScores = make([]*int32, n), make([]*int32, n)
		occurred, received   = make([]time.Time, n), make([]time.Time, n)
	)
	for i, a := range accepted {
		e := b.events[a.index]
		boards[i], ids[i], players[i] = e.BoardID(), e.EventID, e.PlayerID
		modes[i], statuses[i] = string(e.Mode), string(a.status)
		periodIDs[i] = periods[b.period[a.index].periodRef].id
		values[i], newScores[i] = int32(e.Value), int32(a.newScore)
		subscores[i], oldScores[i] = int32Ptr(e.Subscore), int32Ptr(a.oldScore)
		occurred[i], received[i] = b.at[a.index], b.received[a.index]
	}
	const q = `INSERT INTO board_score_events (board_id, event_id, period_id, player_id, mode, value, subscore,
			occurred_at, received_at, status, old_score, new_score)
		SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[],
			$8::timestamptz[], $9::timestamptz[], $10::text[], $11::int[], $12::int[])`
	writes.Queue(q, boards, ids, periodIDs, players, modes, values, subscores, occurred, received, statuses, oldScores, newScores)
}

// The refusals of decideBoardEvents, in the month's words on main, as the
// month contract has them.

func reusedEventID(e leaderboard.ScoreEvent) *leaderboard.Error {
	if e.BoardID() == leaderboard.MainBoard {
		return leaderboard.Errorf(leaderboard.EBADINPUT,
			"eventId %q was used before for a different event (player, mode or value): an eventId names one event", e.EventID)
	}
	return leaderboard.Errorf(leaderboard.EBADINPUT,
		"eventId %q was used before on board %s for a different event (player, mode, value or subscore): an eventId names one event",
		e.EventID, e.BoardID())
}

func periodTakesNoScores(p periodRef, status leaderboard.PeriodStatus) *leaderboard.Error {
	if p.board == leaderboard.MainBoard {
		return leaderboard.Errorf(leaderboard.EMONTHCLOSED, "month %s is %s and takes no more scores", p.key, status)
	}
	return leaderboard.Errorf(leaderboard.EMONTHCLOSED, "period %s of board %s is %s: the period is closed", p.key, p.board, status)
}

func playerRemoved(p periodRef, playerID string) *leaderboard.Error {
	if p.board == leaderboard.MainBoard {
		return leaderboard.Errorf(leaderboard.EFORBIDDEN, "player %q was removed from month %s by an admin", playerID, p.key)
	}
	return leaderboard.Errorf(leaderboard.EFORBIDDEN, "player %q was removed from period %s of board %s by an admin",
		playerID, p.key, p.board)
}
