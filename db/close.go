package db

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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

// digestProgressRows is how often the digest phase reports its progress.
const digestProgressRows = 1_000_000

// TryCloseMonth runs month m's close unless another session runs it or a
// correction of it: ran is false then, and nothing was done. The close stops
// the month's scores (CLOSING), then, in one transaction, builds its final
// ranks with ROW_NUMBER(), indexes and analyzes them, computes the digest,
// attaches them as the month's partition of final_ranks, marks the month
// CLOSED and, with settlement on, records its month.closed message. A CLOSED
// month is returned as it is. ENOTFOUND when the month never opened.
func (db *DB) TryCloseMonth(ctx context.Context, m leaderboard.Month, hooks leaderboard.CloseHooks) (info *leaderboard.MonthInfo, ran bool, err error) {
	closedVersion := 0
	ran, err = db.withMonthLock(ctx, m, func(conn *pgxpool.Conn) error {
		phase(hooks, m, leaderboard.PhaseStopping, 0)
		// Submissions hold the month's write lock shared while they write,
		// so the stop waits for those in flight, and every event acknowledged
		// as applied is in the scores the ranks are built from; those that
		// wait behind it read CLOSING and write nothing.
		const stopScores = `UPDATE months SET status = 'CLOSING' WHERE month = $1 AND status = 'OPEN'`
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
		if err := vacuumScores(ctx, conn, m); err != nil {
			return err
		}
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var err error
			closedVersion, err = db.closeTx(ctx, tx, m, hooks)
			return err
		})
	})
	if err != nil || !ran {
		return nil, ran, interpretCloseError(m, err)
	}
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
	const lockMonth = `SELECT status, ranks_version FROM months WHERE month = $1 FOR UPDATE`
	var (
		status  string
		version int
	)
	if err := tx.QueryRow(ctx, lockMonth, m.Date()).Scan(&status, &version); noRows(err) {
		return 0, leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
	} else if err != nil {
		return 0, err
	}
	if leaderboard.MonthStatus(status) == leaderboard.MonthClosed {
		return 0, nil
	}
	version++
	ranks, err := buildFinalRanks(ctx, tx, m, version, hooks)
	if err != nil {
		return 0, err
	}
	phase(hooks, m, leaderboard.PhaseAttach, ranks.participants)
	if err := attachFinalRanks(ctx, tx, m, version); err != nil {
		return 0, err
	}
	closedAt := db.now()
	const markClosed = `UPDATE months SET status = 'CLOSED', closed_at = $2, participants = $3, digest = $4, ranks_version = $5
		WHERE month = $1`
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
	return version, nil
}

// builtRanks is what building a month's final ranks found.
type builtRanks struct {
	participants int64
	digest       string
	top          []messageEntry
}

// finalRanksTable returns the name of month m's final ranks table of the
// given version: a correction builds the next version beside the one in use.
func finalRanksTable(m leaderboard.Month, version int) string {
	return pgx.Identifier{fmt.Sprintf("%s_v%d", partitionName("final_ranks", m), version)}.Sanitize()
}

// buildFinalRanks materializes month m's ranks into a standalone table of
// the given version, indexes and analyzes it, and reads it back in rank
// order for the digest, the message's top 100 and hooks.Rank.
func buildFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month, version int, hooks leaderboard.CloseHooks) (*builtRanks, error) {
	table := finalRanksTable(m, version)
	// Sorting, indexing and joining ten million rows wants more memory and
	// workers than the service's small reads; SET LOCAL ends with the
	// transaction. The names' hash join hands every row on from its
	// workers, which the planner prices above a join without them; with
	// them it takes 11.4-11.9 s instead of 13.9-20 s at ten million players.
	for _, set := range []string{
		`SET LOCAL work_mem = '1GB'`,
		`SET LOCAL maintenance_work_mem = '1GB'`,
		`SET LOCAL max_parallel_workers_per_gather = 2`,
		`SET LOCAL parallel_tuple_cost = 0`,
	} {
		if _, err := tx.Exec(ctx, set); err != nil {
			return nil, errorf("build final ranks: %w", err)
		}
	}
	phase(hooks, m, leaderboard.PhaseRanking, 0)
	if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s (LIKE final_ranks)`, table)); err != nil {
		return nil, errorf("build final ranks: %w", err)
	}
	// From the month's partition itself, not through scores with a WHERE on
	// month, which the score index does not hold: so the index alone
	// answers, already in rank order.
	insert := fmt.Sprintf(`INSERT INTO %s (month, rank, player_id, score, reached_at)
		SELECT %s, ROW_NUMBER() OVER (ORDER BY `+rankOrder+`), player_id, score, reached_at
		FROM %s`, table, dateLiteral(m), partitionName("scores", m))
	tag, err := tx.Exec(ctx, insert)
	if err != nil {
		return nil, errorf("build final ranks: %w", err)
	}
	ranks := &builtRanks{participants: tag.RowsAffected()}
	phase(hooks, m, leaderboard.PhaseIndexing, ranks.participants)
	// Indexes are built after the rows are in: several times faster than
	// maintaining them row by row. They match the parent's, so ATTACH adopts
	// them. The rows are in rank order already, which one process sorts
	// faster than three (2.4 s against 3.6 s at ten million); the ids want
	// the workers. Statistics come now, not from autovacuum minutes later,
	// so that the first reads after the close are planned as index range
	// scans.
	for _, step := range []string{
		`SET LOCAL max_parallel_maintenance_workers = 0`,
		`ALTER TABLE ` + table + ` ADD PRIMARY KEY (month, rank)`,
		`SET LOCAL max_parallel_maintenance_workers = 2`,
		`CREATE INDEX ON ` + table + ` (player_id)`,
		`ANALYZE ` + table,
	} {
		if _, err := tx.Exec(ctx, step); err != nil {
			return nil, errorf("build final ranks: %w", err)
		}
	}
	phase(hooks, m, leaderboard.PhaseDigest, 0)
	if err := digestFinalRanks(ctx, tx, m, table, ranks, hooks); err != nil {
		return nil, errorf("digest final ranks: %w", err)
	}
	return ranks, nil
}

// digestFinalRanks reads table back into ranks' digest and top, whose names
// it then looks up, and hands the read, names included, to hooks.Ranks.
func digestFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month, table string, ranks *builtRanks,
	hooks leaderboard.CloseHooks) error {
	d := newDigest()
	read := false
	stream := func(entry func(leaderboard.RankEntry) error, name func(rank int, name string) error) error {
		read = true
		return readRanks(ctx, tx, table, func(e leaderboard.RankEntry) error {
			d.add(e)
			if len(ranks.top) < messageTop {
				ranks.top = append(ranks.top, messageEntry{Rank: e.Rank, PlayerID: e.Player.ID, Score: e.Score})
			}
			if e.Rank%digestProgressRows == 0 {
				phase(hooks, m, leaderboard.PhaseDigest, int64(e.Rank))
			}
			return entry(e)
		}, name)
	}
	var err error
	if hooks.Ranks != nil {
		err = hooks.Ranks(m, int(ranks.participants), stream)
	} else {
		err = stream(func(leaderboard.RankEntry) error { return nil }, nil)
	}
	if err == nil && !read {
		err = errors.New("the Ranks hook did not read the ranks")
	}
	if err != nil {
		return err
	}
	ranks.digest = d.sum()
	q := fmt.Sprintf(`SELECT f.rank, p.name FROM %s f JOIN players p ON p.id = f.player_id
		WHERE f.month = %s AND f.rank <= %d`, table, dateLiteral(m), len(ranks.top))
	rows, err := tx.Query(ctx, q)
	if err != nil {
		return err
	}
	var (
		rank int
		name *string
	)
	_, err = pgx.ForEachRow(rows, []any{&rank, &name}, func() error {
		ranks.top[rank-1].Name = name
		return nil
	})
	return err
}

// attachFinalRanks makes month m's final ranks table of the given version
// its partition of final_ranks.
func attachFinalRanks(ctx context.Context, tx pgx.Tx, m leaderboard.Month, version int) error {
	attach := fmt.Sprintf(`ALTER TABLE final_ranks ATTACH PARTITION %s FOR VALUES IN (%s)`,
		finalRanksTable(m, version), dateLiteral(m))
	if _, err := tx.Exec(ctx, attach); err != nil {
		return errorf("attach final ranks: %w", err)
	}
	return nil
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

// digest is the sha256 of a month's standings: one line
// "rank,playerId,score\n" per rank, in rank order.
type digest struct {
	h   hash.Hash
	buf []byte
}

func newDigest() *digest { return &digest{h: sha256.New()} }

func (d *digest) add(e leaderboard.RankEntry) {
	d.buf = strconv.AppendInt(d.buf[:0], int64(e.Rank), 10)
	d.buf = append(d.buf, ',')
	d.buf = append(d.buf, e.Player.ID...)
	d.buf = append(d.buf, ',')
	d.buf = strconv.AppendInt(d.buf, int64(e.Score), 10)
	d.buf = append(d.buf, '\n')
	d.h.Write(d.buf)
}

func (d *digest) sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// ListenMonths calls fn with each month whose final ranks change, a close or
// a correction committing, as it is announced, until ctx ends or the
// connection fails; it then returns why. Announcements made while no one
// listens are lost: RanksVersions tells what changed meanwhile.
func (db *DB) ListenMonths(ctx context.Context, fn func(m leaderboard.Month, version int)) error {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return errorf("listen for closed months: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+monthsChannel); err != nil {
		return errorf("listen for closed months: %w", err)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return errorf("listen for closed months: %w", err)
		}
		month, version, ok := strings.Cut(n.Payload, " ")
		m, err := leaderboard.ParseMonth(month)
		v, verr := strconv.Atoi(version)
		if ok && err == nil && verr == nil {
			fn(m, v)
		}
	}
}

// ForgetClosedMonth drops what this instance remembers of closed month m,
// whose final ranks changed, so that its next read goes to the database.
func (db *DB) ForgetClosedMonth(m leaderboard.Month) { db.closedMonths.Delete(m) }
