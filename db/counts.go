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

// Live ranks are counted, not scanned: score_counts holds the players of each
// score of an open month and score_hour_counts those of each score and hour of
// reached_at. The rank of a key (score, reached_at, seq) is then
//
//	1 + players with a higher score              (≤ 10,001 counter rows)
//	  + players on the same score in earlier hours (≤ ~744 counter rows)
//	  + players on the same score and hour ranked before the key (a range scan)
//
// which stays flat across the table, even inside a tie group of 300k players.

// rankBucket is one counter cell: a month, a score and an hour of reached_at.
type rankBucket struct {
	month leaderboard.Month
	score int
	hour  int32
}

func bucketOf(m leaderboard.Month, score int, reachedAt time.Time) rankBucket {
	return rankBucket{month: m, score: score, hour: hourOf(reachedAt)}
}

// hourOf returns the hours since the Unix epoch at t, rounded down, as the
// migration computes them.
func hourOf(t time.Time) int32 {
	return int32(t.Unix() / 3600)
}

// hourStart returns the first instant of hour h.
func hourStart(h int32) time.Time {
	return time.Unix(int64(h)*3600, 0)
}

// writeRankCounts moves each changed row from the counter cells it was
// counted in to those of its new key.
func writeRankCounts(ctx context.Context, tx pgx.Tx, rows map[leaderboard.PlayerMonth]*scoreRow) error {
	deltas := map[rankBucket]int32{}
	for key, r := range rows {
		if r.changedBy < 0 {
			continue
		}
		if r.exists {
			deltas[r.stored]--
		}
		deltas[bucketOf(key.Month, r.score, r.reachedAt)]++
	}
	scoreDeltas := map[rankBucket]int32{}
	for b, d := range deltas {
		scoreDeltas[rankBucket{month: b.month, score: b.score}] += d
	}
	const scores = `INSERT INTO score_counts (month, score, players)
		SELECT * FROM unnest($1::date[], $2::int[], $3::int[]) ORDER BY 1, 2
		ON CONFLICT (month, score) DO UPDATE SET players = score_counts.players + EXCLUDED.players`
	const hours = `INSERT INTO score_hour_counts (month, score, hour, players)
		SELECT * FROM unnest($1::date[], $2::int[], $3::int[], $4::int[]) ORDER BY 1, 2, 3
		ON CONFLICT (month, score, hour) DO UPDATE SET players = score_hour_counts.players + EXCLUDED.players`
	if months, scoreCol, _, deltaCol := deltaColumns(scoreDeltas); len(months) > 0 {
		if _, err := tx.Exec(ctx, scores, months, scoreCol, deltaCol); err != nil {
			return fmt.Errorf("write score counts: %w", err)
		}
	}
	if months, scoreCol, hourCol, deltaCol := deltaColumns(deltas); len(months) > 0 {
		if _, err := tx.Exec(ctx, hours, months, scoreCol, hourCol, deltaCol); err != nil {
			return fmt.Errorf("write score hour counts: %w", err)
		}
	}
	return nil
}

// deltaColumns returns the non-zero deltas column by column, in key order so
// that concurrent batches lock counter rows alike.
func deltaColumns(deltas map[rankBucket]int32) (months []time.Time, scores, hours, values []int32) {
	keys := slices.SortedFunc(maps.Keys(deltas), func(a, b rankBucket) int {
		return cmp.Or(compareMonths(a.month, b.month), cmp.Compare(a.score, b.score), cmp.Compare(a.hour, b.hour))
	})
	for _, k := range keys {
		if deltas[k] == 0 {
			continue
		}
		months = append(months, k.month.Date())
		scores = append(scores, int32(k.score))
		hours = append(hours, k.hour)
		values = append(values, deltas[k])
	}
	return months, scores, hours, values
}
