package db

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// A period's live ranks are counted, not scanned, with counters that fit any board's order, tie-break and range.
// period_rank_counts holds, per period, the players in buckets of the offset
// u = sort_score - origin (origin is the board's best sort score, so u runs
// from 0 up to the board's range) at levels of 2^24, 2^16, 2^8 and single
// sort scores, and at level -1 per sort score, sort subscore and hour of
// reached_at (the tie cells). The rank of a row is then
//
//	1 + the players in the earlier buckets under the same parent bucket,
//	    at each level (at most 255 counter rows a level; the top level
//	    has at most 256 buckets in all)
//	  + the players with the row's score in earlier tie cells (earlier
//	    subscores, or the same subscore and earlier hours)
//	  + the players before the row in its own tie cell (a range scan of
//	    board_scores_rank_idx from the hour's start)
//
// so its cost does not grow with the rank, nor with a group tied at one
// score (300,000 seeded players share one): a tie cell holds the players of
// one score, subscore and hour. On a board with a tie-break, the earlier
// subscores at the row's score are themselves counted in levels, as the
// scores are: under each sort score, the players per bucket of the subscore
// key (subscoreKey) at levels -2 to -5 (2^24, 2^16, 2^8 and single keys), so
// that the tie cells summed are those of the row's own subscore only, and
// tens of thousands of distinct subscores tied at one score (a board whose
// score is a few stars and whose subscore is the time) cost a few hundred
// counter rows, not one each.
// On a board of wide range (sparseLevels: 2^16 scores and up, such as a
// time trial's milliseconds) most scores are held by one player or a few,
// and a tie cell and four subscore counters for each of them would make
// the counters several times the size of the rows (60 million of them for
// 10 million players). There a score keeps its tie cells and subscore levels
// only while it is crowded (more than crowdedScore players, as its level-0
// counter says): the players before a row at an uncrowded score are counted
// by a range scan of board_scores_rank_idx over at most crowdedScore rows.
// A write that makes a score crowded builds its cells from its rows; one
// that makes it uncrowded deletes them (rankDeltas.writeSparseCells).
// One level up the same holds for the level-0 counters themselves: on such a
// board a level-8 bucket keeps the counters of its scores only while it
// holds more than crowdedScore players (as its level-8 counter says), and
// the players before a row in an uncrowded bucket are counted by a range
// scan of board_scores_rank_idx over at most crowdedScore rows. A crowded
// score lies in a crowded bucket, so its level-0 counter is there to say
// so. Without this a time trial's counters were one row a player again
// (9.4 million level-0 counters for 10 million seeded players, 1.6 of the
// period's 1.9 GB of counters), pages that every read across the board
// competes for in shared_buffers.
// Every write of board_scores moves the row's counters in the same
// transaction: an answer read in one statement sees rows and counters from
// one snapshot.

// tieLevel is the level of the tie cells.
const tieLevel = -1

// tieHourBias makes an hour since the Unix epoch of the years 0001..9999
// non-negative and less than 2^27, so that it packs beside the subscore.
const tieHourBias = 1 << 25

// rankLevels is how a board's periods are counted: the origin of u and the
// levels used, the top first, down to 0 (a level above the board's whole
// range would be one hot counter that every write updates), and whether
// the subscores are counted too (subscoreShifts): on a board with a
// tie-break.
type rankLevels struct {
	origin    int64
	shifts    []int32
	subscores bool
}

// sparseLevels is the number of score levels from which a board is sparse:
// its scores keep their tie cells and subscore levels only while crowded.
const sparseLevels = 3

// crowdedScore is the number of players at one score of a sparse board
// above which the score keeps its tie cells and subscore levels, and in one
// level-8 bucket above which the bucket keeps its level-0 counters; at most
// this many rows are scanned instead.
const crowdedScore = 32

// bucketLevel is the level whose buckets keep their level-0 counters only
// while crowded, on a sparse board (which always counts it).
const bucketLevel = 8

// sparse reports whether the board's scores keep their tie cells and
// subscore levels only while crowded.
func (l rankLevels) sparse() bool { return len(l.shifts) >= sparseLevels }

// sparseSQL is the SQL condition that the board in row b of boards is
// sparse (rankLevels.sparse).
var sparseSQL = fmt.Sprintf(`(b.max_score::bigint - b.min_score) >> %d > 0`, shiftsOf(sparseLevels)[0])

// subscoreShifts are the levels of the subscore keys under each sort score,
// the top first; subscoreLevel names their counters.
var subscoreShifts = []int32{24, 16, 8, 0}

// subscoreLevel returns the level of the counters of subscoreShifts[i]:
// -2, -3, -4 and -5.
func subscoreLevel(i int) int16 { return int16(tieLevel - 1 - i) }

// cellLevels are the levels a sparse board's score keeps only while it is
// crowded: the tie cells and the subscore levels.
var cellLevels = func() []int16 {
	levels := []int16{tieLevel}
	for i := range subscoreShifts {
		levels = append(levels, subscoreLevel(i))
	}
	return levels
}()

// rankShape is what the statements that sum a rank depend on of a board's
// rankLevels: how many score levels it has, and whether it counts its
// subscores. Each shape has statements of its own, written out, so that
// PostgreSQL keeps their generic plans (boardStandingSQL).
type rankShape struct {
	levels    int
	subscores bool
}

// shape returns l's rankShape.
func (l rankLevels) shape() rankShape {
	return rankShape{levels: len(l.shifts), subscores: l.subscores}
}

// rankShapes returns every rankShape a board may have.
func rankShapes() []rankShape {
	var shapes []rankShape
	for levels := 1; levels <= len(levelShifts); levels++ {
		shapes = append(shapes, rankShape{levels, false}, rankShape{levels, true})
	}
	return shapes
}

// everyShape is the shape that sums any board's rank: every score level
// and the subscore levels, which add nothing on a board without them.
var everyShape = rankShape{levels: len(levelShifts), subscores: true}

// levelShifts are the levels a board may count with, the top first; a
// board's rankLevels use the last of them, so their number names them. A
// rank may also be summed over all of them, as a read of many boards'
// ranks in one statement does: a level the board does not count has no
// counters, and the range under it starts at 0 (the board's u never
// reaches the level above's first bucket), so it adds nothing and bounds
// nothing.
var levelShifts = []int32{24, 16, 8, 0}

// shiftsOf returns the last n of levelShifts.
func shiftsOf(n int) []int32 { return levelShifts[len(levelShifts)-n:] }

// rankLevelsOf returns b's rankLevels. A board's order and range never
// change, so neither do they.
func rankLevelsOf(b *leaderboard.Board) rankLevels {
	origin, _ := b.SortKey(b.MinScore, nil)
	if b.Order == leaderboard.OrderDesc {
		origin, _ = b.SortKey(b.MaxScore, nil)
	}
	span := int64(b.MaxScore) - int64(b.MinScore)
	l := rankLevels{origin: origin, shifts: shiftsOf(1), subscores: b.TieBreak != leaderboard.TieBreakNone}
	for i, shift := range levelShifts {
		if span>>shift > 0 {
			l.shifts = levelShifts[i:]
			break
		}
	}
	return l
}

// rankCell is one counter of period_rank_counts: sub is 0 but in tie cells.
type rankCell struct {
	period int32
	level  int16
	bucket int64
	sub    int64
}

// subscoreKey returns the sort subscore made non-negative, in the same
// order: the "no subscore" key, math.MaxInt64, after every other; as
// subscoreKeySQL computes it.
func subscoreKey(sortSubscore int64) int64 {
	if sortSubscore == math.MaxInt64 {
		return 1<<32 + 1
	}
	return sortSubscore + 1<<31
}

// tieSub returns a tie cell's sub: the subscore key in its upper bits, the
// hour in its lower 27, as tieSubSQL computes it.
func tieSub(sortSubscore int64, reachedAt time.Time) int64 {
	return subscoreKey(sortSubscore)<<27 | int64(hourOf(reachedAt)+tieHourBias)
}

// subscoreKeySQL returns subscoreKey of the SQL expression sortSubscore.
func subscoreKeySQL(sortSubscore string) string {
	return `(CASE WHEN ` + sortSubscore + ` = 9223372036854775807 THEN 4294967297 ELSE ` + sortSubscore + ` + 2147483648 END)`
}

// tieSubSQL returns tieSub of the SQL expressions sortSubscore and hour.
func tieSubSQL(sortSubscore, hour string) string {
	return `(` + subscoreKeySQL(sortSubscore) + ` << 27 | (` + hour + `::bigint + ` + strconv.Itoa(tieHourBias) + `))`
}

// rankDeltas are the moves of the rank counters that one transaction's
// writes make, queued by queue.
type rankDeltas struct {
	// counts are the counters that move as they are: the score levels but
	// the sparse boards' level 0, and the tie cells and subscore levels of
	// boards that are not sparse.
	counts map[rankCell]int32
	// zeros are the level-0 counters of sparse boards, which move only while
	// their level-8 bucket stays crowded.
	zeros map[rankCell]int32
	// crowded are the tie cells and subscore levels of sparse boards' scores,
	// which move only while their score stays crowded.
	crowded map[rankCell]int32
	// buckets are the level-8 counters of the sparse boards' buckets whose
	// level-0 counters moved, and scores the level-0 counters of the scores
	// whose cells moved, each with what building its counters takes.
	buckets, scores map[rankCell]sparseScore
	// counted holds the counts of buckets and scores after the writes, read
	// back by queue's statement and by writeSparseCells.
	counted map[rankCell]int32
}

// sparseScore is what building a sparse board's counters under a bucket or
// a score from its rows takes: the board's origin, and whether it counts
// subscores.
type sparseScore struct {
	origin    int64
	subscores bool
}

func newRankDeltas() rankDeltas {
	return rankDeltas{counts: map[rankCell]int32{}, zeros: map[rankCell]int32{}, crowded: map[rankCell]int32{},
		buckets: map[rankCell]sparseScore{}, scores: map[rankCell]sparseScore{}, counted: map[rankCell]int32{}}
}

// addCells adds delta to every counter the row with sort key (sortScore,
// sortSubscore), reached at reachedAt, is counted in.
func (l rankLevels) addCells(d rankDeltas, period int32, sortScore, sortSubscore int64, reachedAt time.Time, delta int32) {
	u := sortScore - l.origin
	sparse := l.sparse()
	for _, shift := range l.shifts {
		if sparse && shift == 0 {
			d.zeros[rankCell{period: period, level: 0, bucket: u}] += delta
			continue
		}
		d.counts[rankCell{period: period, level: int16(shift), bucket: u >> shift}] += delta
	}
	cells := d.counts
	if sparse {
		cells = d.crowded
		how := sparseScore{origin: l.origin, subscores: l.subscores}
		d.buckets[rankCell{period: period, level: bucketLevel, bucket: u >> bucketLevel}] = how
		d.scores[rankCell{period: period, level: 0, bucket: u}] = how
	}
	cells[rankCell{period: period, level: tieLevel, bucket: u, sub: tieSub(sortSubscore, reachedAt)}] += delta
	if l.subscores {
		key := subscoreKey(sortSubscore)
		for i, shift := range subscoreShifts {
			cells[rankCell{period: period, level: subscoreLevel(i), bucket: u, sub: key >> shift}] += delta
		}
	}
}

// countRow adds delta to the counters of row r of period id of b.
func (d rankDeltas) countRow(b *leaderboard.Board, id int32, r leaderboard.BoardRow, delta int32) {
	sortScore, sortSubscore := b.SortKey(r.Score, r.Subscore)
	rankLevelsOf(b).addCells(d, id, sortScore, sortSubscore, r.ReachedAt, delta)
}

// rankCellColumns are counters and their deltas as the columns of an unnest.
type rankCellColumns struct {
	periods       []int32
	levels        []int16
	buckets, subs []int64
	values        []int32
}

func (c *rankCellColumns) add(cell rankCell, delta int32) {
	c.periods, c.levels = append(c.periods, cell.period), append(c.levels, cell.level)
	c.buckets, c.subs, c.values = append(c.buckets, cell.bucket), append(c.subs, cell.sub), append(c.values, delta)
}

// addRankCountsSQL adds deltas ($5) to counters ($1..$4), in key order, so
// that concurrent writers lock counters in one order.
const addRankCountsSQL = `INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
	SELECT * FROM unnest($1::int[], $2::smallint[], $3::bigint[], $4::bigint[], $5::int[]) ORDER BY 1, 2, 3, 4
	ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = period_rank_counts.players + EXCLUDED.players`

// queueCounted queues the upsert of counts, reading back into counted the
// count after it of each counter that watch holds.
func (d rankDeltas) queueCounted(writes *pgx.Batch, counts rankCellColumns, watch map[rankCell]sparseScore) {
	writes.Queue(addRankCountsSQL+` RETURNING period_id, level, bucket, players`,
		counts.periods, counts.levels, counts.buckets, counts.subs, counts.values).Query(func(rows pgx.Rows) error {
		var c rankCell
		var players int32
		_, err := pgx.ForEachRow(rows, []any{&c.period, &c.level, &c.bucket, &players}, func() error {
			if _, ok := watch[c]; ok {
				d.counted[c] = players
			}
			return nil
		})
		return err
	})
}

// queue adds the deltas to their counters, in one statement whose ORDER BY
// makes concurrent writers lock counters in one order. The level-8 counter
// of every sparse bucket whose level-0 counters move is upserted too, even
// when its count stands, and its count read back: it stays locked until the
// commit, and every writer of the counters under a bucket holds that lock
// first, so writeSparseCells, after this batch, knows whether the bucket
// was and is crowded.
func (d rankDeltas) queue(writes *pgx.Batch) {
	var counts rankCellColumns
	for _, c := range slices.SortedFunc(maps.Keys(d.counts), compareRankCells) {
		if _, sparse := d.buckets[c]; d.counts[c] != 0 || sparse {
			counts.add(c, d.counts[c])
		}
	}
	switch {
	case len(counts.periods) == 0:
	case len(d.buckets) == 0:
		writes.Queue(addRankCountsSQL, counts.periods, counts.levels, counts.buckets, counts.subs, counts.values)
	default:
		d.queueCounted(writes, counts, d.buckets)
	}
}

// crossings sorts counters (the level-8 counters of sparse buckets, or the
// level-0 counters of sparse scores) by how the writes moved their counts
// against crowdedScore: those crowded before and after (stayed), those
// crowded now but not before (built, with what building the counters under
// them takes), and those crowded before but not now (emptied). Counters
// neither before nor after are left out.
type crossings struct {
	stayed           map[rankCell]bool
	built, emptied   rankCellColumns
	origins          []int64
	subscoresCounted []bool
}

// crossingsOf returns the crossings of the counters watched, to which the
// writes added deltas and whose counts after them are in counted, leaving
// out those that keep does not hold.
func (d rankDeltas) crossingsOf(watched map[rankCell]sparseScore, deltas map[rankCell]int32,
	keep func(rankCell) bool) (crossings, error) {
	x := crossings{stayed: map[rankCell]bool{}}
	for _, c := range slices.SortedFunc(maps.Keys(watched), compareRankCells) {
		if !keep(c) {
			continue
		}
		now, ok := d.counted[c]
		if !ok {
			return crossings{}, errorf("the level-%d counter %d of period %d was not read back", c.level, c.bucket, c.period)
		}
		was, bound := now-deltas[c], int32(crowdedScore)
		switch {
		case was > bound && now > bound:
			x.stayed[c] = true
		case now > bound:
			x.built.add(c, 0)
			x.origins = append(x.origins, watched[c].origin)
			x.subscoresCounted = append(x.subscoresCounted, watched[c].subscores)
		case was > bound:
			x.emptied.add(c, 0)
		}
	}
	return x, nil
}

// writeSparseCells moves the counters under the sparse boards' buckets and
// scores, once the batch of queue was sent, in two rounds. First the
// level-0 counters, by what each bucket's count was and now is:
//   - a bucket crowded before and after adds its deltas to its level-0
//     counters, reading back those of the scores whose cells moved;
//   - a bucket crowded now but not before has its level-0 counters, and the
//     cells of its crowded scores, built from its rows;
//   - a bucket crowded before but not now loses its level-0 counters and
//     its scores' cells;
//   - any other bucket keeps none.
//
// Then, under the buckets that stayed crowded, the cells, by what each
// score's count was and now is, in the same way.
//
// Each statement touches the counters of different buckets or scores. The
// decisions are made here, from the counts the upserts returned, not in a
// statement that joins the counters: planned while the tables' statistics
// were still those of empty tables, such a statement read the whole counter
// table and board_scores at every write (3.6 ms a write instead of 0.6 in
// BenchmarkSubmit_TieBreakBoard). A crossing of the bound is rare; only it
// reads rows or deletes counters.
func (d rankDeltas) writeSparseCells(ctx context.Context, tx pgx.Tx) error {
	if len(d.buckets) == 0 {
		return nil
	}
	buckets, err := d.writeLevelZero(ctx, tx)
	if err != nil {
		return err
	}
	scores, err := d.crossingsOf(d.scores, d.zeros, func(c rankCell) bool { return buckets.stayed[bucketOf(c)] })
	if err != nil {
		return err
	}
	var moved rankCellColumns
	for _, cell := range slices.SortedFunc(maps.Keys(d.crowded), compareRankCells) {
		if scores.stayed[rankCell{period: cell.period, bucket: cell.bucket}] && d.crowded[cell] != 0 {
			moved.add(cell, d.crowded[cell])
		}
	}
	built, emptied := scores.built, scores.emptied
	writes := &pgx.Batch{}
	if len(moved.periods) > 0 {
		writes.Queue(addRankCountsSQL, moved.periods, moved.levels, moved.buckets, moved.subs, moved.values)
	}
	if len(emptied.periods) > 0 {
		writes.Queue(`DELETE FROM period_rank_counts c
		USING unnest($1::int[], $2::bigint[]) AS t(period_id, bucket), unnest($3::smallint[]) AS l(level)
		WHERE c.period_id = t.period_id AND c.level = l.level AND c.bucket = t.bucket`, emptied.periods, emptied.buckets, cellLevels)
	}
	if len(built.periods) > 0 {
		writes.Queue(`INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT t.period_id, x.level, t.bucket, x.sub, count(*)
		FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::bool[]) AS t(period_id, bucket, origin, subscores)
		JOIN board_scores r ON r.period_id = t.period_id AND r.sort_score = t.bucket + t.origin
		CROSS JOIN LATERAL (`+crowdCellsSQL("r", "t.subscores")+`) AS x(level, sub)
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`, built.periods, built.buckets, scores.origins, scores.subscoresCounted)
	}
	if writes.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, writes).Close()
}

// writeLevelZero moves the level-0 counters of the sparse boards' buckets
// (writeSparseCells' first round) and returns the buckets' crossings: under
// those that stayed crowded the cells move as their scores' counts say.
func (d rankDeltas) writeLevelZero(ctx context.Context, tx pgx.Tx) (crossings, error) {
	buckets, err := d.crossingsOf(d.buckets, d.counts, func(rankCell) bool { return true })
	if err != nil {
		return crossings{}, err
	}
	var moved rankCellColumns
	for _, c := range slices.SortedFunc(maps.Keys(d.zeros), compareRankCells) {
		if buckets.stayed[bucketOf(c)] {
			moved.add(c, d.zeros[c])
		}
	}
	built, emptied := buckets.built, buckets.emptied
	writes := &pgx.Batch{}
	if len(moved.periods) > 0 {
		d.queueCounted(writes, moved, d.scores)
	}
	if len(emptied.periods) > 0 {
		writes.Queue(`DELETE FROM period_rank_counts c
		USING unnest($1::int[], $2::bigint[]) AS t(period_id, bucket), unnest($3::smallint[]) AS l(level)
		WHERE c.period_id = t.period_id AND c.level = l.level
			AND c.bucket >= t.bucket << `+bucketShift+` AND c.bucket < (t.bucket + 1) << `+bucketShift,
			emptied.periods, emptied.buckets, append([]int16{0}, cellLevels...))
	}
	if len(built.periods) > 0 {
		builtBuckets := `unnest($1::int[], $2::bigint[], $3::bigint[], $4::bool[]) AS t(period_id, bucket, origin, subscores)`
		writes.Queue(`INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT t.period_id, 0::smallint, r.sort_score - t.origin, 0::bigint, count(*)
		FROM `+builtBuckets+`
		JOIN board_scores r ON r.period_id = t.period_id
			AND r.sort_score >= (t.bucket << `+bucketShift+`) + t.origin AND r.sort_score < ((t.bucket + 1) << `+bucketShift+`) + t.origin
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = EXCLUDED.players`,
			built.periods, built.buckets, buckets.origins, buckets.subscoresCounted)
		writes.Queue(`INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT t.period_id, x.level, z.bucket, x.sub, count(*)
		FROM `+builtBuckets+`
		JOIN period_rank_counts z ON z.period_id = t.period_id AND z.level = 0
			AND z.bucket >= t.bucket << `+bucketShift+` AND z.bucket < (t.bucket + 1) << `+bucketShift+`
			AND z.sub = 0 AND z.players > `+strconv.Itoa(crowdedScore)+`
		JOIN board_scores r ON r.period_id = t.period_id AND r.sort_score = z.bucket + t.origin
		CROSS JOIN LATERAL (`+crowdCellsSQL("r", "t.subscores")+`) AS x(level, sub)
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = EXCLUDED.players`,
			built.periods, built.buckets, buckets.origins, buckets.subscoresCounted)
	}
	if writes.Len() == 0 {
		return buckets, nil
	}
	return buckets, tx.SendBatch(ctx, writes).Close()
}

// bucketShift is bucketLevel in SQL.
var bucketShift = strconv.Itoa(bucketLevel)

// bucketOf returns the level-8 counter of the bucket a level-0 counter lies in.
func bucketOf(c rankCell) rankCell {
	return rankCell{period: c.period, level: bucketLevel, bucket: c.bucket >> bucketLevel}
}

// crowdCellsSQL returns the rows (level, sub) of the tie cell and, where
// the SQL condition subscores holds, the subscore levels that row r of
// board_scores is counted in.
func crowdCellsSQL(r, subscores string) string {
	var q strings.Builder
	q.WriteString(`SELECT -1::smallint, ` + tieSubSQL(r+".sort_subscore", "floor(extract(EPOCH FROM "+r+".reached_at) / 3600)"))
	for i, shift := range subscoreShifts {
		fmt.Fprintf(&q, `
		UNION ALL SELECT %d::smallint, %s >> %d WHERE %s`, subscoreLevel(i), subscoreKeySQL(r+".sort_subscore"), shift, subscores)
	}
	return q.String()
}

func compareRankCells(a, b rankCell) int {
	return cmp.Or(cmp.Compare(a.period, b.period), cmp.Compare(a.level, b.level), cmp.Compare(a.bucket, b.bucket),
		cmp.Compare(a.sub, b.sub))
}

// FillRankCounts adds the rows of the given periods to their counters, in
// three passes, with each period's board's levels (rankLevelsOf, worked out
// here from the boards table): first the score levels (but a sparse board's
// level 0), then the level-0 counters of a sparse board's crowded buckets,
// then the tie cells and subscore levels of every score that keeps them
// (every score of a board that is not sparse, the crowded ones of a sparse
// board). The rows must not be counted yet (their counters are absent, or
// zero once every row was removed). For a seed, which writes rows by COPY.
func FillRankCounts(ctx context.Context, tx pgx.Tx, periods []int32) error {
	levels := `INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT s.period_id, l.shift::smallint, (s.sort_score - o.origin) >> l.shift, 0::bigint, count(*)
		FROM board_scores s
		JOIN periods p ON p.id = s.period_id
		JOIN boards b ON b.id = p.board_id
		CROSS JOIN LATERAL (SELECT ` + originSQL + `) AS o(origin)
		CROSS JOIN unnest($2::int[]) AS l(shift)
		WHERE s.period_id = ANY($1)
			AND (l.shift = 0 AND NOT ` + sparseSQL + ` OR l.shift > 0 AND (b.max_score::bigint - b.min_score) >> l.shift > 0)
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = period_rank_counts.players + EXCLUDED.players`
	zeros := `INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT y.period_id, 0::smallint, s.sort_score - y.origin, 0::bigint, count(*)
		FROM (
			SELECT y.period_id, y.bucket, o.origin
			FROM period_rank_counts y
			JOIN periods p ON p.id = y.period_id
			JOIN boards b ON b.id = p.board_id
			CROSS JOIN LATERAL (SELECT ` + originSQL + `) AS o(origin)
			WHERE y.period_id = ANY($1) AND y.level = ` + bucketShift + ` AND y.sub = 0
				AND y.players > ` + strconv.Itoa(crowdedScore) + ` AND ` + sparseSQL + `
		) AS y
		JOIN board_scores s ON s.period_id = y.period_id
			AND s.sort_score >= (y.bucket << ` + bucketShift + `) + y.origin AND s.sort_score < ((y.bucket + 1) << ` + bucketShift + `) + y.origin
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = period_rank_counts.players + EXCLUDED.players`
	cells := `INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
		SELECT z.period_id, x.level, z.bucket, x.sub, count(*)
		FROM (
			SELECT z.period_id, z.bucket, o.origin, b.tiebreak <> 'NONE' AS subscores
			FROM period_rank_counts z
			JOIN periods p ON p.id = z.period_id
			JOIN boards b ON b.id = p.board_id
			CROSS JOIN LATERAL (SELECT ` + originSQL + `) AS o(origin)
			WHERE z.period_id = ANY($1) AND z.level = 0 AND z.sub = 0
				AND (z.players > ` + strconv.Itoa(crowdedScore) + ` OR NOT ` + sparseSQL + `)
		) AS z
		JOIN board_scores r ON r.period_id = z.period_id AND r.sort_score = z.bucket + z.origin
		CROSS JOIN LATERAL (` + crowdCellsSQL("r", "z.subscores") + `) AS x(level, sub)
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = period_rank_counts.players + EXCLUDED.players`
	if _, err := tx.Exec(ctx, levels, periods, levelShifts); err != nil {
		return errorf("fill rank counts: %w", err)
	}
	if _, err := tx.Exec(ctx, zeros, periods); err != nil {
		return errorf("fill rank counts: %w", err)
	}
	if _, err := tx.Exec(ctx, cells, periods); err != nil {
		return errorf("fill rank counts: %w", err)
	}
	return nil
}

// originSQL is the SQL of rankLevelsOf(b).origin for the board in row b of
// boards.
const originSQL = `CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END`

// periodRankSQL returns the SQL expression of the live rank of the row {t}
// (a row of board_scores with the extra columns hour and hour_start, see
// hourColumnsSQL) among its period's rows, counted with the counters of the
// levels of a board's rankLevels of shape (the top first), whose origin is
// the SQL expression origin (bigint). The levels are written out, a sum each,
// not unnested from an int[] parameter: a generic plan cannot know how long
// the array is, and costed ten levels (see boardStandingSQL). The scan
// inside the row's tie cell is written with equalities on the index's
// leading columns: as one row-value range, the planner chose the primary
// key and filtered the whole period (1.9 s at a million players instead of
// 0.2 ms). The key need not be a row of the period. On a sparse board the
// players before the key in its own level-8 bucket come from the level-0
// counters only when the bucket is crowded, and from bucketScanSQL
// otherwise, as its level-8 counter decides in the same snapshot; then
// those at its own score come from the cells only when the score is
// crowded, and from scoreScanSQL otherwise, as its level-0 counter decides.
// The choices are right on any board (everyShape reads boards of every
// range): a board that is not sparse keeps every level-0 counter and the
// cells of every score, and one without level-8 counters reads its level 0.
func periodRankSQL(t, origin string, shape rankShape) string {
	if shape.levels < sparseLevels {
		return "(1" + scoreLevelsSQL(t, origin, shiftsOf(shape.levels)) + tiesSQL(t, origin, shape) + ")"
	}
	return sparseRankSQL(t, origin, shape, `
	+ (SELECT CASE WHEN z.players > `+strconv.Itoa(crowdedScore)+` THEN (0`+tiesSQL(t, origin, shape)+`)
		ELSE `+scoreScanSQL(t)+` END FROM (`+levelZeroSQL(t, origin)+`) AS z)`, "")
}

// periodRowRankSQL is periodRankSQL of a key that is a row of its period.
// On a sparse board most scores are held by one player, so the players
// before the row at its own score are not counted when the row's level-0
// counter holds no other player, nor those before it in its level-8 bucket
// when the bucket's counter holds no other. The row itself is in those
// counters, which is why the key must be a row.
func periodRowRankSQL(t, origin string, shape rankShape) string {
	if shape.levels < sparseLevels {
		return periodRankSQL(t, origin, shape)
	}
	return sparseRankSQL(t, origin, shape, `
	+ (SELECT CASE WHEN z.players > `+strconv.Itoa(crowdedScore)+` THEN (0`+tiesSQL(t, origin, shape)+`)
		WHEN z.players > 1 THEN `+scoreScanSQL(t)+` ELSE 0 END FROM (`+levelZeroSQL(t, origin)+`) AS z)`, `
		WHEN y.players = 1 THEN 0`)
}

// sparseRankSQL returns periodRankSQL of a sparse shape: the score levels
// above level 0, then, in a crowded bucket, its level 0 and the term atScore
// (the players before {t} at its own score, after a "+"), and in an
// uncrowded one the scan of its rows, unless alone (a "WHEN" clause that
// answers first on the bucket's counter y).
func sparseRankSQL(t, origin string, shape rankShape, atScore, alone string) string {
	shifts := shiftsOf(shape.levels)
	return "(1" + scoreLevelsSQL(t, origin, shifts[:len(shifts)-1]) + `
	+ (SELECT CASE` + alone + `
		WHEN y.players <= ` + strconv.Itoa(crowdedScore) + ` THEN ` + bucketScanSQL(t, origin) + `
		ELSE (0` + levelSumSQL(t, origin, 0, false) + atScore + `) END
	FROM (SELECT sum(players) AS players FROM period_rank_counts
		WHERE period_id = ` + t + `.period_id AND level = ` + bucketShift + ` AND bucket = (` + t + `.sort_score - ` + origin + `) >> ` + bucketShift + `) AS y))`
}

// levelZeroSQL returns the query of the players at row {t}'s score, as
// its level-0 counter holds them, in a column players.
func levelZeroSQL(t, origin string) string {
	return `SELECT COALESCE(sum(players), 0) AS players FROM period_rank_counts
		WHERE period_id = ` + t + `.period_id AND level = 0 AND bucket = (` + t + `.sort_score - ` + origin + `)`
}

// scoreScanSQL returns the SQL expression of the players before row {t}
// at its own score, counted by a range scan of board_scores_rank_idx: for
// a sparse board's score that is not crowded (at most crowdedScore rows).
func scoreScanSQL(t string) string {
	return `(SELECT count(*) FROM board_scores s
		WHERE s.period_id = ` + t + `.period_id AND s.sort_score = ` + t + `.sort_score
			AND (s.sort_subscore, s.reached_at, s.seq) < (` + t + `.sort_subscore, ` + t + `.reached_at, ` + t + `.seq))`
}

// bucketScanSQL returns the SQL expression of the players before row {t}
// in its level-8 bucket, counted by a range scan of board_scores_rank_idx:
// for a sparse board's bucket that is not crowded (at most crowdedScore
// rows). The scan is bounded by sort scores from the bucket's first to
// {t}'s, in which the row value then keeps the rows before {t}.
func bucketScanSQL(t, origin string) string {
	return `(SELECT count(*) FROM board_scores s
		WHERE s.period_id = ` + t + `.period_id
			AND s.sort_score >= ((` + t + `.sort_score - ` + origin + `) >> ` + bucketShift + ` << ` + bucketShift + `) + ` + origin + `
			AND s.sort_score <= ` + t + `.sort_score
			AND (s.sort_score, s.sort_subscore, s.reached_at, s.seq) < (` + t + `.sort_score, ` + t + `.sort_subscore, ` + t + `.reached_at, ` + t + `.seq))`
}

// scoreLevelsSQL returns the terms of periodRankSQL that count the players
// with a better score than row {t}'s at the given levels of shifts (a
// board's shifts, the top first, or the first of them), each after a "+".
func scoreLevelsSQL(t, origin string, shifts []int32) string {
	var levels strings.Builder
	for i, shift := range shifts {
		levels.WriteString(levelSumSQL(t, origin, shift, i == 0))
	}
	return levels.String()
}

// levelSumSQL returns the term, after a "+", that counts the players in the
// buckets of the level shift before row {t}'s: under the same parent bucket,
// or all of them on the board's top level.
func levelSumSQL(t, origin string, shift int32, top bool) string {
	u := "(" + t + ".sort_score - " + origin + ")"
	from := "0"
	if !top {
		from = fmt.Sprintf("(%s >> %d) << 8", u, shift+8)
	}
	return fmt.Sprintf(`
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = %s.period_id AND level = %d AND bucket >= %s AND bucket < %s >> %d)`, t, shift, from, u, shift)
}

// tiesSQL returns the terms of periodRankSQL that count the players before
// row {t} at its own score, each after a "+": in earlier subscores, in
// earlier tie cells, and before it in its own tie cell.
func tiesSQL(t, origin string, shape rankShape) string {
	u := "(" + t + ".sort_score - " + origin + ")"
	var levels strings.Builder
	key := subscoreKeySQL(t + ".sort_subscore")
	firstTie := "" // without subscore levels: every earlier tie cell of the score
	if shape.subscores {
		for i, shift := range subscoreShifts {
			from := "" // the top level: every bucket before the row's
			if i > 0 {
				from = fmt.Sprintf("sub >= (%s >> %d) << 8 AND ", key, shift+8)
			}
			fmt.Fprintf(&levels, `
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = %s.period_id AND level = %d AND bucket = %s AND %ssub < %s >> %d)`,
				t, subscoreLevel(i), u, from, key, shift)
		}
		firstTie = "sub >= " + key + " << 27 AND " // the row's own subscore's cells only
	}
	return strings.NewReplacer("{t}", t, "{u}", u, "{levels}", levels.String(), "{firstTie}", firstTie,
		"{sub}", tieSubSQL(t+".sort_subscore", t+".hour")).Replace(`{levels}
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = {t}.period_id AND level = -1 AND bucket = {u} AND {firstTie}sub < {sub})
	+ (SELECT count(*) FROM board_scores s
		WHERE s.period_id = {t}.period_id AND s.sort_score = {t}.sort_score AND s.sort_subscore = {t}.sort_subscore
			AND s.reached_at >= {t}.hour_start AND (s.reached_at, s.seq) < ({t}.reached_at, {t}.seq))`)
}

// periodTotalSQL is the SQL expression of the rows of the period of row p
// (its column id), summed from the top level of its counters (at most 256
// of them; the ORDER BY and LIMIT keep the planner on the primary key: it
// cannot know the level's few rows beforehand, and a period's tie cells are
// many, so it chose to scan the whole table).
const periodTotalSQL = `(SELECT COALESCE(sum(players), 0) FROM (SELECT players FROM period_rank_counts
	WHERE period_id = p.id AND level = (SELECT max(level) FROM period_rank_counts WHERE period_id = p.id)
	ORDER BY period_id, level, bucket LIMIT 256) AS top)`

// periodTotalOfShapeSQL is periodTotalSQL for a board of shape, whose top
// level is known: written in the statement, it spares a read the lookup of
// the period's highest level (a backward scan of the counters' index) and
// lets the sum be one range of the primary key.
func periodTotalOfShapeSQL(shape rankShape) string {
	return fmt.Sprintf(`(SELECT COALESCE(sum(players), 0) FROM (SELECT players FROM period_rank_counts
	WHERE period_id = p.id AND level = %d ORDER BY period_id, level, bucket LIMIT 256) AS top)`, shiftsOf(shape.levels)[0])
}

// hourColumnsSQL adds the columns hour, as the tie cells count it, and
// hour_start, the first instant of that hour, of reached_at.
const hourColumnsSQL = `floor(extract(EPOCH FROM reached_at) / 3600)::int AS hour,
	to_timestamp(floor(extract(EPOCH FROM reached_at) / 3600) * 3600) AS hour_start`

// hourOf returns the hours since the Unix epoch at t, rounded down (also
// before 1970), as hourColumnsSQL computes them.
func hourOf(t time.Time) int32 {
	secs := t.Unix()
	hour := secs / 3600
	if secs%3600 < 0 {
		hour--
	}
	return int32(hour)
}
