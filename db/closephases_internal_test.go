package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// ClosePhaseTimes are the wall times of a close's phases, by name, in the
// order they ran.
type ClosePhaseTimes struct {
	Names []string
	Times map[string]time.Duration
}

func (t *ClosePhaseTimes) add(name string, d time.Duration) {
	if t.Times == nil {
		t.Times = map[string]time.Duration{}
	}
	if _, ok := t.Times[name]; !ok {
		t.Names = append(t.Names, name)
	}
	t.Times[name] += d
}

// clock times the steps of a close, one after another.
type clock struct {
	times *ClosePhaseTimes
	last  time.Time
}

func (c *clock) lap(name string) {
	now := time.Now()
	c.times.add(name, now.Sub(c.last))
	c.last = now
}

// ClosePeriodPhases closes period key of board, OPEN, as ClosePeriod does,
// step by step with the close's own functions, and times each step; it
// then times the same rows written into a table of their own without an
// index (bare-write), which is not part of the close. For benchmarks.
func (db *DB) ClosePeriodPhases(ctx context.Context, board, key string) (*ClosePhaseTimes, error) {
	times := &ClosePhaseTimes{}
	c := &clock{times: times, last: time.Now()}
	b, row, err := db.periodToClose(ctx, board, key)
	if err != nil {
		return nil, err
	}
	if err := db.stopPeriod(ctx, b, row); err != nil {
		return nil, err
	}
	c.lap("stop")
	bucket := finalBucket(b, row.endsAt, db.now())
	if err := db.ensureFinalRanksPartition(ctx, bucket); err != nil {
		return nil, err
	}
	c.lap("partition")
	var rows *rankedRows
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, periodCloseLockClass, row.id); err != nil {
			return err
		}
		const lockRow = `SELECT status, starts_at, ends_at FROM periods WHERE board_id = $1 AND id = $2 FOR UPDATE`
		var status string
		if err := tx.QueryRow(ctx, lockRow, b.ID, row.id).Scan(&status, &row.startsAt, &row.endsAt); err != nil {
			return err
		}
		c.lap("lock")
		ranks, err := db.rankPeriodTimed(ctx, tx, b, row.id, bucket, c, &rows)
		if err != nil {
			return err
		}
		closedAt := db.now()
		writes := &pgx.Batch{}
		const markClosed = `UPDATE periods SET status = 'CLOSED', closed_at = $3, participants = $4, digest = $5,
			ranks_version = 1, final_bucket = $6 WHERE board_id = $1 AND id = $2`
		writes.Queue(markClosed, b.ID, row.id, closedAt, ranks.participants, ranks.digest, bucket)
		if db.settlement {
			msg, err := periodMessageOf(b, row, closedAt, ranks, nil)
			if err != nil {
				return err
			}
			queueMessage(writes, b.ID, row.id, msg)
		}
		if err := tx.SendBatch(ctx, writes).Close(); err != nil {
			return err
		}
		c.lap("mark")
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.lap("commit")
	return times, db.timeBareWrite(ctx, c, row.id, bucket, rows)
}

// timeBareWrite times rows copied into a table of their own, made in the
// copy's transaction, without an index, then drops it.
func (db *DB) timeBareWrite(ctx context.Context, c *clock, id int32, bucket time.Time, rows *rankedRows) error {
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE bench_bare_final_ranks (LIKE board_final_ranks)`); err != nil {
			return err
		}
		target := periodTarget(id, bucket)
		target.table, target.freeze = "bench_bare_final_ranks", true
		c.last = time.Now()
		if _, err := copyFinalRanks(ctx, ctx, tx, target, rows); err != nil {
			return err
		}
		c.lap("bare-write (not in the close)")
		_, err := tx.Exec(ctx, `DROP TABLE bench_bare_final_ranks`)
		return err
	})
}

// MonthPhases closes month m as TryCloseMonth does and times its phases
// from its hooks; "read" is, after the close, the same read of the month's
// rows in rank order, alone.
func (db *DB) MonthPhases(ctx context.Context, m leaderboard.Month) (*ClosePhaseTimes, error) {
	times := &ClosePhaseTimes{}
	c := &clock{times: times, last: time.Now()}
	var current leaderboard.ClosePhase
	hooks := leaderboard.CloseHooks{Phase: func(_ leaderboard.Month, p leaderboard.ClosePhase, _ int64) {
		if current != "" {
			c.lap(string(current))
		} else {
			c.last = time.Now()
		}
		current = p
	}}
	if _, ran, err := db.TryCloseMonth(ctx, m, hooks); err != nil || !ran {
		return nil, fmt.Errorf("close %s: ran %v, %w", m, ran, err)
	}
	c.lap("commit")
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		src, err := monthSource(ctx, tx, partitionName("scores", m))
		if err != nil {
			return err
		}
		c.last = time.Now()
		_, err = readRankedRows(ctx, tx, src)
		c.lap("read alone (in ranking)")
		return err
	})
	return times, err
}

// rankPeriodTimed is rankPeriod, timed step by step; it leaves the rows it
// read in *read.
func (db *DB) rankPeriodTimed(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, bucket time.Time,
	c *clock, read **rankedRows) (*rankedPeriod, error) {
	rows, err := readRankedRows(ctx, tx, periodSource(id, withBoardColumns, 0))
	if err != nil {
		return nil, err
	}
	*read = rows
	c.lap("read")
	if _, err := copyFinalRanks(ctx, ctx, tx, periodTarget(id, bucket), rows); err != nil {
		return nil, err
	}
	c.lap("write")
	names, err := topNames(ctx, tx, rows, messageTop)
	if err != nil {
		return nil, err
	}
	c.lap("names")
	ranking := newPeriodRanking()
	for i := range rows.len() {
		var name *string
		if i < len(names) {
			name = names[i]
		}
		ranking.add(i+1, rows.id(i), int(rows.scores[i]), name, rows.metadataOf(i))
	}
	c.lap("digest")
	return ranking.done(b), nil
}

// WriteVariants reads period key of board's rows in rank order, then
// copies them, as a close does, into tables of each index layout, and
// returns the time of each copy and its commit. For benchmarks.
func (db *DB) WriteVariants(ctx context.Context, board, key string) (*ClosePhaseTimes, error) {
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, err
	}
	var id int32
	if err := db.pool.QueryRow(ctx, `SELECT id FROM periods WHERE board_id = $1 AND key = $2`, b.ID, key).Scan(&id); err != nil {
		return nil, err
	}
	var rows *rankedRows
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		rows, err = readRankedRows(ctx, tx, periodSource(id, withBoardColumns, 0))
		return err
	})
	if err != nil {
		return nil, err
	}
	variants := []struct{ name, indexes string }{
		{"none", ``},
		{"pk", `ALTER TABLE v ADD PRIMARY KEY (bucket, period_id, rank)`},
		{"player", `CREATE INDEX ON v (player_id, period_id)`},
		{"period-player", `CREATE INDEX ON v (bucket, period_id, player_id)`},
		{"pk+player (today)", `ALTER TABLE v ADD PRIMARY KEY (bucket, period_id, rank); CREATE INDEX ON v (player_id, period_id)`},
	}
	times := &ClosePhaseTimes{}
	for _, v := range variants {
		setup := `CREATE TABLE v (LIKE board_final_ranks); ` + v.indexes
		if _, err := db.pool.Exec(ctx, setup); err != nil {
			return nil, err
		}
		c := &clock{times: times, last: time.Now()}
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			if err := longJob(ctx, tx); err != nil {
				return err
			}
			target := periodTarget(id, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
			target.table = "v"
			_, err := copyFinalRanks(ctx, ctx, tx, target, rows)
			return err
		})
		if err != nil {
			return nil, err
		}
		c.lap(v.name)
		if _, err := db.pool.Exec(ctx, `DROP TABLE v`); err != nil {
			return nil, err
		}
	}
	return times, nil
}

// ReadVariants reads period key of board's rows in rank order twice each
// way, alternately, as readRankedRows reads them for a close: walking the
// rank index with ROW_NUMBER() (the read before heapSort) and in heap order
// sorted here (heapSort), and returns the time of each. For benchmarks.
func (db *DB) ReadVariants(ctx context.Context, board, key string) (*ClosePhaseTimes, error) {
	var id int32
	if err := db.pool.QueryRow(ctx, `SELECT id FROM periods WHERE board_id = $1 AND key = $2`, board, key).Scan(&id); err != nil {
		return nil, err
	}
	walk := periodSource(id, withBoardColumns, 0)
	walk.heapSort, walk.order = false, `sort_score, sort_subscore, reached_at, seq`
	variants := []struct {
		name string
		src  rankSource
	}{{"index walk", walk}, {"heap order, sorted in Go", periodSource(id, withBoardColumns, 0)}}
	times := &ClosePhaseTimes{}
	for range 2 {
		for _, v := range variants {
			c := &clock{times: times}
			err := db.readTx(ctx, func(tx pgx.Tx) error {
				if err := longJob(ctx, tx); err != nil {
					return err
				}
				c.last = time.Now()
				_, err := readRankedRows(ctx, tx, v.src)
				return err
			})
			if err != nil {
				return nil, err
			}
			c.lap(v.name + " (2 reads)")
		}
	}
	return times, nil
}
