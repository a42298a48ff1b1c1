package db

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

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

// closePhases hears each phase of a close start, by name, in order: a
// period's close (closePeriod, main's months included) stop, partition,
// lock, read, write, (with final ranks of their own: index, attach,) names,
// digest, cohorts, mark, commit and closed; a group close of small periods
// (TryClosePeriods) group read, group partition, group lock, group rank,
// group cohorts, group mark, group commit and group closed, then, if it
// failed, each period's own close. closed and group closed come once the
// close committed. An error it returns ends the close there, as a crash
// would; it may also end ctx. Tests set it (db.closePhase) to time the
// phases and to kill a close at each; it is nil in production.
type closePhases func(ctx context.Context, name string) error

// start tells p, when set, that phase name starts, and the close's
// progress (reportingProgress) when ctx carries one.
func (p closePhases) start(ctx context.Context, name string) error {
	if report, ok := ctx.Value(progressKey{}).(func(string)); ok {
		report(name)
	}
	if p == nil {
		return nil
	}
	return p(ctx, name)
}

// progressKey is the key of a close's progress in its context.
type progressKey struct{}

// progressPhases are the phases a close's progress reports, by the names of
// closePhases that start them.
var progressPhases = map[string]leaderboard.ClosePhase{
	"stop": leaderboard.PhaseStopping, "read": leaderboard.PhaseRanking, "index": leaderboard.PhaseIndexing,
	"digest": leaderboard.PhaseDigest, "attach": leaderboard.PhaseAttach, "closed": leaderboard.PhaseDone,
}

// reportingProgress returns ctx carrying the report of the close of period
// key of board to db.progress, when set.
func (db *DB) reportingProgress(ctx context.Context, board, key string) context.Context {
	if db.progress == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, func(name string) {
		if phase, ok := progressPhases[name]; ok {
			db.progress(board, key, phase)
		}
	})
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
