package db

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
)

// SeedPeriod fills period key of board with made-up players, for demos and
// benchmarks: "player-00000001" to SeedPlayerID(players), with SeedScore
// totals stretched over the board's range (SeedScoreIn: main's own on
// 0..10000), a subscore (SeedSubscore) when the board breaks ties by one,
// no metadata, and SeedReachedAt times between the period's start and its
// end or now. The same RandomSeed gives the same players, names and times
// on every board, main's months included. It opens the period if needed and
// refuses, with EBADINPUT, a key that is not the board's, a period that is
// not OPEN or already has scores, a month of main that has not started, a
// period of another board that takes no more events, and players outside
// 1..MaxSeedPlayers; ENOTFOUND for an unknown board or a season it does not
// have; ECONFLICT for a period of another board that has not started. A
// past month of main that is still OPEN can be seeded, as the demo does.
//
// Everything is one transaction holding the period's row FOR UPDATE, so
// submissions to the period and its close wait, and a failed seed leaves no
// rows (the opened period stays, empty). Rows go with COPY straight into
// the shared board_scores, seedChunk at a time, with the board's sort keys;
// the rank counters are built once, from the rows (FillRankCounts).
// Sequence numbers are reserved from score_seq in one call, so later events
// rank after seeded ties.
func (db *DB) SeedPeriod(ctx context.Context, board, key string, players int, opts SeedOptions) (SeedStats, error) {
	if players < 1 || players > MaxSeedPlayers {
		return SeedStats{}, leaderboard.Errorf(leaderboard.EBADINPUT,
			"players must be 1..%d, got %d", MaxSeedPlayers, players)
	}
	var m leaderboard.Month
	if board == leaderboard.MainBoard {
		var err error
		if m, err = leaderboard.ParseMainKey(key); err != nil {
			return SeedStats{}, err
		}
	}
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return SeedStats{}, err
	}
	var row *periodRow
	if board == leaderboard.MainBoard {
		row, err = db.ensureMainMonthRow(ctx, m)
	} else {
		row, err = db.ensurePeriodRow(ctx, b, key, true)
	}
	if err != nil {
		return SeedStats{}, err
	}
	var stats SeedStats
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		stats, err = db.seedPeriodTx(ctx, tx, b, row, players, opts)
		return err
	})
	if err != nil {
		if board == leaderboard.MainBoard {
			return SeedStats{}, errorf("seed month %s: %w", m, err)
		}
		return SeedStats{}, errorf("seed period %s of %s: %w", key, board, err)
	}
	return stats, nil
}

// VacuumSeeded vacuums and analyzes the tables a seed fills (the scores,
// their rank counters and the players), as autovacuum would have while a
// real period filled over days. Left to autovacuum, a 10M-player DAY
// period's 11.5M counter rows were vacuumed for minutes after its seed,
// while the first reads came: a read's p50 3.3 ms then, 1.2 ms after
// (docs/PERFORMANCE.md). VACUUM cannot run in a transaction, so a
// request's timeouts are lifted for one connection and set back after; a
// connection that cannot be set back is closed, not returned to the pool.
func (db *DB) VacuumSeeded(ctx context.Context) error {
	return db.pool.AcquireFunc(ctx, func(c *pgxpool.Conn) error {
		if _, err := c.Exec(ctx, `SET statement_timeout = 0; SET lock_timeout = '1min'`); err != nil {
			return errors.Join(errorf("lift the timeouts: %w", err), c.Conn().Close(ctx))
		}
		_, err := c.Exec(ctx, `VACUUM (ANALYZE) board_scores, period_rank_counts, players`)
		if err != nil {
			err = errorf("vacuum the seeded tables: %w", err)
		}
		if _, reset := c.Exec(ctx, `RESET statement_timeout; RESET lock_timeout`); reset != nil {
			return errors.Join(err, errorf("set the timeouts back: %w", reset), c.Conn().Close(ctx))
		}
		return err
	})
}

// ensureMainMonthRow returns the row of main's month m, making it when no
// event opened the month yet, from the month's start to its end in the
// service's time zone. EBADINPUT for a month that has not started; a past
// month without a row is made too, for the seed to fill.
func (db *DB) ensureMainMonthRow(ctx context.Context, m leaderboard.Month) (*periodRow, error) {
	if m.Start(db.loc).After(db.now()) {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "month %s has not started", m)
	}
	const insert = `INSERT INTO periods (board_id, key, starts_at, ends_at, created_at) VALUES ('main', $1, $2, $3, $4)
		ON CONFLICT (board_id, key) DO NOTHING`
	if _, err := db.pool.Exec(ctx, insert, m.String(), m.Start(db.loc), m.End(db.loc), db.now()); err != nil {
		return nil, errorf("open month %s: %w", m, err)
	}
	const q = `SELECT id, key, status, starts_at, ends_at FROM periods WHERE board_id = 'main' AND key = $1`
	return scanPeriodRow(db.pool.QueryRow(ctx, q, m.String()))
}

func (db *DB) seedPeriodTx(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, players int,
	opts SeedOptions) (SeedStats, error) {
	if err := longJob(ctx, tx); err != nil {
		return SeedStats{}, err
	}
	if err := lockEmptyPeriod(ctx, tx, b, row, db.now()); err != nil {
		return SeedStats{}, err
	}
	until := db.now()
	if row.endsAt != nil && row.endsAt.Before(until) {
		until = *row.endsAt
	}
	firstSeq, err := reserveSeqs(ctx, tx, players)
	if err != nil {
		return SeedStats{}, err
	}
	writePlayers, err := seedPlayerWriter(ctx, tx, players)
	if err != nil {
		return SeedStats{}, err
	}
	gen := &seedGenerator{rng: rand.New(rand.NewPCG(opts.RandomSeed, seedStream)), lo: b.MinScore, hi: b.MaxScore,
		from: row.startsAt, until: until, firstSeq: firstSeq}
	if b.TieBreak != leaderboard.TieBreakNone {
		gen.subscores = rand.New(rand.NewPCG(opts.RandomSeed, subscoreStream))
	}
	var stats SeedStats
	for done := 0; done < players; {
		c := gen.chunk(done, min(seedChunk, players-done))
		created, err := writePlayers(ctx, tx, c)
		if err != nil {
			return SeedStats{}, err
		}
		if err := copyBoardScores(ctx, tx, b, row.id, c); err != nil {
			return SeedStats{}, err
		}
		done += len(c.ids)
		stats.Players, stats.NewPlayers = done, stats.NewPlayers+created
		if opts.Progress != nil {
			opts.Progress(done)
		}
	}
	if err := FillRankCounts(ctx, tx, []int32{row.id}); err != nil {
		return SeedStats{}, err
	}
	// Rows of the running transaction count as live to ANALYZE: the planner
	// sees a large period at once.
	if _, err := tx.Exec(ctx, `ANALYZE board_scores`); err != nil {
		return SeedStats{}, errorf("analyze seeded scores: %w", err)
	}
	return stats, nil
}

// lockEmptyPeriod waits for any other seed to finish, locks period row of b
// until commit, so that submissions and the close of it wait, and refuses a
// period that is not OPEN, takes no more events at now (main's months
// excepted), or already has scores.
func lockEmptyPeriod(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, now time.Time) error {
	// Seeds of different periods create the same players: one at a time,
	// the second sees the first's players and takes the upsert path.
	const serialize = `SELECT pg_advisory_xact_lock(hashtext('leaderboard.seed'))`
	if _, err := tx.Exec(ctx, serialize); err != nil {
		return errorf("wait for other seeds: %w", err)
	}
	const q = `SELECT p.status, p.ends_at, EXISTS (SELECT 1 FROM board_scores s WHERE s.period_id = p.id)
		FROM periods p WHERE p.board_id = $1 AND p.id = $2 FOR UPDATE`
	var (
		status    string
		hasScores bool
	)
	if err := tx.QueryRow(ctx, q, b.ID, row.id).Scan(&status, &row.endsAt, &hasScores); err != nil {
		return errorf("lock period: %w", err)
	}
	if b.ID == leaderboard.MainBoard {
		// main's wording is its months'; a past month still OPEN, which takes
		// no more events, is seeded all the same.
		switch {
		case leaderboard.PeriodStatus(status) != leaderboard.PeriodOpen:
			return leaderboard.Errorf(leaderboard.EBADINPUT, "month %s is %s: only an open month can be seeded", row.key, status)
		case hasScores:
			return leaderboard.Errorf(leaderboard.EBADINPUT,
				"month %s already has scores: only a month without scores can be seeded", row.key)
		}
		return nil
	}
	switch {
	case leaderboard.PeriodStatus(status) != leaderboard.PeriodOpen:
		return leaderboard.Errorf(leaderboard.EBADINPUT, "period %s of %s is %s: only an open period can be seeded",
			row.key, b.ID, status)
	case row.endsAt != nil && !now.Before(row.endsAt.Add(b.CloseGrace)):
		return leaderboard.Errorf(leaderboard.EBADINPUT, "period %s of %s takes no more events: only an open period can be seeded",
			row.key, b.ID)
	case hasScores:
		return leaderboard.Errorf(leaderboard.EBADINPUT,
			"period %s of %s already has scores: only a period without scores can be seeded", row.key, b.ID)
	}
	return nil
}

// copyBoardScores writes the chunk's players' rows in period id of b, with
// their subscores when the chunk has them, and b's sort keys.
func copyBoardScores(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, r *seedRows) error {
	columns := []string{"period_id", "player_id", "score", "subscore", "sort_score", "sort_subscore", "reached_at", "seq"}
	row := make([]any, len(columns))
	rows := pgx.CopyFromSlice(len(r.ids), func(i int) ([]any, error) {
		score := int(r.scores[i])
		var subscore *int
		if len(r.subscores) > 0 {
			subscore = new(int(r.subscores[i]))
		}
		sortScore, sortSubscore := b.SortKey(score, subscore)
		row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = id, r.ids[i], int32(score), subscore, sortScore,
			sortSubscore, r.reachedAt[i], r.seqs[i]
		return row, nil
	})
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"board_scores"}, columns, rows); err != nil {
		return errorf("copy scores: %w", err)
	}
	return nil
}
