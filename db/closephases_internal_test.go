package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// WithClosePhase makes every close of the DB tell observe as each of its
// phases starts (closePhases): a test times the phases, or ends a close at
// one of them by returning an error or ending ctx. For tests.
func WithClosePhase(observe func(ctx context.Context, name string) error) Option {
	return func(db *DB) { db.closePhase = observe }
}

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

// PhaseClock times the phases of the closes of a DB opened with its Option,
// each from its start to the next phase's, the last (commit) to closed.
// The closes it times run one at a time.
type PhaseClock struct {
	times   ClosePhaseTimes
	current string
	since   time.Time
}

// Option is WithClosePhase with the clock's observer.
func (p *PhaseClock) Option() Option {
	return WithClosePhase(func(_ context.Context, name string) error {
		now := time.Now()
		if p.current != "" {
			p.times.add(p.current, now.Sub(p.since))
		}
		p.current, p.since = name, now
		if name == "closed" {
			p.current = ""
		}
		return nil
	})
}

// Take returns the times of the closes since the last Take, and starts
// afresh.
func (p *PhaseClock) Take() *ClosePhaseTimes {
	times := p.times
	p.times, p.current = ClosePhaseTimes{}, ""
	return &times
}

// clock times steps, one after another.
type clock struct {
	times *ClosePhaseTimes
	last  time.Time
}

func (c *clock) lap(name string) {
	now := time.Now()
	c.times.add(name, now.Sub(c.last))
	c.last = now
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

// OwnFinalRanksParts are the SQL texts of the live rank that own_final_ranks
// (migration 29) copies: the board's origin, the hour columns of a scores
// row and the rank of row me over every level. For tests.
var OwnFinalRanksParts = []string{originSQL, hourColumnsSQL, periodRankSQL("me", "o.origin", everyShape)}
