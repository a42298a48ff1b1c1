package db

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The close of a period of any board, main's months included, is one
// transaction, which
// takes the period's close lock (a transaction advisory lock on its id) and
// then its row FOR UPDATE: that waits for the submissions in flight, which
// hold the row FOR SHARE, and makes those that come after read it CLOSED and
// refuse their events. The transaction ranks the period's scores into
// board_final_ranks and digests them (rankPeriod), marks
// the period CLOSED and records its settlement message. A crash rolls it all
// back; the CLOSED check makes a second close a no-op. A close an admin asks
// for (ClosePeriod) first turns the period CLOSING in a short transaction of
// its own (StopPeriod), which waits for the submissions in flight as the
// close does: the early close is then recorded, refused by every later
// submission, and listed by PeriodsToClose for any instance to finish should
// this one be cut off; a due period needs no such step, its events being
// refused by their time and the period found due again. A period of a small
// board closes in milliseconds, so ten thousand of them due at once are
// closed by any number of instances, many per transaction (TryClosePeriods,
// periodgroupclose.go); a large one, such as main's month at ten million
// players, is closed alone.

// closingChannel carries "board key" of each period stopped early, as its
// stop commits (StopPeriod).
const closingChannel = "leaderboard_closing_periods"

// periodWriteLockClass is the first key of a period's write lock: every
// submission holds it shared until it commits, and a close's stop takes it
// exclusive. PostgreSQL queues a shared request behind a waiting exclusive
// one, so a stop cannot starve behind a stream of submissions (as it can
// behind row locks FOR SHARE, which new share lockers join freely). The
// second key is periodWriteKeySQL of
// the period's board and key (its id may not exist yet when a batch takes
// it).
const periodWriteLockClass = 0x6c627077 // "lbpw"

// periodWriteKeySQL is the second key of the write lock of the period of
// row p (its columns board_id and key).
const periodWriteKeySQL = `hashtext(p.board_id || ' ' || p.key)`

// ListenClosingPeriods calls fn with each period of any board whose early
// close another instance (or this one) has just accepted, until
// ctx ends or the connection fails or its server stops answering; it then
// returns why. A stop announced while no one listens is still found by the
// scheduler's next look (PeriodsToClose lists CLOSING periods).
func (db *DB) ListenClosingPeriods(ctx context.Context, fn func(board, key string)) error {
	err := db.listen(ctx, closingChannel, func(payload string) {
		if board, key, ok := strings.Cut(payload, " "); ok {
			fn(board, key)
		}
	})
	return errorf("listen for periods closing: %w", err)
}

// periodCloseLockClass is the first key of a period's close lock; the second
// is the period's id.
const periodCloseLockClass = 0x6c627063 // "lbpc"

// The types of the messages of a period of a board whose reset is not MONTH:
// its close, and each correction of it once closed.
const (
	messagePeriodClosed    = "period.closed"
	messagePeriodCorrected = "period.corrected"
)

// PeriodsToClose returns, those that ended first first, up to limit periods
// of every board, main's months included, whose close should run now, with
// their Board, Key and Status only: every CLOSING period and, when auto is
// true, every OPEN period whose closesAt (its end plus its board's close
// grace) has passed. A NONE board's period is due once the board's end has;
// without an end, never.
func (db *DB) PeriodsToClose(ctx context.Context, auto bool, limit int) ([]leaderboard.Period, error) {
	// The partial index holds only the periods not CLOSED, about one per
	// board, whatever the closed periods kept.
	q := `SELECT p.board_id, p.key, p.status FROM periods p JOIN boards b ON b.id = p.board_id
		WHERE p.status <> 'CLOSED' AND (p.status = 'CLOSING' OR ($1 AND
			COALESCE(p.ends_at, b.ends_at) + ` + closeGraceSQL("$4") + ` <= $2))
		ORDER BY COALESCE(p.ends_at, b.ends_at), p.board_id, p.key LIMIT $3`
	rows, err := db.pool.Query(ctx, q, auto, db.now(), limit, db.closeGrace.Milliseconds())
	if err != nil {
		return nil, errorf("find periods to close: %w", err)
	}
	var (
		due    []leaderboard.Period
		d      leaderboard.Period
		status string
	)
	_, err = pgx.ForEachRow(rows, []any{&d.Board, &d.Key, &status}, func() error {
		d.Status = leaderboard.PeriodStatus(status)
		due = append(due, d)
		return nil
	})
	if err != nil {
		return nil, errorf("find periods to close: %w", err)
	}
	return due, nil
}

// NextPeriodClose returns how long, by the DB's clock, until the earliest
// closesAt still to come of the OPEN periods of every board, and
// false when none has one: when the period closer next has work, so that it
// wakes then rather than up to a scheduler interval later.
func (db *DB) NextPeriodClose(ctx context.Context) (time.Duration, bool, error) {
	q := `SELECT min(COALESCE(p.ends_at, b.ends_at) + ` + closeGraceSQL("$2") + `)
		FROM periods p JOIN boards b ON b.id = p.board_id
		WHERE p.status = 'OPEN' AND COALESCE(p.ends_at, b.ends_at) + ` + closeGraceSQL("$2") + ` > $1`
	now := db.now()
	var next *time.Time
	if err := db.pool.QueryRow(ctx, q, now, db.closeGrace.Milliseconds()).Scan(&next); err != nil {
		return 0, false, errorf("find the next period close: %w", err)
	}
	if next == nil {
		return 0, false, nil
	}
	return next.Sub(now), true, nil
}

// ClosePeriod closes period key of board, waiting for a close of it that
// runs elsewhere, and returns it CLOSED. A CLOSED period is returned as it
// is. An OPEN period is first stopped as StopPeriod stops it, so that a
// close cut off after that is finished by the scheduler of any instance. An
// OPEN period closed before its end ends early; a period no event opened
// gets its row and closes with no participants. ENOTFOUND for an unknown
// board or a season it does not have; EBADINPUT for a key that is not one of
// the board's; ENOTFOUND for a month of main no event opened; ECONFLICT for a
// period that has not started.
func (db *DB) ClosePeriod(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	p, _, err := db.closePeriod(ctx, board, key, false)
	return p, err
}

// StopPeriod accepts the close of period key of board: an OPEN period turns
// CLOSING, in a short transaction of its own that waits for the submissions
// in flight (they hold the period's row FOR SHARE). From its commit on,
// every event for the period is REJECTED with MONTH_CLOSED on every
// instance, the period reads CLOSING, and the scheduler of any instance
// closes it (PeriodsToClose lists it) should the close that stopped it be
// cut off. It returns the period as it stands; a CLOSING or CLOSED one is
// left as it is. The errors are ClosePeriod's.
func (db *DB) StopPeriod(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	b, row, err := db.periodToClose(ctx, board, key)
	if err != nil {
		return nil, err
	}
	if row.status == leaderboard.PeriodOpen {
		if err := db.stopPeriod(ctx, b, row); err != nil {
			return nil, err
		}
	}
	return db.period(ctx, b, key)
}

// TryClosePeriod is ClosePeriod unless another transaction holds the
// period's close lock: then ran is false, nothing was done and the period is
// nil. TryClosePeriods closes a period this way when its group could not:
// its row was held by a submission, or the group's transaction failed. An
// OPEN period is closed without being stopped first (it is due, and its
// events are refused by their time), but for a month of main (closePeriod).
func (db *DB) TryClosePeriod(ctx context.Context, board, key string) (p *leaderboard.Period, ran bool, err error) {
	return db.closePeriod(ctx, board, key, true)
}

// periodToClose returns board and the row of its period key, made when no
// event opened the period yet; the errors are ClosePeriod's.
func (db *DB) periodToClose(ctx context.Context, board, key string) (*leaderboard.Board, *periodRow, error) {
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, nil, err
	}
	if _, isMain, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, nil, err
	} else if isMain {
		// A month of main that no event opened has nothing to close: the
		// month contract answers NOT_FOUND.
		const q = `SELECT id, key, status, starts_at, ends_at FROM periods WHERE board_id = $1 AND key = $2`
		row, err := scanPeriodRow(db.pool.QueryRow(ctx, q, b.ID, key))
		if noRows(err) {
			return nil, nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", key)
		}
		return b, row, err
	}
	row, err := db.ensurePeriodRow(ctx, b, key, false)
	if err != nil {
		return nil, nil, errorf("close period %s of %s: %w", key, board, err)
	}
	return b, row, nil
}

// stopPeriod turns period row of b CLOSING unless it is no longer OPEN: the
// UPDATE waits for the
// submissions that hold the row FOR SHARE, and those that come after read
// CLOSING and refuse their events.
func (db *DB) stopPeriod(ctx context.Context, b *leaderboard.Board, row *periodRow) error {
	// The notification goes out at the commit: every instance then watches
	// the close (ListenClosingPeriods), to take it over should this one die.
	const stop = `WITH stopped AS (
			UPDATE periods SET status = 'CLOSING' WHERE board_id = $1 AND id = $2 AND status = 'OPEN' RETURNING key)
		SELECT pg_notify('` + closingChannel + `', $1 || ' ' || key) FROM stopped`
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		// The period's write lock, exclusive, first: the submissions in
		// flight hold it shared and those after queue behind it, so the stop
		// does not starve behind their row locks FOR SHARE, which new share
		// lockers join freely (a test's four writers, waiting on each other's
		// rank counters, kept it out for 2 s).
		const lock = `SELECT pg_advisory_xact_lock($1, ` + periodWriteKeySQL + `) FROM (SELECT $2::text AS board_id, $3::text AS key) AS p`
		if _, err := tx.Exec(ctx, lock, periodWriteLockClass, b.ID, row.key); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, stop, b.ID, row.id)
		return err
	})
	if err != nil {
		return errorf("stop period %s of %s: %w", row.key, b.ID, err)
	}
	row.status = leaderboard.PeriodClosing
	return nil
}

func (db *DB) closePeriod(ctx context.Context, board, key string, try bool) (*leaderboard.Period, bool, error) {
	ctx = db.reportingProgress(ctx, board, key)
	b, row, err := db.periodToClose(ctx, board, key)
	if err != nil {
		return nil, false, err
	}
	// A due period is closed without being stopped first, its events
	// refused by their time, but for a month of main: the month contract
	// shows it CLOSING while it closes, and the next instance resumes a
	// CLOSING month whatever its clock and grace.
	if row.status == leaderboard.PeriodOpen && (!try || b.ID == leaderboard.MainBoard) {
		if err := db.closePhase.start(ctx, "stop"); err != nil {
			return nil, false, err
		}
		if err := db.stopPeriod(ctx, b, row); err != nil {
			return nil, false, err
		}
	}
	if row.status != leaderboard.PeriodClosed {
		// The bucket is chosen once, before its partition is made: a NONE
		// board's period goes to the month the close starts in, also when
		// the close commits in the next one.
		bucket := finalBucket(b, row.endsAt, db.now())
		err := db.closePhase.start(ctx, "partition")
		if err == nil {
			err = db.ensureFinalRanksPartition(ctx, bucket)
		}
		if err != nil {
			return nil, false, errorf("close period %s of %s: %w", key, board, err)
		}
		ran := true
		var handing *periodHanding
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			var err error
			ran, handing, err = db.closePeriodTx(ctx, tx, b, row, bucket, try)
			return err
		})
		defer handing.stop()
		if err != nil {
			// Retention may have dropped the bucket's partition: look again.
			db.finalBuckets.Delete(bucket)
			return nil, false, errorf("close period %s of %s: %w", key, board, err)
		}
		if !ran {
			return nil, false, nil
		}
		db.closing.saw(periodRef{board: b.ID, key: key}, leaderboard.PeriodClosed)
		if handing != nil {
			// Committed: the close is done whether or not memory takes it.
			if err := handing.hand(ctx); err != nil {
				db.logger.Warn("closed period not handed to memory; it loads on its first read",
					"board", board, "period", key, "err", err)
			}
		}
		if err := db.closePhase.start(ctx, "closed"); err != nil {
			return nil, false, errorf("close period %s of %s: %w", key, board, err)
		}
	}
	p, err := db.period(ctx, b, key)
	return p, true, err
}

// periodRow is what a close or a clear reads of a period's row.
type periodRow struct {
	id       int32
	key      string
	status   leaderboard.PeriodStatus
	startsAt time.Time
	endsAt   *time.Time
}

// ensurePeriodRow returns the row of period key of b, making it when no
// event opened the period yet. ENOTFOUND for a season b does not have or a
// period outside b's life; ECONFLICT for one that has not started or, when
// open is set, one without a row that takes no more events.
func (db *DB) ensurePeriodRow(ctx context.Context, b *leaderboard.Board, key string, open bool) (*periodRow, error) {
	span, err := b.PeriodSpan(key)
	if err != nil {
		return nil, err
	}
	const q = `SELECT id, key, status, starts_at, ends_at FROM periods WHERE board_id = $1 AND key = $2`
	row, err := scanPeriodRow(db.pool.QueryRow(ctx, q, b.ID, key))
	if err == nil || !noRows(err) {
		return row, err
	}
	if b.Reset == leaderboard.ResetSeason {
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "board %s has no season %s", b.ID, key)
	}
	startsAt := span.Start
	if b.StartsAt.After(startsAt) {
		startsAt = b.StartsAt
	}
	switch {
	case b.EndsAt != nil && !span.Start.Before(*b.EndsAt), span.End != nil && !span.End.After(startsAt):
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "board %s has no period %s: it lies outside the board's life%s",
			b.ID, key, db.currentPeriodHint(ctx, b))
	case db.now().Before(startsAt):
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s has not started: it starts at %s",
			key, b.ID, startsAt.UTC().Format(time.RFC3339))
	case open && span.End != nil && !db.now().Before(span.End.Add(b.CloseGrace)):
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s takes no more events", key, b.ID)
	case span.End != nil && !db.now().Before(span.End.Add(b.CloseGrace)):
		// Over without a row: it had no events, or retention dropped it. Made
		// now, it would be closed a second time, with nobody in it.
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND,
			"period %s of %s is over and has no scores (or was dropped by retention)%s", key, b.ID, db.currentPeriodHint(ctx, b))
	}
	// A submission may open the period at the same moment: the primary key
	// decides, and both then read the one row.
	const insert = `INSERT INTO periods (board_id, key, starts_at, ends_at, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (board_id, key) DO NOTHING`
	if _, err := db.pool.Exec(ctx, insert, b.ID, key, startsAt, span.End, db.now()); err != nil {
		return nil, err
	}
	return scanPeriodRow(db.pool.QueryRow(ctx, q, b.ID, key))
}

// currentPeriodHint returns the end of a message about a key that names no
// period of b: the zone whose calendar b's keys follow and b's current key,
// so that a caller who took a UTC date for a Tokyo day sees which key is
// meant. It says nothing more when the current key cannot be read.
func (db *DB) currentPeriodHint(ctx context.Context, b *leaderboard.Board) string {
	zone := fmt.Sprintf("; its periods follow the calendar of %s", b.Location)
	key, ok, err := db.CurrentKey(ctx, b)
	switch {
	case err != nil:
		return zone
	case !ok:
		return zone + ", and no period is current now"
	}
	return fmt.Sprintf("%s, and its current period is %s (%s there)", zone, key,
		db.now().In(b.Location).Format("2006-01-02 15:04 MST"))
}

func scanPeriodRow(row pgx.Row) (*periodRow, error) {
	var (
		r      periodRow
		status string
	)
	if err := row.Scan(&r.id, &r.key, &status, &r.startsAt, &r.endsAt); err != nil {
		return nil, err
	}
	r.status = leaderboard.PeriodStatus(status)
	return &r, nil
}

// finalBucket returns the partition key of the final ranks of a period of b
// that ends at endsAt and closes at closedAt: the first day of the UTC month
// that holds the period's last instant, or, for a NONE board's period (or
// one without an end), the month it closes in.
func finalBucket(b *leaderboard.Board, endsAt *time.Time, closedAt time.Time) time.Time {
	t := closedAt
	if b.Reset != leaderboard.ResetNone && endsAt != nil {
		t = endsAt.Add(-time.Microsecond)
	}
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// bucketPartition returns the name of bucket's partition of board_final_ranks.
func bucketPartition(bucket time.Time) string {
	return fmt.Sprintf("board_final_ranks_%04d_%02d", bucket.Year(), int(bucket.Month()))
}

// ownBucket is the bucket of the periods whose final ranks have a partition
// of their own (migration 27): a date no month's bucket has.
var ownBucket = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)

// defaultOwnPartitionPlayers is Limits.OwnPartitionPlayers' default.
const defaultOwnPartitionPlayers = 100_000

// ownPartitionPlayers returns Limits.OwnPartitionPlayers, or its default.
func (db *DB) ownPartitionPlayers() int {
	return cmp.Or(db.limits.OwnPartitionPlayers, defaultOwnPartitionPlayers)
}

// ownPartition returns the name, quoted, of the table of period id's final
// ranks of their own of the given version (periods.ranks_version): a
// correction builds the next version beside the one in use and swaps them
// (attachOwnFinalRanks), so each version has a name of its own. The first
// keeps the name migration 27 gave it.
func ownPartition(id int32, version int) string {
	if version <= 1 {
		return pgx.Identifier{fmt.Sprintf("board_final_ranks_own_%d", id)}.Sanitize()
	}
	return pgx.Identifier{fmt.Sprintf("board_final_ranks_own_%d_v%d", id, version)}.Sanitize()
}

// finalRanksPartition returns the name, quoted, of bucket's partition of
// board_final_ranks, which holds the final ranks of the month's periods
// but those of their own (ownPartition).
func finalRanksPartition(bucket time.Time) string {
	return pgx.Identifier{bucketPartition(bucket)}.Sanitize()
}

// ensureFinalRanksPartition makes bucket's partition of board_final_ranks,
// with its player index (playerIndexSQL), unless it exists. Making a
// partition locks the parent exclusively, which would hold every other
// close and every read of final ranks for as long as the transaction that
// made it: so it is made in a short transaction of its own, once a month,
// under an advisory lock that lets one of many closes make it while the
// others wait and then find it.
func (db *DB) ensureFinalRanksPartition(ctx context.Context, bucket time.Time) error {
	if _, ok := db.finalBuckets.Load(bucket); ok {
		return nil
	}
	name := bucketPartition(bucket)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const exists = `SELECT to_regclass($1) IS NOT NULL`
		var made bool
		if err := tx.QueryRow(ctx, exists, name).Scan(&made); err != nil || made {
			return err
		}
		// A close that waited here for another finds the partition made, and
		// its index with it: its CREATE INDEX IF NOT EXISTS would otherwise
		// wait for the other close's rows to commit, past lock_timeout.
		const lock = `SELECT pg_advisory_xact_lock(hashtext('leaderboard.final_ranks_bucket'), $1)`
		if _, err := tx.Exec(ctx, lock, bucket.Year()*100+int(bucket.Month())); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, exists, name).Scan(&made); err != nil || made {
			return err
		}
		// The bucket's literal is built from its numbers, never from input.
		create := fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s PARTITION OF board_final_ranks FOR VALUES IN (DATE '%04d-%02d-01')`,
			pgx.Identifier{name}.Sanitize(), bucket.Year(), int(bucket.Month()))
		if _, err := tx.Exec(ctx, create); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, playerIndexSQL(name))
		return err
	})
	if err != nil {
		return fmt.Errorf("make the final ranks partition %s: %w", name, err)
	}
	db.finalBuckets.Store(bucket, true)
	return nil
}

// playerIndexSQL makes the player index (player_id, period_id) of
// partition, a month's partition of board_final_ranks, unless it has it:
// the index of the many small periods of the month, by which a player's
// final rows are found. An own partition has none (migration 29).
func playerIndexSQL(partition string) string {
	return fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s (player_id, period_id)`,
		pgx.Identifier{partition + "_player_id_period_id_idx"}.Sanitize(), pgx.Identifier{partition}.Sanitize())
}

// closePeriodTx is the close's transaction of period row of b. It returns
// false, having done nothing, when try is set and another transaction holds
// the period's close lock; and, when the DB hands its periods to memory and
// this one is to go, its handing, for once the transaction commits.
func (db *DB) closePeriodTx(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, bucket time.Time,
	try bool) (ran bool, handing *periodHanding, err error) {
	defer func() {
		if err != nil {
			handing.stop()
			handing = nil
		}
	}()
	ran, err = db.closePeriodRows(ctx, tx, b, row, bucket, try, func(rows *rankedRows, closedAt time.Time) {
		handing = db.startHanding(ctx, b, row, rows, closedAt)
	})
	// The commit follows: the period's reads go to the database until
	// its handing (periodHanding.unstage).
	handing.unstage()
	return ran, handing, err
}

// closePeriodRows is closePeriodTx but for its handing: read is called with
// the period's rows, once they are read, and the close's time.
func (db *DB) closePeriodRows(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, bucket time.Time, try bool,
	read func(rows *rankedRows, closedAt time.Time)) (bool, error) {
	if err := longJob(ctx, tx); err != nil {
		return false, err
	}
	if err := db.closePhase.start(ctx, "lock"); err != nil {
		return false, err
	}
	lock := `SELECT true FROM pg_advisory_xact_lock($1, $2)`
	if try {
		lock = `SELECT pg_try_advisory_xact_lock($1, $2)`
	}
	var locked bool
	if err := tx.QueryRow(ctx, lock, periodCloseLockClass, row.id).Scan(&locked); err != nil {
		return false, err
	}
	if try && !locked {
		return false, nil
	}
	const lockRow = `SELECT status, starts_at, ends_at FROM periods WHERE board_id = $1 AND id = $2 FOR UPDATE`
	var status string
	if err := tx.QueryRow(ctx, lockRow, b.ID, row.id).Scan(&status, &row.startsAt, &row.endsAt); err != nil {
		return false, err
	}
	if leaderboard.PeriodStatus(status) == leaderboard.PeriodClosed {
		return true, nil
	}
	// This instance's reads of the period give way to its close from now,
	// not from the first read that finds it CLOSING.
	db.closing.saw(periodRef{board: b.ID, key: row.key}, leaderboard.PeriodClosing)
	closedAt := db.now()
	ranks, err := rankPeriod(ctx, tx, b, row.id, bucket, db.ownPartitionPlayers(), 1, db.closePhase,
		func(rows *rankedRows) { read(rows, closedAt) })
	if err != nil {
		return false, err
	}
	bucket = ranks.bucket
	if err := db.closePhase.start(ctx, "cohorts"); err != nil {
		return false, err
	}
	if err := closeCohorts(ctx, tx, b, row, bucket, ranks); err != nil {
		return false, err
	}
	if err := db.closePhase.start(ctx, "mark"); err != nil {
		return false, err
	}
	writes := &pgx.Batch{}
	const markClosed = `UPDATE periods SET status = 'CLOSED', closed_at = $3, participants = $4, digest = $5,
		ranks_version = 1, final_bucket = $6 WHERE board_id = $1 AND id = $2`
	writes.Queue(markClosed, b.ID, row.id, closedAt, ranks.participants, ranks.digest, bucket)
	// Every instance hears of the close at its commit and loads the period
	// (closedperiods.Watcher): a period closed on its own is a large one,
	// or one an admin closed, whose readers come at once.
	writes.Queue(announcePeriodSQL, row.id)
	if db.settlement {
		msg, err := periodMessageOf(b, row, closedAt, ranks, nil)
		if err != nil {
			return false, err
		}
		queueMessage(writes, b.ID, row.id, msg)
	}
	if err := tx.SendBatch(ctx, writes).Close(); err != nil {
		return false, err
	}
	return true, db.closePhase.start(ctx, "commit")
}

// rankedPeriod is what ranking a period found: its participants, digest and
// first messageTop ranks, named.
type rankedPeriod struct {
	participants int
	digest       string
	top          []periodEntry
	// cohorts is set by the close of a board with cohorts: its moves by
	// rankPeriod (placeInCohorts) or closeCohorts, its count by closeCohorts.
	cohorts *cohortSummary
	// bucket is where rankPeriod wrote the final ranks.
	bucket time.Time
}

// rankPeriod ranks period id's scores in b's order (the sort keys rank
// ascending, then who reached them first, then seq): read once by
// binary COPY into memory, in the order of the heap and sorted here
// (readRankedRows), then copied by binary COPY in rank order into bucket's
// final ranks, digested, and the first messageTop named. It returns the
// bucket the ranks went to in the ranking.
//
// With ownFrom set and at least that many players, or in ownBucket, the
// ranks go to a partition of their own of the given version, as a month's
// close builds its table: made in this transaction, so the copy writes its
// rows frozen, its primary key built after its rows, then attached in place
// of the version before, with no player index (createOwnFinalRanks,
// indexOwnFinalRanks, attachOwnFinalRanks). Appended to the month's
// partition instead, PostgreSQL keeps the partition's two indexes row by
// row, the player index (player_id, period_id) in random places: at a
// million players three quarters of the close (docs/design.md, "A large
// period's final ranks"). phases hears its
// steps start (a close's; a correction's are not named). read, unless nil,
// is called with the rows once they are read: a close hands them to memory
// (periodhandoff.go).
func rankPeriod(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, bucket time.Time, ownFrom, version int,
	phases closePhases, read func(*rankedRows)) (*rankedPeriod, error) {
	if err := phases.start(ctx, "read"); err != nil {
		return nil, err
	}
	// The counters hold the period's rows: the columns are sized once.
	var total int
	if err := tx.QueryRow(ctx, periodTotalQuery, id).Scan(&total); err != nil {
		return nil, fmt.Errorf("count the scores: %w", err)
	}
	rows, err := readRankedRows(ctx, tx, periodSource(id, withBoardColumns, total))
	if err != nil {
		return nil, fmt.Errorf("rank the scores: %w", err)
	}
	if read != nil {
		read(rows)
	}
	if err := phases.start(ctx, "write"); err != nil {
		return nil, err
	}
	own := bucket.Equal(ownBucket) || ownFrom > 0 && rows.len() >= ownFrom
	target := periodTarget(id, bucket)
	if own {
		bucket, target = ownBucket, ownTarget(id, version, rows.columns)
		if err := createOwnFinalRanks(ctx, tx, id, version); err != nil {
			return nil, err
		}
	}
	var summary *cohortSummary
	if b.HasCohorts() {
		if target.cohorts, summary, err = placeInCohorts(ctx, tx, b, id, rows); err != nil {
			return nil, fmt.Errorf("place the ranks in their cohorts: %w", err)
		}
	}
	copied, err := copyFinalRanks(ctx, ctx, tx, target, rows)
	if err != nil {
		return nil, fmt.Errorf("copy the final ranks: %w", err)
	}
	if copied != int64(rows.len()) {
		return nil, fmt.Errorf("copied %d of %d ranks", copied, rows.len())
	}
	if own {
		if err := phases.start(ctx, "index"); err != nil {
			return nil, err
		}
		if err := indexOwnFinalRanks(ctx, ctx, tx, id, version); err != nil {
			return nil, err
		}
		if err := phases.start(ctx, "attach"); err != nil {
			return nil, err
		}
		if err := attachOwnFinalRanks(ctx, tx, id, version); err != nil {
			return nil, err
		}
	}
	if err := phases.start(ctx, "names"); err != nil {
		return nil, err
	}
	ranked, err := rankingOf(ctx, tx, b, rows, phases)
	if err != nil {
		return nil, err
	}
	ranked.cohorts = summary
	ranked.bucket = bucket
	return ranked, nil
}

// createOwnFinalRanks makes, in tx, the table of period id's final ranks
// of their own of the given version, without an index. The CHECK spares
// ATTACH a scan of the whole table for its partition constraint; COPY
// checks each row as it writes it.
func createOwnFinalRanks(ctx context.Context, tx pgx.Tx, id int32, version int) error {
	create := fmt.Sprintf(`CREATE TABLE %s (LIKE board_final_ranks, CHECK (bucket = DATE '%s' AND period_id = %d))`,
		ownPartition(id, version), ownBucket.Format(time.DateOnly), id)
	if _, err := tx.Exec(ctx, create); err != nil {
		return fmt.Errorf("make the final ranks' partition: %w", err)
	}
	return nil
}

// indexOwnFinalRanks builds the primary key of period id's final ranks of
// their own of the given version, copied in rank order, after the rows
// (indexAfterRows), and their statistics; the key matches the parent's, so
// ATTACH adopts it. They get no player index (migration 29): a player's
// row is found by rank (own_final_ranks). At
// the end of stop it stops before its next statement.
func indexOwnFinalRanks(ctx, stop context.Context, tx pgx.Tx, id int32, version int) error {
	table := ownPartition(id, version)
	err := indexAfterRows(ctx, stop, tx, table, `ALTER TABLE `+table+` ADD PRIMARY KEY (bucket, period_id, rank)`)
	if err != nil {
		return fmt.Errorf("index the final ranks: %w", err)
	}
	return nil
}

// attachOwnFinalRanks attaches period id's final ranks of their own of the
// given version, indexed, to board_final_ranks_own. After the first version
// (a correction's), the version before is attached: it is detached and
// dropped first, in the same transaction, so that a reader sees the one or
// the other, never both nor neither. DETACH holds board_final_ranks_own
// exclusively until the commit: the build is done by then, and what
// follows the swap is short.
func attachOwnFinalRanks(ctx context.Context, tx pgx.Tx, id int32, version int) error {
	steps := []string{fmt.Sprintf(`ALTER TABLE board_final_ranks_own ATTACH PARTITION %s FOR VALUES IN (%d)`,
		ownPartition(id, version), id)}
	if version > 1 {
		old := ownPartition(id, version-1)
		steps = append([]string{`ALTER TABLE board_final_ranks_own DETACH PARTITION ` + old, `DROP TABLE ` + old}, steps...)
	}
	for _, step := range steps {
		if _, err := tx.Exec(ctx, step); err != nil {
			return fmt.Errorf("attach the final ranks: %w", err)
		}
	}
	return nil
}

// rankingOf names the first messageTop of rows, a period's ranked rows, and
// digests them, as rankPeriod's ranking.
func rankingOf(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, rows *rankedRows, phases closePhases) (*rankedPeriod, error) {
	names, err := topNames(ctx, tx, rows, messageTop)
	if err != nil {
		return nil, fmt.Errorf("name the top ranks: %w", err)
	}
	if err := phases.start(ctx, "digest"); err != nil {
		return nil, err
	}
	ranking := newPeriodRanking()
	for i := range rows.len() {
		var name *string
		if i < len(names) {
			name = names[i]
		}
		ranking.add(i+1, rows.id(i), int(rows.scores[i]), name, rows.metadataOf(i))
	}
	return ranking.done(b), nil
}

// periodRanking gathers a period's final ranks as they are read back, in
// rank order: its participants, its digest, and its first
// messageTop ranks, named.
type periodRanking struct {
	ranked rankedPeriod
	digest *digest
}

func newPeriodRanking() *periodRanking { return &periodRanking{digest: newDigest()} }

// add adds the next rank read back; name and metadata are read for the
// first messageTop ranks only.
func (r *periodRanking) add(rank int, playerID []byte, score int, name *string, metadata []byte) {
	r.ranked.participants++
	r.digest.add(rank, playerID, score)
	if rank <= messageTop {
		e := periodEntry{Rank: rank, PlayerID: string(playerID), Name: name, Score: score}
		if metadata != nil {
			e.Metadata = json.RawMessage(append([]byte(nil), metadata...))
		}
		r.ranked.top = append(r.ranked.top, e)
	}
}

// done returns the ranking once every rank was added, the tiers of its top
// ranks as b's.
func (r *periodRanking) done(b *leaderboard.Board) *rankedPeriod {
	r.ranked.digest = r.digest.sum()
	for i := range r.ranked.top {
		r.ranked.top[i].Tier = b.TierOf(r.ranked.top[i].Rank, r.ranked.participants)
	}
	return &r.ranked
}

// periodMessage is the JSON body of a period.closed or period.corrected
// message, stored and sent byte for byte.
type periodMessage struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Board        string          `json:"board"`
	Period       string          `json:"period"`
	StartsAt     time.Time       `json:"startsAt"`
	EndsAt       *time.Time      `json:"endsAt"`
	ClosedAt     time.Time       `json:"closedAt"`
	Participants int             `json:"participants"`
	Digest       string          `json:"digest"`
	Top          []periodEntry   `json:"top"`
	Correction   *messageCorrect `json:"correction,omitempty"`
	// Only when a correction changed claims (changedclaims.go).
	ChangedClaims []changedClaim `json:"changedClaims,omitempty"`
	// Only in the close of a board with cohorts (periodleagues.go).
	Cohorts *int          `json:"cohorts,omitempty"`
	Leagues []leagueMoves `json:"leagues,omitempty"`
}

// periodEntry is one of a period message's top players.
type periodEntry struct {
	Rank     int             `json:"rank"`
	PlayerID string          `json:"playerId"`
	Name     *string         `json:"name"`
	Score    int             `json:"score"`
	Tier     *string         `json:"tier"`
	Metadata json.RawMessage `json:"metadata"`
}

// outboxMessage is a message ready to be recorded: its id, type and body.
type outboxMessage struct {
	id, typ string
	body    []byte
}

// newMessageID returns a fresh message id: evt_ and 16 random bytes in hex.
func newMessageID() string {
	id := make([]byte, 16)
	rand.Read(id)
	return "evt_" + hex.EncodeToString(id)
}

// periodMessageOf is the message of period row of b closed at closedAt, or,
// with correction, of its correction once closed: month.closed or
// month.corrected on a MONTH board (main's naming the month alone, the
// others' with their board and period added);
// period.closed or period.corrected on the others.
func periodMessageOf(b *leaderboard.Board, row *periodRow, closedAt time.Time, ranks *rankedPeriod,
	correction *messageCorrect) (outboxMessage, error) {
	var (
		msg = outboxMessage{id: newMessageID()}
		v   any
	)
	if b.Reset == leaderboard.ResetMonth {
		top := make([]messageEntry, len(ranks.top))
		for i, e := range ranks.top {
			top[i] = messageEntry{Rank: e.Rank, PlayerID: e.PlayerID, Name: e.Name, Score: e.Score}
		}
		msg.typ = messageClosed
		if correction != nil {
			msg.typ = messageCorrected
		}
		m := monthMessage{ID: msg.id, Type: msg.typ, Month: row.key, Board: b.ID, Period: row.key, ClosedAt: closedAt,
			Participants: int64(ranks.participants), Digest: ranks.digest, Top: top, Correction: correction,
			ChangedClaims: correction.claimsChanged()}
		if b.ID == leaderboard.MainBoard {
			m.Board, m.Period = "", "" // main's bodies name the month alone, as they always did
		}
		v = m
	} else {
		msg.typ = messagePeriodClosed
		if correction != nil {
			msg.typ = messagePeriodCorrected
		}
		top := ranks.top
		if top == nil {
			top = []periodEntry{}
		}
		v = periodMessage{ID: msg.id, Type: msg.typ, Board: b.ID, Period: row.key, StartsAt: row.startsAt,
			EndsAt: row.endsAt, ClosedAt: closedAt, Participants: ranks.participants, Digest: ranks.digest, Top: top,
			Correction: correction, ChangedClaims: correction.claimsChanged()}
	}
	v = ranks.cohorts.addTo(v)
	body, err := json.Marshal(v)
	if err != nil {
		return msg, fmt.Errorf("encode %s message: %w", msg.typ, err)
	}
	msg.body = body
	return msg, nil
}

// queueMessage queues the recording of msg, a message of period id of board.
func queueMessage(b *pgx.Batch, board string, id int32, msg outboxMessage) {
	const q = `INSERT INTO outbox (id, type, board_id, period_id, body) VALUES ($1, $2, $3, $4, $5)`
	b.Queue(q, msg.id, msg.typ, board, id, string(msg.body))
}

// ClearPeriod removes every score of period key of board, which must be
// OPEN, and records the clear as a correction with its reason and no player,
// in one transaction that waits for the submissions in flight (they hold the
// period's row FOR SHARE). Events already taken stay recorded, so that their
// retries are duplicates and do not come back. A period no event opened gets
// its row, to hold the correction. ECONFLICT when the period is not OPEN or
// its closesAt has passed; EBADINPUT for a bad reason or key, or for main;
// ENOTFOUND for an unknown board or a season it does not have.
func (db *DB) ClearPeriod(ctx context.Context, board, key, reason string) (*leaderboard.Period, error) {
	if err := leaderboard.CheckReason(reason); err != nil {
		return nil, err
	}
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, err
	}
	if b.ID == leaderboard.MainBoard {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "main's scores are corrected one by one (correctScore): it has no clearPeriod")
	}
	row, err := db.ensurePeriodRow(ctx, b, key, true)
	if err == nil {
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return db.clearPeriodTx(ctx, tx, b, row, reason) })
	}
	if err != nil {
		return nil, errorf("clear period %s of %s: %w", key, board, err)
	}
	return db.period(ctx, b, key)
}

func (db *DB) clearPeriodTx(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, reason string) error {
	if err := longJob(ctx, tx); err != nil {
		return err
	}
	const lockRow = `SELECT status, ends_at FROM periods WHERE board_id = $1 AND id = $2 FOR UPDATE`
	var status string
	if err := tx.QueryRow(ctx, lockRow, b.ID, row.id).Scan(&status, &row.endsAt); err != nil {
		return err
	}
	now := db.now()
	switch {
	case leaderboard.PeriodStatus(status) != leaderboard.PeriodOpen:
		return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s is %s: only an OPEN period is cleared", row.key, b.ID, status)
	case row.endsAt != nil && !now.Before(row.endsAt.Add(b.CloseGrace)):
		return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s takes no more events and is due to close: it is not cleared", row.key, b.ID)
	}
	writes := &pgx.Batch{}
	writes.Queue(`DELETE FROM board_scores WHERE period_id = $1`, row.id)
	writes.Queue(`DELETE FROM period_rank_counts WHERE period_id = $1`, row.id)
	if b.HasCohorts() {
		// The cohorts go with the scores: the players who come back fill
		// new cohorts from the first, in their new arrival order.
		writes.Queue(`DELETE FROM cohort_members WHERE period_id = $1`, row.id)
		writes.Queue(`DELETE FROM period_cohort_fill WHERE period_id = $1`, row.id)
	}
	const record = `INSERT INTO corrections (board_id, period_id, player_id, score_before, score_after, reason, at)
		VALUES ($1, $2, NULL, NULL, NULL, $3, $4)`
	writes.Queue(record, b.ID, row.id, reason, now)
	return tx.SendBatch(ctx, writes).Close()
}

// closeGraceSQL is the SQL of the close grace of the board in row b of
// boards: main's is the service's (LEADERBOARD_CLOSE_GRACE, in milliseconds
// in param), the others' their own.
func closeGraceSQL(param string) string {
	return `CASE WHEN b.id = 'main' THEN ` + param + `::bigint * interval '1 millisecond' ELSE b.close_grace_seconds * interval '1 second' END`
}

// CloseLockHeld reports whether the close lock of period key of board is
// held on the server that takes writes now: a close whose session is on a
// primary lost without a reset (its host hung, its standby promoted) holds
// it there, not here, and its instance cancels it (lifecycle.LockWatcher).
func (db *DB) CloseLockHeld(ctx context.Context, board, key string) (bool, error) {
	const q = `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN periods p ON p.board_id = $1 AND p.key = $2
		WHERE l.locktype = 'advisory' AND l.classid = $3::bigint::oid AND l.objid = p.id::bigint::oid AND l.objsubid = 2
			AND l.granted)`
	var held bool
	if err := db.pool.QueryRow(ctx, q, board, key, periodCloseLockClass).Scan(&held); err != nil {
		return false, errorf("read the close lock of period %s of %s: %w", key, board, err)
	}
	return held, nil
}
