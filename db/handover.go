package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// rankOrder is the order of a month's ranks: the close's ROW_NUMBER() and
// every read that ranks a frozen month as the close does.
const rankOrder = `score DESC, reached_at ASC, seq ASC`

// rankSource is where a read of a month's final ranks comes from: its two
// statements, the ranks in rank order without names, and the ranks and
// names of the players who have one.
type rankSource struct{ ranks, names string }

// finalRanksSource reads a final ranks table. Every row has the same month:
// ordered by both, the primary key gives the order without a sort.
func finalRanksSource(table string) rankSource {
	return rankSource{
		ranks: `SELECT rank, score, reached_at, player_id FROM ` + table + ` ORDER BY month, rank`,
		names: `SELECT f.rank, p.name FROM ` + table + ` f JOIN players p ON p.id = f.player_id WHERE p.name IS NOT NULL`,
	}
}

// frozenScoresSource ranks the scores of month m, which takes no more
// writes (CLOSING), as the close ranks them: from the score index alone,
// in order.
func frozenScoresSource(m leaderboard.Month) rankSource {
	ranked := `SELECT ROW_NUMBER() OVER (ORDER BY ` + rankOrder + `) AS rank, score, reached_at, player_id FROM ` +
		partitionName("scores", m)
	return rankSource{
		ranks: ranked + ` ORDER BY ` + rankOrder,
		names: `SELECT r.rank, p.name FROM (` + ranked + `) r JOIN players p ON p.id = r.player_id WHERE p.name IS NOT NULL`,
	}
}

// readRanks calls entry with each rank of source in rank order, its player
// without a name, then, unless name is nil, name with the rank and name of
// each of its players who has one. Joining the names in rank order would
// sort the whole month again: at ten million players, 24 s before the first
// row.
func readRanks(ctx context.Context, tx pgx.Tx, source rankSource, entry func(leaderboard.RankEntry) error,
	name func(rank int, name string) error) error {
	rows, err := tx.Query(ctx, source.ranks)
	if err != nil {
		return err
	}
	var e leaderboard.RankEntry
	if _, err := pgx.ForEachRow(rows, []any{&e.Rank, &e.Score, &e.ReachedAt, &e.Player.ID}, func() error {
		return entry(e)
	}); err != nil || name == nil {
		return err
	}
	if rows, err = tx.Query(ctx, source.names); err != nil {
		return err
	}
	var n string
	_, err = pgx.ForEachRow(rows, []any{&e.Rank, &n}, func() error { return name(e.Rank, n) })
	return err
}

// The close hands the month's ranks to whoever keeps them in memory
// (CloseHooks.Ranks) from a read of its own, on another connection, that
// runs while the close builds, indexes and digests the final ranks: the
// month takes no more writes, so the frozen scores ranked as the close
// ranks them are the final ranks. Names are joined there too, a hash join of
// the whole month (11-19 s at ten million players here), so that the month
// is in memory with its names the moment the close commits. The read's
// digest must equal the close's for Closed to call it a match.

// handover is the read of a closing month's ranks handed to CloseHooks.Ranks.
type handover struct {
	cancel context.CancelFunc
	done   chan struct{}
	digest string // of what was handed, once done
	err    error
}

// handRanks starts the read of closing month m's ranks and hands it to
// hook; nil when hook is nil.
func (db *DB) handRanks(ctx context.Context, m leaderboard.Month, hook func(leaderboard.Month, int, leaderboard.RankStream) error) *handover {
	if hook == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	h := &handover{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		h.digest, h.err = db.readFrozenRanks(ctx, m, hook)
	}()
	return h
}

// matches waits for the read to end and reports whether it handed exactly
// the ranks of digest; unless closed is true, when the close failed or the
// month was closed already, it stops the read first.
func (h *handover) matches(closed bool, digest string) bool {
	if h == nil {
		return false
	}
	if !closed {
		h.cancel()
	}
	<-h.done
	h.cancel()
	return closed && h.err == nil && h.digest == digest
}

// readFrozenRanks hands hook closing month m's participants, counted, and
// its ranks, and returns the digest of what hook read of them (a hook may
// leave them unread).
func (db *DB) readFrozenRanks(ctx context.Context, m leaderboard.Month, hook func(leaderboard.Month, int, leaderboard.RankStream) error) (string, error) {
	d := newDigest()
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		// The hash join of the names wants its table in memory.
		if _, err := tx.Exec(ctx, `SET LOCAL work_mem = '1GB'`); err != nil {
			return err
		}
		const participants = `SELECT COALESCE(sum(players), 0) FROM score_block_counts WHERE month = $1`
		var n int
		if err := tx.QueryRow(ctx, participants, m.Date()).Scan(&n); err != nil {
			return err
		}
		return hook(m, n, func(entry func(leaderboard.RankEntry) error, name func(rank int, name string) error) error {
			return readRanks(ctx, tx, frozenScoresSource(m), func(e leaderboard.RankEntry) error {
				d.add(e)
				return entry(e)
			}, name)
		})
	})
	return d.sum(), err
}
