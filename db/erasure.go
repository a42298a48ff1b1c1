package db

import (
	"cmp"
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"

	"github.com/gamebackend/leaderboard"
)

// Erasure of a player (erasePlayer), period by period. A period that still
// takes events is first fenced (erasurefence.go): a removal marker of the
// player, committed under the period's write lock, so that every later
// submission refuses their events and the set of their events is final.
// Then the period is erased in one transaction: their events keep only
// their ids (erasedPlayer), scrubbed by a scan of the period's events made
// before any lock that submissions wait on is taken; then, under the locks
// a correction of it takes (the period's row FOR UPDATE), the player's claim
// goes, then their score row goes as a correction that removes them
// (periodcorrections.go: the
// counters move with it and a CLOSED period is ranked again, with its digest
// and message), then what else holds their id in that period: their cohort
// membership (cohort_members) goes, the corrections naming them name the
// erasure instead (with the erasures' reason: an admin's may name them),
// and the kept messages listing them lose their entries
// (erasuremessages.go). The erasure's audit row counts the periods as they
// commit, so an erasure cut short is finished by the next run, which finds
// only what is left (a fence left lists its period). The players row, with
// the name, goes last, with the player's leagues of every board and their
// removal markers, the fences among them.

// erasedPlayer is the player id an erased player's events keep: no
// player's id is empty (leaderboard.CheckPlayerID).
const erasedPlayer = ""

// erasureLockClass is the first key of the advisory lock a run of an
// erasure holds on its player's hash, so that the erasures of one player
// run one at a time: a second call waits for the first, then finds nothing
// left.
const erasureLockClass = 0x6c626572 // "lber"

// WithErasureKey sets the key of the erasures' keyed hash of a player's id
// (leaderboard.ErasureHash); without one, ErasePlayer answers EFORBIDDEN.
func WithErasureKey(key []byte) Option { return func(db *DB) { db.erasureKey = key } }

// ErasePlayer erases playerID everywhere, as leaderboard.ErasureService
// promises: it records the audit row, then runs the erasure to its end.
func (db *DB) ErasePlayer(ctx context.Context, playerID, reason string) (*leaderboard.Erasure, error) {
	if err := leaderboard.CheckPlayerID(playerID); err != nil {
		return nil, err
	}
	if err := leaderboard.CheckReason(reason); err != nil {
		return nil, err
	}
	if len(db.erasureKey) == 0 {
		return nil, leaderboard.Errorf(leaderboard.EFORBIDDEN,
			"erasure is off: set LEADERBOARD_ERASURE_KEY (or _FILE) to the key of the audit's keyed hash")
	}
	hash := leaderboard.ErasureHash(db.erasureKey, playerID)
	const record = `INSERT INTO erasures (player_hash, reason, player_id, requested_at) VALUES ($1, $2, $3, $4) RETURNING id`
	var id int64
	if err := db.pool.QueryRow(ctx, record, hash, reason, playerID, db.now()).Scan(&id); err != nil {
		return nil, errorf("record an erasure: %w", err)
	}
	return db.runErasure(ctx, erasureRun{id: id, player: playerID, hash: hash}, true)
}

// erasureRun is an erasure to run: its audit row's id, the player, and
// their hash.
type erasureRun struct {
	id           int64
	player, hash string
}

// ResumeErasures finishes the erasures cut short (a crash, a deadline)
// that no run holds, oldest first, and returns how many it finished.
func (db *DB) ResumeErasures(ctx context.Context) (int, error) {
	const q = `SELECT id, player_id, player_hash FROM erasures WHERE status = 'RUNNING' ORDER BY id`
	rows, err := db.pool.Query(ctx, q)
	if err != nil {
		return 0, errorf("list erasures to resume: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (erasureRun, error) {
		var e erasureRun
		return e, r.Scan(&e.id, &e.player, &e.hash)
	})
	if err != nil {
		return 0, errorf("list erasures to resume: %w", err)
	}
	done := 0
	for _, e := range list {
		if _, err := db.runErasure(ctx, e, false); leaderboard.ErrorCode(err) == leaderboard.ECONFLICT {
			continue // another run holds it, or a period is closing: a later look finishes it
		} else if err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// runErasure runs erasure e, holding its player's advisory lock (waiting
// for it, within ctx, when wait is set), and marks its row DONE (the id
// cleared) once no period holds the player any more. ECONFLICT when another
// run holds the lock and wait is not set, or while one of the player's
// periods is CLOSING.
func (db *DB) runErasure(ctx context.Context, e erasureRun, wait bool) (*leaderboard.Erasure, error) {
	id, playerID := e.id, e.player
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, errorf("erase a player: %w", err)
	}
	defer conn.Release()
	locked := true
	if wait {
		_, err = conn.Exec(ctx, `SELECT pg_advisory_lock($1, hashtext($2))`, erasureLockClass, e.hash)
	} else {
		err = conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, hashtext($2))`, erasureLockClass, e.hash).Scan(&locked)
	}
	if err != nil {
		return nil, errorf("erase a player: %w", err)
	}
	if !locked {
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT, "erasure %d is running: call again shortly", id)
	}
	defer func() {
		unlockCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(unlockCtx, `SELECT pg_advisory_unlock($1, hashtext($2))`, erasureLockClass, e.hash); err != nil {
			conn.Conn().Close(unlockCtx) // a session lock left held goes with its connection
		}
	}()
	periods, err := db.erasurePeriods(ctx, playerID)
	if err != nil {
		return nil, err
	}
	if err := db.eraseFromPeriods(ctx, id, periods, playerID); err != nil {
		return nil, err
	}
	return db.finishErasure(ctx, id, playerID)
}

// defaultErasureWorkers is Limits.ErasureWorkers's default.
const defaultErasureWorkers = 2

// eraseFromPeriods erases playerID from periods, boards' periods by id,
// for erasure id, Limits.ErasureWorkers at a time; the first error stops
// the rest (a later run finishes them).
func (db *DB) eraseFromPeriods(ctx context.Context, id int64, periods []erasurePeriod, playerID string) error {
	group, ctx := errgroup.WithContext(ctx)
	group.SetLimit(cmp.Or(db.limits.ErasureWorkers, defaultErasureWorkers))
	boards := &boardsOfRun{db: db, boards: map[string]*leaderboard.Board{}}
	for _, p := range periods {
		if ctx.Err() != nil {
			break
		}
		group.Go(func() error {
			if err := db.eraseFromPeriod(ctx, id, p, playerID, boards); err != nil {
				return errorf("erase a player from period %d: %w", p.id, err)
			}
			return nil
		})
	}
	return group.Wait()
}

// boardsOfRun keeps the boards an erasure read: their rules never change.
type boardsOfRun struct {
	db     *DB
	mu     sync.Mutex
	boards map[string]*leaderboard.Board
}

// get returns board id, read once.
func (r *boardsOfRun) get(ctx context.Context, id string) (*leaderboard.Board, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.boards[id]; ok {
		return b, nil
	}
	b, err := r.db.Board(ctx, id)
	if err != nil {
		return nil, err
	} else if b == nil {
		return nil, errorf("board %s is missing", id)
	}
	r.boards[id] = b
	return b, nil
}

// erasurePeriod is a period of a board an erasure lists, by id, and
// whether it was CLOSED then: a CLOSED period takes no event again, and
// needs no fence.
type erasurePeriod struct {
	id     int32
	closed bool
}

// erasurePeriods returns the periods of every board, main's months
// included (by id), each with whether it was CLOSED, that may hold
// playerID: where they have a score row (a probe of the primary key of each
// period not CLOSED), a final rank or a removal marker (a fence of a run cut
// short among them), where a correction names them or cleared every score. A
// player's events, claims and kept messages lie only in those: an event
// made a score row, which goes only by a removal (marked, and a
// correction), a clear (a correction), an erasure, or the whole period's
// drop by retention.
func (db *DB) erasurePeriods(ctx context.Context, playerID string) ([]erasurePeriod, error) {
	// A period whose final ranks have a partition of their own, which has
	// no player index (migration 29), holds the player's final rank where
	// it holds their scores row (a correction changes them together).
	const periodsQ = `SELECT p.id, p.status = 'CLOSED' FROM periods p JOIN (
		SELECT f.period_id FROM board_final_ranks f WHERE f.player_id = $1 AND f.bucket <> ` + ownBucketSQL + `
		UNION SELECT p.id FROM periods p WHERE p.status <> 'CLOSED'
			AND EXISTS (SELECT 1 FROM board_scores s WHERE s.period_id = p.id AND s.player_id = $1)
		UNION SELECT p.id FROM periods p WHERE p.final_bucket = ` + ownBucketSQL + `
			AND EXISTS (SELECT 1 FROM board_scores s WHERE s.period_id = p.id AND s.player_id = $1)
		UNION SELECT r.period_id FROM board_removed_players r WHERE r.player_id = $1
		UNION SELECT c.period_id FROM corrections c
			WHERE c.player_id = $1 OR (c.player_id IS NULL AND c.erasure_id IS NULL)
		) AS found (id) ON found.id = p.id
		ORDER BY 1`
	rows, err := db.pool.Query(ctx, periodsQ, playerID)
	if err != nil {
		return nil, errorf("find the periods of a player: %w", err)
	}
	periods, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (erasurePeriod, error) {
		var p erasurePeriod
		return p, r.Scan(&p.id, &p.closed)
	})
	if err != nil {
		return nil, errorf("find the periods of a player: %w", err)
	}
	return periods, nil
}

// finishErasure deletes playerID's players row, with its name, the
// leagues they play next (board_player_leagues) and their removal markers
// (the erasure's fences and the admins' markers), and marks erasure id
// DONE, its player id cleared, and returns its outcome. A players row that
// a new start of the player (an event since) still needs is kept, its name
// cleared; so is it when the id is still found in a period (a later run
// finishes).
func (db *DB) finishErasure(ctx context.Context, id int64, playerID string) (*leaderboard.Erasure, error) {
	e := &leaderboard.Erasure{ID: strconv.FormatInt(id, 10), PlayerID: playerID}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		const unname = `UPDATE players SET name = NULL WHERE id = $1`
		if _, err := tx.Exec(ctx, unname, playerID); err != nil {
			return err
		}
		// The leagues the player plays next, one primary-key probe per league
		// board: a later new start begins in the lowest league.
		const unleague = `DELETE FROM board_player_leagues
			WHERE board_id IN (SELECT id FROM boards WHERE cohort_size IS NOT NULL) AND player_id = $1`
		if _, err := tx.Exec(ctx, unleague, playerID); err != nil {
			return err
		}
		// A scan of the markers, which are few: the admins' removals and the
		// fences of the erasures running (erasurefence.go).
		const unfence = `DELETE FROM board_removed_players WHERE player_id = $1`
		if _, err := tx.Exec(ctx, unfence, playerID); err != nil {
			return err
		}
		// The foreign keys of scores and board_scores refuse the delete of a
		// row a new start uses; a savepoint keeps the rest.
		nested, err := tx.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := nested.Exec(ctx, `DELETE FROM players WHERE id = $1`, playerID); err != nil {
			if rollbackErr := nested.Rollback(ctx); rollbackErr != nil {
				return rollbackErr
			}
		} else if err := nested.Commit(ctx); err != nil {
			return err
		}
		const done = `UPDATE erasures SET status = 'DONE', player_id = NULL, erased_at = $2
			WHERE id = $1 RETURNING periods, corrected_periods, erased_at`
		return tx.QueryRow(ctx, done, id, db.now()).Scan(&e.Periods, &e.CorrectedPeriods, &e.ErasedAt)
	})
	if err != nil {
		return nil, errorf("finish erasure %d: %w", id, err)
	}
	return e, nil
}

// queueCount queues the addition of one period, CLOSED and ranked again or
// not, to erasure id's counts.
func queueCount(b *pgx.Batch, id int64, corrected bool) {
	const q = `UPDATE erasures SET periods = periods + 1, corrected_periods = corrected_periods + $2 WHERE id = $1`
	n := 0
	if corrected {
		n = 1
	}
	b.Queue(q, id, n)
}
