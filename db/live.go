package db

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// This file is the one home of the live ranking: its key, its rows, and the
// SQL that counts a key's rank (see counts.go for the counters it sums) and
// reads the rows around it.

// Live ranks are read from scores in index order (score DESC, reached_at ASC,
// seq ASC); see liveAboveSQL for the windows around a key.

// liveKey is a position in a month's live ranking order.
type liveKey struct {
	score     int
	reachedAt time.Time
	seq       int64
}

// before reports whether k ranks above o.
func (k liveKey) before(o liveKey) bool {
	if k.score != o.score {
		return k.score > o.score
	}
	if !k.reachedAt.Equal(o.reachedAt) {
		return k.reachedAt.Before(o.reachedAt)
	}
	return k.seq < o.seq
}

// liveRow is a row of the live table.
type liveRow struct {
	liveKey
	player leaderboard.Player
}

// monthTable returns month m's partition of scores as an SQL identifier. The
// live reads name it rather than the partitioned parent, so that PostgreSQL
// keeps their generic plans (see liveStandingSQL). Pages and ranks read only
// months that are open or closing, which have one; a standing of a month
// without one is read through the parent (see liveStanding).
//
// The range scans of a live read take every row of the table they read,
// with no condition on month: the partition holds the month's rows alone,
// and the score index does not hold month, so a condition on it made every
// row counted or read a fetch from the heap instead of an index-only scan
// (a tie group's count inside an hour: 3.0 ms instead of 0.5 ms at 10M).
func monthTable(m leaderboard.Month) string {
	return pgx.Identifier{partitionName("scores", m)}.Sanitize()
}

// liveTopQuery returns the first limit rows of table, a month's partition.
func liveTopQuery(table string, limit int) string {
	return `SELECT s.player_id, s.score, s.reached_at, s.seq, (SELECT name FROM players WHERE id = s.player_id)
		FROM ` + table + ` s ORDER BY s.score DESC, s.reached_at ASC, s.seq ASC LIMIT ` + strconv.Itoa(limit)
}

// liveTotalQuery returns the players ranked live in month $1.
var liveTotalQuery = `SELECT ` + liveTotalSQL("$1")

// liveTotalSQL returns the SQL expression of the players ranked live in the
// month given by the SQL expression month: the sum of its block counters.
func liveTotalSQL(month string) string {
	return `(SELECT COALESCE(sum(c.players), 0) FROM score_block_counts c WHERE c.month = ` + month + `)`
}

// blockSize is the number of scores one score_block_counts row covers.
const blockSize = 100

// liveRankArgs returns liveRankQuery's parameters for key in month m.
func liveRankArgs(m leaderboard.Month, key liveKey) []any {
	return []any{m.Date(), key.score, key.reachedAt, key.seq}
}

func collectLiveRows(rows pgx.Rows) ([]liveRow, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (liveRow, error) {
		var r liveRow
		err := row.Scan(&r.player.ID, &r.score, &r.reachedAt, &r.seq, &r.player.Name)
		return r, err
	})
}

// nearest sorts rows by closer (nearest first) and keeps at most n.
func nearest(rows []liveRow, n int, closer func(a, b liveKey) bool) []liveRow {
	slices.SortFunc(rows, func(a, b liveRow) int {
		if closer(a.liveKey, b.liveKey) {
			return -1
		}
		return 1
	})
	return rows[:min(n, len(rows))]
}

// rankRows turns rows, nearest first, into entries ranked from rank+step on.
func rankRows(rows []liveRow, rank, step int) []leaderboard.RankEntry {
	out := make([]leaderboard.RankEntry, len(rows))
	for i, r := range rows {
		rank += step
		out[i] = leaderboard.RankEntry{Rank: rank, Score: r.score, ReachedAt: r.reachedAt, Player: r.player}
	}
	return out
}

// liveRankSQL returns the SQL expression of the live rank of the key held in
// the columns score, reached_at, seq, hour and hour_start of row t, in month
// $1 (see counts.go), whose scores, and no other month's, are in table (see
// monthTable). The key must be a row of the table.
//
// Each of the last two counts starts from the nearer end. The players with
// the key's score in earlier hours are summed from the month's start when
// the key is in its first half (before the 16th, 00:00 UTC), else are the
// score's counter less the hours from the key's on: a tie group spread over
// the month sums a quarter of its hours on average instead of a half. Inside
// its score and hour, the players before the key are counted by a range scan
// from the hour's start when the key is in the first half hour, else as the
// hour's counter less a range scan from the key (itself included) to the
// hour's end. Either split is right wherever it falls; it only moves cost.
func liveRankSQL(t, table string) string {
	return strings.NewReplacer("{t}", t, "{table}", table, "{block}", strconv.Itoa(blockSize)).Replace(`(1
	+ (SELECT COALESCE(sum(players), 0) FROM score_block_counts WHERE month = $1 AND block > {t}.score / {block})
	+ (SELECT COALESCE(sum(players), 0) FROM score_counts
		WHERE month = $1 AND score > {t}.score AND score < ({t}.score / {block} + 1) * {block})
	+ CASE WHEN {t}.hour < floor(extract(EPOCH FROM $1::date) / 3600)::int + 15 * 24 THEN
		(SELECT COALESCE(sum(players), 0) FROM score_hour_counts
			WHERE month = $1 AND score = {t}.score AND hour < {t}.hour)
	ELSE
		(SELECT COALESCE(sum(players), 0) FROM score_counts WHERE month = $1 AND score = {t}.score)
		- (SELECT COALESCE(sum(players), 0) FROM score_hour_counts
			WHERE month = $1 AND score = {t}.score AND hour >= {t}.hour)
	END
	+ CASE WHEN {t}.reached_at < {t}.hour_start + interval '30 minutes' THEN
		(SELECT count(*) FROM {table}
			WHERE score = {t}.score AND reached_at >= {t}.hour_start
			AND (reached_at, seq) < ({t}.reached_at, {t}.seq))
	ELSE
		(SELECT COALESCE(sum(players), 0) FROM score_hour_counts
			WHERE month = $1 AND score = {t}.score AND hour = {t}.hour)
		- (SELECT count(*) FROM {table}
			WHERE score = {t}.score AND reached_at < {t}.hour_start + interval '1 hour'
			AND (reached_at, seq) >= ({t}.reached_at, {t}.seq))
	END)`)
}

// hourColumnsSQL adds the columns hour, as hourOf computes it, and
// hour_start, the first instant of that hour, of reached_at.
const hourColumnsSQL = `floor(extract(EPOCH FROM reached_at) / 3600)::int AS hour,
	to_timestamp(floor(extract(EPOCH FROM reached_at) / 3600) * 3600) AS hour_start`

// liveAboveSQL returns the rows ranked just above the key in the columns
// score, reached_at and seq of row t, at most limit of them from each of two
// index range scans: the rest of the key's own score group, nearest first,
// and the higher scores, nearest first, read from table as in liveRankSQL. A
// mixed-direction order has no single row-value comparison, hence the two.
func liveAboveSQL(t, limit, table string) string {
	return strings.NewReplacer("{t}", t, "{limit}", limit, "{table}", table).Replace(`(SELECT player_id, score, reached_at, seq FROM {table}
			WHERE score = {t}.score AND (reached_at, seq) < ({t}.reached_at, {t}.seq)
			ORDER BY reached_at DESC, seq DESC LIMIT {limit})
		UNION ALL
		(SELECT player_id, score, reached_at, seq FROM {table}
			WHERE score > {t}.score
			ORDER BY score ASC, reached_at DESC, seq DESC LIMIT {limit})`)
}

// liveBelowSQL is liveAboveSQL's mirror: the rows ranked just below the key.
func liveBelowSQL(t, limit, table string) string {
	return strings.NewReplacer("{t}", t, "{limit}", limit, "{table}", table).Replace(`(SELECT player_id, score, reached_at, seq FROM {table}
			WHERE score = {t}.score AND (reached_at, seq) > ({t}.reached_at, {t}.seq)
			ORDER BY reached_at ASC, seq ASC LIMIT {limit})
		UNION ALL
		(SELECT player_id, score, reached_at, seq FROM {table}
			WHERE score < {t}.score
			ORDER BY score DESC, reached_at ASC, seq ASC LIMIT {limit})`)
}

// keySQL returns a row k holding the key in parameters $n (score), $n+1
// (reached_at) and $n+2 (seq).
func keySQL(n int) string {
	return fmt.Sprintf(`(SELECT $%d::int AS score, $%d::timestamptz AS reached_at, $%d::bigint AS seq) AS k`, n, n+1, n+2)
}

// liveBelowQuery returns up to limit rows ranked just below the key
// ($1 score, $2 reached_at, $3 seq) in table, a month's partition.
func liveBelowQuery(table string, limit int) string {
	return `SELECT b.*, ` + nameSQL("b") + ` FROM ` + keySQL(1) + ` CROSS JOIN LATERAL (` + liveBelowSQL("k", strconv.Itoa(limit), table) + `) AS b`
}

// liveRankQuery returns the statement of the live rank of the key ($2 score,
// $3 reached_at, $4 seq) in table, month $1's partition.
func liveRankQuery(table string) string {
	return `SELECT ` + liveRankSQL("k", table) + ` FROM (SELECT score, reached_at, seq, ` + hourColumnsSQL + `
	FROM ` + keySQL(2) + `) AS k`
}

// pageLimits are the row limits live pages are read with: a page of first
// entries reads first+1 rows (the extra one tells whether another page
// follows) with limitFor(pageLimits, first+1).
var pageLimits = []int{11, 26, 51, 101, 251, leaderboard.MaxPageSize + 1}

// limitFor returns the smallest of limits, in increasing order, that holds
// n, or n when none does. Statements are written with their limits as
// literals (see liveStandingSQL), so that a few steps of them keep the
// statements prepared on each connection few; the rows are trimmed in Go.
func limitFor(limits []int, n int) int {
	for _, l := range limits {
		if n <= l {
			return l
		}
	}
	return n
}
