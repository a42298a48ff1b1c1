package db

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
)

// TakeClosingRead takes one of the slots of reads of CLOSING months, as a
// read of month m would, and returns the function that frees it.
func (db *DB) TakeClosingRead(ctx context.Context, m leaderboard.Month) (func(), error) {
	return db.closing.enter(ctx, monthRef(m))
}

// StatementTimeouts returns statement_timeout as each of the pool's
// connections has it, holding them all at once.
func (db *DB) StatementTimeouts(ctx context.Context) ([]string, error) {
	var conns []*pgxpool.Conn
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	var got []string
	for range db.pool.Config().MaxConns {
		c, err := db.pool.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		conns = append(conns, c)
		var timeout string
		if err := c.QueryRow(ctx, `SHOW statement_timeout`).Scan(&timeout); err != nil {
			return nil, err
		}
		got = append(got, timeout)
	}
	return got, nil
}
