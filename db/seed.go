package db

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
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

// seedMonth is SeedPeriod's seed of main's month m: made-up players,
// "player-00000001" to SeedPlayerID(players), and their scores: SeedScore
// totals reached at SeedReachedAt times, from the month's start to its end
// or to now, whichever comes first. It opens the month if needed and
// refuses, with EBADINPUT, a month that is not OPEN or already has scores,
// so seeded and real scores never mix, and a month that has not started.
//
// Everything is one transaction, so a failed or cancelled seed leaves no rows
// (the opened month stays, empty); PostgreSQL takes tens of millions of rows
// in one transaction in its stride. Players are written with COPY, seedChunk
// at a time. Scores are written with COPY into a table of their own, which is
// indexed, counted and analyzed once full, then swapped in for the month's
// empty partition. Submissions to m and its close wait for the whole seed;
// for its last seconds, while the foreign key is checked and the tables are
// swapped, every read and write of scores waits too. Sequence numbers are
// reserved from score_seq in one call, so later events rank after seeded ties.
func (db *DB) seedMonth(ctx context.Context, m leaderboard.Month, players int, opts SeedOptions) (SeedStats, error) {
	from, until := m.Start(db.loc), m.End(db.loc)
	if now := db.now(); from.After(now) {
		return SeedStats{}, leaderboard.Errorf(leaderboard.EBADINPUT, "month %s has not started", m)
	} else if now.Before(until) {
		until = now
	}
	if err := db.openMonth(ctx, m); err != nil {
		return SeedStats{}, err
	}
	var stats SeedStats
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		if err := lockEmptyMonth(ctx, tx, m); err != nil {
			return err
		}
		firstSeq, err := reserveSeqs(ctx, tx, players)
		if err != nil {
			return err
		}
		writePlayers, err := seedPlayerWriter(ctx, tx, players)
		if err != nil {
			return err
		}
		table := newSeedTable(m)
		if err := table.create(ctx, tx); err != nil {
			return err
		}
		gen := &seedGenerator{
			rng:  rand.New(rand.NewPCG(opts.RandomSeed, seedStream)),
			from: from, until: until,
			month: m.Date(), firstSeq: firstSeq,
		}
		for done := 0; done < players; {
			c := gen.chunk(done, min(seedChunk, players-done))
			created, err := writePlayers(ctx, tx, c)
			if err != nil {
				return err
			}
			if err := table.copyScores(ctx, tx, c); err != nil {
				return err
			}
			done += len(c.ids)
			stats.Players, stats.NewPlayers = done, stats.NewPlayers+created
			if opts.Progress != nil {
				opts.Progress(done)
			}
		}
		return table.finish(ctx, tx)
	})
	if err != nil {
		return SeedStats{}, errorf("seed month %s: %w", m, err)
	}
	return stats, nil
}

// lockEmptyMonth waits for any other seed to finish, locks month m's row
// until commit, so that submissions and the close of m wait, and refuses a
// month that is not OPEN or already has scores.
func lockEmptyMonth(ctx context.Context, tx pgx.Tx, m leaderboard.Month) error {
	// Seeds of different months create the same players: one at a time, the
	// second sees the first's players and takes the upsert path.
	const serialize = `SELECT pg_advisory_xact_lock(hashtext('leaderboard.seed'))`
	if _, err := tx.Exec(ctx, serialize); err != nil {
		return errorf("wait for other seeds: %w", err)
	}
	// The month's write lock, exclusive, makes submissions to it wait.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, monthWriteLockClass, monthKey(m)); err != nil {
		return errorf("lock month: %w", err)
	}
	q := `SELECT m.status, EXISTS (SELECT 1 FROM scores s WHERE s.month = $1)
		FROM periods m WHERE ` + mainPeriodOf("m", "$1") + ` FOR UPDATE OF m`
	var (
		status    string
		hasScores bool
	)
	if err := tx.QueryRow(ctx, q, m.Date()).Scan(&status, &hasScores); err != nil {
		return errorf("lock month: %w", err)
	}
	if leaderboard.MonthStatus(status) != leaderboard.MonthOpen {
		return leaderboard.Errorf(leaderboard.EBADINPUT, "month %s is %s: only an open month can be seeded", m, status)
	}
	if hasScores {
		return leaderboard.Errorf(leaderboard.EBADINPUT,
			"month %s already has scores: only a month without scores can be seeded", m)
	}
	return nil
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

// seedTable is the table a seed writes month m's scores into: a standalone
// copy of scores' columns and checks, without indexes or foreign key while
// it fills, as COPY is several times faster into a bare table, then made the
// month's partition. Its check on the month lets ATTACH skip its scan.
type seedTable struct {
	month leaderboard.Month
	// name is the table's while it fills; partition is the partition's name,
	// which it takes over.
	name, partition string
}

func newSeedTable(m leaderboard.Month) seedTable {
	return seedTable{month: m, name: partitionName("scores", m) + "_seed", partition: partitionName("scores", m)}
}

// ident returns name as a quoted SQL identifier.
func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func (t seedTable) create(ctx context.Context, tx pgx.Tx) error {
	q := fmt.Sprintf(`CREATE TABLE %s (LIKE scores INCLUDING CONSTRAINTS,
		CONSTRAINT seed_month CHECK (month = %s))`, ident(t.name), dateLiteral(t.month))
	if _, err := tx.Exec(ctx, q); err != nil {
		return errorf("create %s: %w", t.name, err)
	}
	return nil
}

// copyScores writes the chunk's score rows.
func (t seedTable) copyScores(ctx context.Context, tx pgx.Tx, r *seedRows) error {
	columns := []string{"month", "player_id", "score", "reached_at", "seq"}
	row := make([]any, len(columns))
	rows := pgx.CopyFromSlice(len(r.ids), func(i int) ([]any, error) {
		row[0], row[1], row[2], row[3], row[4] = r.month, r.ids[i], r.scores[i], r.reachedAt[i], r.seqs[i]
		return row, nil
	})
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, columns, rows); err != nil {
		return errorf("copy scores: %w", err)
	}
	return nil
}

// finish makes the full table month m's partition: it builds the indexes and
// the rank counts, analyzes, then swaps the table in.
func (t seedTable) finish(ctx context.Context, tx pgx.Tx) error {
	table := ident(t.name)
	// Built in one sort each, several times faster than row by row. They
	// match the parent's indexes, so ATTACH adopts them; the names are
	// those PostgreSQL gives a partition's indexes.
	pkey, rank := t.partition+"_pkey", t.partition+"_score_reached_at_seq_player_id_idx"
	if err := execSteps(ctx, tx, "index seeded scores",
		fmt.Sprintf(`ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (month, player_id)`, table, ident(t.name+"_pkey")),
		fmt.Sprintf(`CREATE INDEX %s ON %s (score DESC, reached_at ASC, seq ASC) INCLUDE (player_id)`, ident(t.name+"_rank"), table),
	); err != nil {
		return err
	}
	if err := fillRankCounts(ctx, tx, t.month, t.name); err != nil {
		return err
	}
	// Statistics belong to the table and stay with it through the swap.
	// Rows of the running transaction count as live to ANALYZE.
	analyze := fmt.Sprintf(`ANALYZE %s, score_block_counts, score_counts, score_hour_counts`, table)
	if _, err := tx.Exec(ctx, analyze); err != nil {
		return errorf("analyze seeded scores: %w", err)
	}
	// Locking scores before the foreign key locks players takes the two in
	// the order submissions do, so a submission in flight cannot deadlock
	// with the swap. The empty partition's rows were checked under the
	// month's lock: there are none to lose.
	return execSteps(ctx, tx, "swap in seeded scores",
		`LOCK TABLE ONLY scores IN ACCESS EXCLUSIVE MODE`,
		fmt.Sprintf(`ALTER TABLE %s ADD CONSTRAINT scores_player_id_fkey FOREIGN KEY (player_id) REFERENCES players (id)`, table),
		fmt.Sprintf(`DROP TABLE %s`, ident(t.partition)),
		fmt.Sprintf(`ALTER TABLE %s RENAME TO %s`, table, ident(t.partition)),
		fmt.Sprintf(`ALTER INDEX %s RENAME TO %s`, ident(t.name+"_pkey"), ident(pkey)),
		fmt.Sprintf(`ALTER INDEX %s RENAME TO %s`, ident(t.name+"_rank"), ident(rank)),
		fmt.Sprintf(`ALTER TABLE scores ATTACH PARTITION %s FOR VALUES IN (%s)`, ident(t.partition), dateLiteral(t.month)),
		fmt.Sprintf(`ALTER TABLE %s DROP CONSTRAINT seed_month`, ident(t.partition)),
	)
}

// execSteps runs DDL statements in order.
func execSteps(ctx context.Context, tx pgx.Tx, what string, steps ...string) error {
	for i, step := range steps {
		if _, err := tx.Exec(ctx, step); err != nil {
			return errorf("%s (step %d): %w", what, i+1, err)
		}
	}
	return nil
}
