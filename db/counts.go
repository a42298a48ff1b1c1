package db

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Live ranks are counted, not scanned. Three counter tables hold the players
// of an open month per block of 100 scores (score_block_counts), per score
// (score_counts), and per score and hour of reached_at (score_hour_counts).
// The rank of a key (score, reached_at, seq) is then
//
//	1 + players in higher blocks                         (≤ 100 counter rows)
//	  + players with a higher score in the key's block    (≤ 99 counter rows)
//	  + players with the same score in earlier hours      (≤ ~372 counter rows,
//	                                                        from the nearer end)
//	  + players with the same score and hour before the key (a range scan from
//	    the nearer end of the hour, see liveRankSQL)
//
// so its cost stays flat across the table, even inside a tie group of 300k.

// hourOf returns the hours since the Unix epoch at t, rounded down (also
// before 1970), as the migration computes them.
func hourOf(t time.Time) int32 {
	secs := t.Unix()
	hour := secs / 3600
	if secs%3600 < 0 {
		hour--
	}
	return int32(hour)
}

// counterCell is one row of score_hour_counts; its score and block rows are
// derived from it.
type counterCell struct {
	month leaderboard.Month
	score int
	hour  int32
}

func cellOf(m leaderboard.Month, score int, reachedAt time.Time) counterCell {
	return counterCell{month: m, score: score, hour: hourOf(reachedAt)}
}

// queueRankCounts moves each changed row from the counter cells it was
// counted in to those of its new key.
func queueRankCounts(writes *pgx.Batch, rows map[monthPlayer]*scoreRow) {
	hours := map[counterCell]int32{}
	for key, r := range rows {
		if r.changedBy < 0 {
			continue
		}
		if r.exists {
			hours[r.stored]--
		}
		hours[cellOf(key.Month, r.score, r.reachedAt)]++
	}
	queueCounterDeltas(writes, hours)
}

// queueCounterDeltas adds each delta to its score_hour_counts cell and to the
// score_counts and score_block_counts rows above it.
func queueCounterDeltas(writes *pgx.Batch, hours map[counterCell]int32) {
	scores, blocks := map[counterCell]int32{}, map[counterCell]int32{}
	for c, d := range hours {
		scores[counterCell{month: c.month, score: c.score}] += d
		blocks[counterCell{month: c.month, score: c.score / blockSize}] += d
	}
	// The ORDER BY makes concurrent batches lock counter rows in one order.
	const (
		blockQuery = `INSERT INTO score_block_counts (month, block, players)
			SELECT * FROM unnest($1::date[], $2::int[], $3::int[]) ORDER BY 1, 2
			ON CONFLICT (month, block) DO UPDATE SET players = score_block_counts.players + EXCLUDED.players`
		scoreQuery = `INSERT INTO score_counts (month, score, players)
			SELECT * FROM unnest($1::date[], $2::int[], $3::int[]) ORDER BY 1, 2
			ON CONFLICT (month, score) DO UPDATE SET players = score_counts.players + EXCLUDED.players`
		hourQuery = `INSERT INTO score_hour_counts (month, score, hour, players)
			SELECT * FROM unnest($1::date[], $2::int[], $4::int[], $3::int[]) ORDER BY 1, 2, 3
			ON CONFLICT (month, score, hour) DO UPDATE SET players = score_hour_counts.players + EXCLUDED.players`
	)
	for _, w := range []struct {
		q      string
		deltas map[counterCell]int32
		hours  bool
	}{{blockQuery, blocks, false}, {scoreQuery, scores, false}, {hourQuery, hours, true}} {
		months, scoreCol, deltaCol, hourCol := deltaColumns(w.deltas)
		if len(months) == 0 {
			continue
		}
		args := []any{months, scoreCol, deltaCol}
		if w.hours {
			args = append(args, hourCol)
		}
		writes.Queue(w.q, args...)
	}
}

// deltaColumns returns the non-zero deltas column by column.
func deltaColumns(deltas map[counterCell]int32) (months []time.Time, scores, values, hours []int32) {
	for _, c := range slices.SortedFunc(maps.Keys(deltas), compareCells) {
		if deltas[c] == 0 {
			continue
		}
		months = append(months, c.month.Date())
		scores = append(scores, int32(c.score))
		values = append(values, deltas[c])
		hours = append(hours, c.hour)
	}
	return months, scores, values, hours
}

func compareCells(a, b counterCell) int {
	return cmp.Or(compareMonths(a.month, b.month), cmp.Compare(a.score, b.score), cmp.Compare(a.hour, b.hour))
}

// fillRankCounts builds month m's counters from the rows of table, in one scan
// of them, the coarser counts from the finer ones. The month must have no
// counters yet. Rows go in in key order, so that the counters a rank sums
// (one score's hours, say) share a few pages instead of hundreds.
func fillRankCounts(ctx context.Context, tx pgx.Tx, m leaderboard.Month, table string) error {
	hours := fmt.Sprintf(`INSERT INTO score_hour_counts (month, score, hour, players)
		SELECT month, score, floor(extract(EPOCH FROM reached_at) / 3600)::int, count(*) FROM %s
		GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
		pgx.Identifier{table}.Sanitize())
	const scores = `INSERT INTO score_counts (month, score, players)
		SELECT month, score, sum(players) FROM score_hour_counts WHERE month = $1 GROUP BY 1, 2 ORDER BY 1, 2`
	blocks := fmt.Sprintf(`INSERT INTO score_block_counts (month, block, players)
		SELECT month, score / %d, sum(players) FROM score_counts WHERE month = $1 GROUP BY 1, 2 ORDER BY 1, 2`, blockSize)
	if _, err := tx.Exec(ctx, hours); err != nil {
		return errorf("fill rank counts: %w", err)
	}
	for _, q := range []string{scores, blocks} {
		if _, err := tx.Exec(ctx, q, m.Date()); err != nil {
			return errorf("fill rank counts: %w", err)
		}
	}
	return nil
}
