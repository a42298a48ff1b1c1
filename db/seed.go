package db

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// MaxSeedPlayers is the most players one SeedPeriod call writes.
const MaxSeedPlayers = 50_000_000

// seedChunk is how many players each pair of COPY statements writes: large
// enough that round trips do not matter, small enough to keep the client's
// memory bounded and the progress reports frequent.
const seedChunk = 100_000

// SeedOptions tunes SeedPeriod.
type SeedOptions struct {
	// RandomSeed picks the data. Seeds with the same RandomSeed into months
	// of the same length give each player the same name, score and time from
	// the month's start, whatever the number of players (in the current
	// month, times also stop at the clock's now).
	RandomSeed uint64
	// Progress, when set, is called after each chunk of players is written
	// with the number written so far.
	Progress func(done int)
}

// SeedStats reports what SeedPeriod wrote.
type SeedStats struct {
	Players    int // score rows written, one per player
	NewPlayers int // players created; the others existed, from an earlier seed
}

// reserveSeqs advances score_seq past n values in one call and returns the
// first of them. A submission to another month may draw a value inside the
// range between the nextval and the setval; that is harmless, since sequence
// numbers only order rows within a month, and none can be written to the
// seeded month while its row is locked.
func reserveSeqs(ctx context.Context, tx pgx.Tx, n int) (int64, error) {
	const q = `SELECT setval('score_seq', nextval('score_seq') + $1 - 1)`
	var last int64
	if err := tx.QueryRow(ctx, q, int64(n)).Scan(&last); err != nil {
		return 0, errorf("reserve sequence numbers: %w", err)
	}
	return last - int64(n) + 1, nil
}

// seedPlayerWriter returns how the seed's players are written: with COPY
// straight into players when none of ids 1..n exists (a first seed, the
// common case, and the fastest); otherwise, as after seeding an earlier
// month, with COPY into a temporary table and INSERT ... ON CONFLICT DO
// NOTHING, which keeps the existing players and their names. The writer
// returns how many players it created.
func seedPlayerWriter(ctx context.Context, tx pgx.Tx, n int) (func(context.Context, pgx.Tx, *seedRows) (int, error), error) {
	const probe = `SELECT EXISTS (SELECT 1 FROM players WHERE id BETWEEN $1 AND $2)`
	var exist bool
	if err := tx.QueryRow(ctx, probe, SeedPlayerID(1), SeedPlayerID(n)).Scan(&exist); err != nil {
		return nil, errorf("look for seeded players: %w", err)
	}
	if !exist {
		return copyNewPlayers, nil
	}
	const create = `CREATE TEMPORARY TABLE seed_players (id TEXT NOT NULL, name TEXT NOT NULL) ON COMMIT DROP`
	if _, err := tx.Exec(ctx, create); err != nil {
		return nil, errorf("create seed_players: %w", err)
	}
	return upsertSeededPlayers, nil
}

func copyNewPlayers(ctx context.Context, tx pgx.Tx, r *seedRows) (int, error) {
	n, err := tx.CopyFrom(ctx, pgx.Identifier{"players"}, []string{"id", "name"}, r.players())
	if err != nil {
		return 0, errorf("copy players: %w", err)
	}
	return int(n), nil
}

func upsertSeededPlayers(ctx context.Context, tx pgx.Tx, r *seedRows) (int, error) {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"seed_players"}, []string{"id", "name"}, r.players()); err != nil {
		return 0, errorf("copy players: %w", err)
	}
	const q = `INSERT INTO players (id, name) SELECT id, name FROM seed_players ORDER BY id
		ON CONFLICT (id) DO NOTHING`
	tag, err := tx.Exec(ctx, q)
	if err != nil {
		return 0, errorf("insert players: %w", err)
	}
	const empty = `TRUNCATE seed_players`
	if _, err := tx.Exec(ctx, empty); err != nil {
		return 0, errorf("empty seed_players: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// players returns the chunk's (id, name) rows for COPY.
func (r *seedRows) players() pgx.CopyFromSource {
	row := make([]any, 2)
	return pgx.CopyFromSlice(len(r.ids), func(i int) ([]any, error) {
		row[0], row[1] = r.ids[i], r.names[i]
		return row, nil
	})
}
