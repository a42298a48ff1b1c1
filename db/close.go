package db

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/gamebackend/leaderboard"
)

// The close of a month runs on one connection that holds the month's close
// lock, a session advisory lock, for the whole job: whichever instance takes
// it runs the close, the others wait for the month to turn CLOSED. A crash
// ends the session, which releases the lock and rolls the close transaction
// back, so the month is left CLOSING with no ranks, and the next instance
// that takes the lock runs the whole close again. Only a committed close
// ranks a month, so it is ranked exactly once.

// closeLockClass is the first key of the advisory locks of month closes and
// corrections; the second is the month (monthKey).
const closeLockClass = 0x6c62636c // "lbcl"

// monthWriteLockClass is the first key of a month's write lock: every
// submission holds it shared until it commits, and a close's stop or a seed
// takes it exclusive. PostgreSQL queues a shared request behind a waiting
// exclusive one, so a stop cannot starve behind a stream of submissions (as
// it can behind row locks FOR SHARE, which new share lockers join freely).
const monthWriteLockClass = 0x6c62776c // "lbwl"

// monthKey is the second key of a month's advisory locks.
func monthKey(m leaderboard.Month) int32 { return int32(m.Year()*100 + int(m.Month())) }

// monthsChannel is the NOTIFY channel on which a committed close or
// correction announces "<YYYY-MM> <ranks_version>" to every instance.
const monthsChannel = "leaderboard_months"

// TryCloseMonth runs month m's close unless another session runs it or a
// correction of it: ran is false then, and nothing was done. The close stops
// the month's scores (CLOSING), then, in one transaction, builds its final
// ranks with ROW_NUMBER(), indexes and analyzes them, computes the digest,
// attaches them as the month's period's partition of its own of
// board_final_ranks (as a board's large period's, periodclose.go), marks the month
// CLOSED and, with settlement on, records its month.closed message. A CLOSED
// month is returned as it is. ENOTFOUND when the month never opened.
func (db *DB) TryCloseMonth(ctx context.Context, m leaderboard.Month, hooks leaderboard.CloseHooks) (info *leaderboard.MonthInfo, ran bool, err error) {
	closedVersion := 0
	ran, err = db.withMonthLock(ctx, m, func(conn *pgxpool.Conn) error {
		phase(hooks, m, leaderboard.PhaseStopping, 0)
		if err := db.closePhase.start(ctx, "stop"); err != nil {
			return err
		}
		// Submissions hold the month's write lock shared while they write,
		// so the stop waits for those in flight, and every event acknowledged
		// as applied is in the scores the ranks are built from; those that
		// wait behind it read CLOSING and write nothing.
		stopScores := `UPDATE periods m SET status = 'CLOSING' WHERE ` + mainPeriodOf("m", "$1") + ` AND status = 'OPEN'`
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if err := longJob(ctx, tx); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, monthWriteLockClass, monthKey(m)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, stopScores, m.Date())
			return err
		})
		if err != nil {
			return err
		}
		if err := db.closePhase.start(ctx, "vacuum"); err != nil {
			return err
		}
		if err := vacuumScores(ctx, conn, m); err != nil {
			return err
		}
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var err error
			closedVersion, err = db.closeTx(ctx, tx, m, hooks)
			return err
		})
	})
	if err == nil && ran {
		err = db.closePhase.start(ctx, "closed")
	}
	if err != nil || !ran {
		return nil, ran, interpretCloseError(m, err)
	}
	db.closing.saw(m, leaderboard.MonthClosed)
	if closedVersion > 0 && hooks.Closed != nil {
		hooks.Closed(m, closedVersion)
	}
	info, err = db.Month(ctx, m)
	return info, true, err
}

func interpretCloseError(m leaderboard.Month, err error) error {
	if err == nil {
		return nil
	}
	var domainErr *leaderboard.Error
	if errors.As(err, &domainErr) {
		return err
	}
	return errorf("close month %s: %w", m, err)
}

// withMonthLock runs fn on a connection holding month m's close lock, or
// returns false when another session holds it.
func (db *DB) withMonthLock(ctx context.Context, m leaderboard.Month, fn func(*pgxpool.Conn) error) (bool, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	key := monthKey(m)
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, closeLockClass, key).Scan(&locked); err != nil {
		return false, err
	}
	if !locked {
		return false, nil
	}
	defer func() {
		// The job's context may have ended: unlock with a context of its
		// own, and drop the session if even that fails, which unlocks too.
		unlockCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(unlockCtx, `SELECT pg_advisory_unlock($1, $2)`, closeLockClass, key); err != nil {
			conn.Conn().Close(unlockCtx)
		}
	}()
	return true, fn(conn)
}

// vacuumScores vacuums month m's score partition, which takes no more
// writes: with every row marked visible, the ranking reads the rows in rank
// order from the score index alone (an index-only scan, about 4x faster at
// 2M players than fetching each row from the table). VACUUM cannot run in a
// transaction, so it runs on conn itself, with the job's timeouts.
func vacuumScores(ctx context.Context, conn *pgxpool.Conn, m leaderboard.Month) error {
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, partitionName("scores", m)).Scan(&exists); err != nil {
		return errorf("vacuum the scores of %s: %w", m, err)
	}
	if !exists {
		return nil // a month that never opened: the close transaction says so
	}
	defer func() {
		// Back to the pool's timeouts; a session that cannot be reset must
		// not serve requests with the job's.
		resetCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(resetCtx, `RESET statement_timeout; RESET lock_timeout`); err != nil {
			conn.Conn().Close(resetCtx)
		}
	}()
	// VACUUM may not share a query string with other statements.
	for _, step := range []string{`SET statement_timeout = 0; SET lock_timeout = '1min'`,
		`VACUUM (ANALYZE false) ` + partitionName("scores", m)} {
		if _, err := conn.Exec(ctx, step); err != nil {
			return errorf("vacuum the scores of %s: %w", m, err)
		}
	}
	return nil
}

// closeTx is the close's transaction; the month is CLOSING or CLOSED. It
// returns the version of the final ranks it made, 0 when the month was
// CLOSED already.
func (db *DB) closeTx(ctx context.Context, tx pgx.Tx, m leaderboard.Month, hooks leaderboard.CloseHooks) (int, error) {
	if err := longJob(ctx, tx); err != nil {
		return 0, err
	}
	if err := db.closePhase.start(ctx, "lock"); err != nil {
		return 0, err
	}
	lockMonth := `SELECT id, status, ranks_version FROM periods m WHERE ` + mainPeriodOf("m", "$1") + ` FOR UPDATE`
	var (
		id      int32
		status  string
		version int
	)
	if err := tx.QueryRow(ctx, lockMonth, m.Date()).Scan(&id, &status, &version); noRows(err) {
		return 0, leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
	} else if err != nil {
		return 0, err
	}
	// This instance's reads of a CLOSING month give way to its close from
	// now, not from the first read that finds the month CLOSING.
	db.closing.saw(m, leaderboard.MonthStatus(status))
	if leaderboard.MonthStatus(status) == leaderboard.MonthClosed {
		return 0, nil
	}
	version++
	ranks, err := db.buildFinalRanks(ctx, tx, m, id, version, hooks, db.closePhase)
	if err != nil {
		return 0, err
	}
	phase(hooks, m, leaderboard.PhaseAttach, ranks.participants)
	if err := db.closePhase.start(ctx, "attach"); err != nil {
		return 0, err
	}
	if err := attachOwnFinalRanks(ctx, tx, id, version); err != nil {
		return 0, errorf("close month %s: %w", m, err)
	}
	if err := db.closePhase.start(ctx, "mark"); err != nil {
		return 0, err
	}
	closedAt := db.now()
	markClosed := `UPDATE periods m SET status = 'CLOSED', closed_at = $2, participants = $3, digest = $4, ranks_version = $5,
		final_bucket = ` + ownBucketSQL + ` WHERE ` + mainPeriodOf("m", "$1")
	if _, err := tx.Exec(ctx, markClosed, m.Date(), closedAt, ranks.participants, ranks.digest, version); err != nil {
		return 0, err
	}
	if db.settlement {
		msg := monthMessage{Type: messageClosed, Month: m.String(), ClosedAt: closedAt,
			Participants: ranks.participants, Digest: ranks.digest, Top: ranks.top}
		if err := insertMessage(ctx, tx, m, msg); err != nil {
			return 0, err
		}
	}
	if err := notifyMonth(ctx, tx, m, version); err != nil {
		return 0, err
	}
	phase(hooks, m, leaderboard.PhaseDone, ranks.participants)
	return version, db.closePhase.start(ctx, "commit")
}

// builtRanks is what building a month's final ranks found.
type builtRanks struct {
	participants int64
	digest       string
	top          []messageEntry
}

// buildFinalRanks materializes month m's ranks into a standalone table of
// the given version, the final ranks of its own of the month's period id
// (createOwnFinalRanks), indexes and analyzes it, and hands its rows to
// hooks.Ranks. The month's scores are read once, in rank order and numbered
// by ROW_NUMBER(), into memory (readRankedRows); the table, its digest, the
// message's top 100 and what hooks.Ranks builds all come from that one read.
// phases hears its steps start (a close's; a correction's are not named).
func (db *DB) buildFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month, id int32, version int,
	hooks leaderboard.CloseHooks, phases closePhases) (*builtRanks, error) {
	phase(hooks, m, leaderboard.PhaseRanking, 0)
	if err := createOwnFinalRanks(ctx, tx, id, version); err != nil {
		return nil, errorf("build final ranks: %w", err)
	}
	var names *namesAhead
	if hooks.Ranks != nil {
		names = db.readMonthNamesAhead(ctx, m)
		defer names.stop()
	}
	if err := phases.start(ctx, "read"); err != nil {
		return nil, err
	}
	src, err := monthSource(ctx, tx, partitionName("scores", m))
	if err != nil {
		return nil, errorf("read the scores of %s: %w", m, err)
	}
	rows, err := readRankedRows(ctx, tx, src)
	if err != nil {
		return nil, errorf("read the scores of %s: %w", m, err)
	}
	if err := phases.start(ctx, "digest"); err != nil {
		return nil, err
	}
	ranks := &builtRanks{participants: int64(rows.len())}
	ranks.digest, ranks.top = digestRows(rows)
	// hooks.Ranks builds from the rows in memory and the names read beside
	// them while this connection copies the rows and indexes them: at ten
	// million players the hand-over's 8 to 14 s ran beside the copy's and
	// the primary key's 13 to 25 s (docs/PERFORMANCE.md).
	handed, handCtx := errgroup.WithContext(ctx)
	if hooks.Ranks != nil {
		handed.Go(func() error { return handRanks(handCtx, m, rows, names, hooks) })
	}
	// tx works with ctx, not handCtx: cancelled in the middle of a
	// statement, pgx closes the connection, and with it the session of the
	// close lock, which the next try could then find still held. A failed
	// hand-over stops the copy, or the indexing before its next statement.
	handed.Go(func() error { return indexFinalRanks(ctx, handCtx, tx, m, id, version, rows, hooks, phases) })
	if err := handed.Wait(); err != nil {
		return nil, errorf("build final ranks: %w", err)
	}
	phase(hooks, m, leaderboard.PhaseDigest, ranks.participants)
	if err := phases.start(ctx, "names"); err != nil {
		return nil, err
	}
	topped, err := topNames(ctx, tx, rows, len(ranks.top))
	if err != nil {
		return nil, errorf("build final ranks: %w", err)
	}
	for i, name := range topped {
		ranks.top[i].Name = name
	}
	return ranks, nil
}

// indexFinalRanks copies rows into the table of month m's final ranks of
// the given version, made in tx for the month's period id, then gives it
// its primary key and statistics (indexOwnFinalRanks). At the end of stop
// it fails the copy, or stops before its next statement.
func indexFinalRanks(ctx, stop context.Context, tx pgx.Tx, m leaderboard.Month, id int32, version int, rows *rankedRows,
	hooks leaderboard.CloseHooks, phases closePhases) error {
	if err := phases.start(ctx, "write"); err != nil {
		return err
	}
	copied, err := copyFinalRanks(ctx, stop, tx, ownTarget(id, version, rows.columns), rows)
	if err != nil {
		return err
	}
	if copied != int64(rows.len()) {
		return fmt.Errorf("copied %d of %d ranks", copied, rows.len())
	}
	phase(hooks, m, leaderboard.PhaseIndexing, copied)
	if err := phases.start(ctx, "index"); err != nil {
		return err
	}
	return indexOwnFinalRanks(ctx, stop, tx, id, version)
}

// indexAfterRows gives table, a table of final ranks made and filled in tx,
// its indexes (each a statement that builds one) and then its statistics,
// as a close builds them after the rows. One process sorts rows already in
// rank order faster than three (the key at ten million players: 2.4 s
// against 3.6 s), and runs of 64 MB merged from disk faster than one sort in
// memory (3.0-4.4 s against 4.9-9.8 s with 1 GB; a player index at a
// million players: 1.4 s against 2.3 s; docs/PERFORMANCE.md), so both are
// set here, whatever the server is tuned for. Statistics come now, not
// from autovacuum minutes later, so that the first reads after the close
// are planned as index range scans. At the end of stop it stops before its
// next statement.
func indexAfterRows(ctx, stop context.Context, tx pgx.Tx, table string, indexes ...string) error {
	steps := append([]string{`SET LOCAL max_parallel_maintenance_workers = 0`, `SET LOCAL maintenance_work_mem = '64MB'`},
		indexes...)
	for _, step := range append(steps, `ANALYZE `+table) {
		if err := stop.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, step); err != nil {
			return err
		}
	}
	return nil
}

// digestRows returns the digest of rows and their first messageTop, without
// names.
func digestRows(rows *rankedRows) (string, []messageEntry) {
	d := newDigest()
	var top []messageEntry
	for i := range rows.len() {
		d.add(i+1, rows.id(i), int(rows.scores[i]))
		if len(top) < messageTop {
			top = append(top, messageEntry{Rank: i + 1, PlayerID: string(rows.id(i)), Score: int(rows.scores[i])})
		}
	}
	return d.sum(), top
}

// handRanks hands rows, month m's ranks, to hooks.Ranks, with the names of
// their players as names reads them.
func handRanks(ctx context.Context, m leaderboard.Month, rows *rankedRows, names *namesAhead, hooks leaderboard.CloseHooks) error {
	read := false
	stream := func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		read = true
		for i := range rows.len() {
			if err := entry(rows.entry(i)); err != nil {
				return err
			}
		}
		if name == nil {
			names.stop() // not wanted: spare the database the rest
			return nil
		}
		return names.each(ctx, name)
	}
	if err := hooks.Ranks(m, rows.len(), stream); err != nil {
		return err
	}
	if !read {
		return errors.New("the Ranks hook did not read the ranks")
	}
	return nil
}

// topNames returns the names of the players of rows' first n ranks, in
// rank order, nil for a player without one.
func topNames(ctx context.Context, tx pgx.Tx, rows *rankedRows, n int) ([]*string, error) {
	ids := make([]string, min(n, rows.len()))
	for i := range ids {
		ids[i] = string(rows.id(i))
	}
	const q = `SELECT u.i, p.name FROM unnest($1::text[]) WITH ORDINALITY AS u(id, i) JOIN players p ON p.id = u.id`
	found, err := tx.Query(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	var (
		names = make([]*string, len(ids))
		i     int
		name  *string
	)
	_, err = pgx.ForEachRow(found, []any{&i, &name}, func() error {
		names[i-1] = name
		return nil
	})
	return names, err
}

// notifyMonth announces, at commit, that month m's final ranks are now of
// the given version.
func notifyMonth(ctx context.Context, tx pgx.Tx, m leaderboard.Month, version int) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, monthsChannel, m.String()+" "+strconv.Itoa(version))
	return err
}

func phase(hooks leaderboard.CloseHooks, m leaderboard.Month, p leaderboard.ClosePhase, rows int64) {
	if hooks.Phase != nil {
		hooks.Phase(m, p, rows)
	}
}

// closePhases hears each phase of a close start, by name, in order: main's
// month close (TryCloseMonth) stop, vacuum, lock, read, digest, write,
// index, names, attach, mark, commit and closed; a board's period close
// (closePeriod) stop, partition, lock, read, write, (with final ranks of
// their own: index, attach,) names, digest, cohorts, mark, commit and
// closed; a group close of small periods (TryClosePeriods)
// group read, group partition, group lock, group rank, group cohorts, group
// mark, group commit and group closed, then, if it failed, each period's own
// close.
// closed and group closed come once the close committed. An error
// it returns ends the close there, as a crash would; it may also end ctx.
// Tests set it (db.closePhase) to time the phases and to kill a close at
// each; it is nil in production.
type closePhases func(ctx context.Context, name string) error

// start tells p, when set, that phase name starts.
func (p closePhases) start(ctx context.Context, name string) error {
	if p == nil {
		return nil
	}
	return p(ctx, name)
}

// digest is the sha256 of a month's standings: one line
// "rank,playerId,score\n" per rank, in rank order.
type digest struct {
	h   hash.Hash
	buf []byte
}

func newDigest() *digest { return &digest{h: sha256.New()} }

// add adds the line of a rank, its player's id and score.
func (d *digest) add(rank int, playerID []byte, score int) {
	d.buf = strconv.AppendInt(d.buf[:0], int64(rank), 10)
	d.buf = append(d.buf, ',')
	d.buf = append(d.buf, playerID...)
	d.buf = append(d.buf, ',')
	d.buf = strconv.AppendInt(d.buf, int64(score), 10)
	d.buf = append(d.buf, '\n')
	d.h.Write(d.buf)
}

func (d *digest) sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// forgetClosedMonth drops what this instance remembers of closed month m,
// whose final ranks changed, so that its next read goes to the database.
func (db *DB) forgetClosedMonth(m leaderboard.Month) { db.closedMonths.Delete(m) }
