package db

import (
	"cmp"
	"context"
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Standings and tables of every board, main included, read from
// board_scores. Every order ranks ascending in its sort key (see
// Board.SortKey), so a rank is a count of the period's rows before a key and
// a window or a page is a row-value range scan of board_scores_rank_idx.

// boardKey is a row's place in its period's order.
type boardKey struct {
	sortScore, sortSubscore int64
	reachedAt               time.Time
	seq                     int64
}

func (k boardKey) compare(o boardKey) int {
	return cmp.Or(cmp.Compare(k.sortScore, o.sortScore), cmp.Compare(k.sortSubscore, o.sortSubscore),
		k.reachedAt.Compare(o.reachedAt), cmp.Compare(k.seq, o.seq))
}

// boardEntryColumns are the columns scanBoardEntry reads from board_scores
// t, with the player's name.
const boardEntryColumns = `t.player_id, (SELECT name FROM players WHERE id = t.player_id), t.score, t.subscore,
	t.reached_at, t.metadata, t.sort_score, t.sort_subscore, t.seq`

// entryColumns returns boardEntryColumns, or the same columns with NULL in
// place of the metadata when the read's caller does not answer it
// (leaderboard.WithoutMetadata): up to 1 KB a row, not read for nothing.
func entryColumns(withMetadata bool) string {
	if withMetadata {
		return boardEntryColumns
	}
	return strings.Replace(boardEntryColumns, "t.metadata", "NULL::jsonb", 1)
}

// indexColumns are the columns of board_scores_rank_idx, key and included
// player: a read of these alone is an index-only scan, where a read of any other fetches each row from the heap.
const indexColumns = `s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq, s.player_id`

// neighbourColumns are boardEntryColumns of a row read with indexColumns:
// its score and subscore are NULL, for the reader to take from its sort key
// (Board.ScoreOfSortKey), and its metadata too.
var neighbourColumns = strings.NewReplacer("t.score", "NULL::int", "t.subscore", "NULL::int", "t.metadata", "NULL::jsonb").
	Replace(boardEntryColumns)

// boardEntry is a row of a period's table with its key.
type boardEntry struct {
	entry leaderboard.RankEntry
	key   boardKey
}

func scanBoardEntry(row pgx.CollectableRow) (boardEntry, error) {
	var (
		r        boardEntry
		metadata []byte
	)
	err := row.Scan(&r.entry.Player.ID, &r.entry.Player.Name, &r.entry.Score, &r.entry.Subscore,
		&r.entry.ReachedAt, &metadata, &r.key.sortScore, &r.key.sortSubscore, &r.key.seq)
	r.key.reachedAt = r.entry.ReachedAt
	if metadata != nil {
		r.entry.Metadata = metadata
	}
	return r, err
}

// boardStatement names one of the statements of boardStandingSQL: with
// or without the rows' metadata (leaderboard.WithoutMetadata), for a board
// of a rankShape, with
// room for above and below neighbours, each one of neighbourLimits.
type boardStatement struct {
	withMetadata bool
	// fromIndex reads the neighbours from board_scores_rank_idx alone,
	// without their score, subscore and metadata (see neighbourColumns).
	fromIndex    bool
	shape        rankShape
	above, below int
}

// boardStandingSQL holds, for every boardStatement, the statement that
// reads in one statement, and so from one snapshot, the row of player $3 in
// period $2 of board $1 (kind 0) with its rank, counted with the counters
// of the board's rankLevels whose origin is $4, the period's rows and its
// start, then up to the statement's above rows just above it (kind -1) and
// below just below (kind 1).
//
// Its limits and levels are written in the statement, not passed, so that
// PostgreSQL keeps its generic plan:
// with LIMIT $n and the levels unnested from an int[] parameter, the
// generic plan was costed for a tenth of the period and ten levels, four
// times a custom plan, so every read was planned afresh: 0.6 to 1.1 ms of
// planning beside 0.3 to 0.7 ms of execution at a million players. Written
// out, the generic plan is the custom plan and is kept from the sixth read
// on a connection (docs/design.md, "Live ranks of a period", also for why
// not a function that forces a generic plan).
var boardStandingSQL = func() map[boardStatement]string {
	qs := map[boardStatement]string{}
	for _, rows := range []boardStatement{{withMetadata: true}, {}, {fromIndex: true}} {
		for _, shape := range rankShapes() {
			for _, above := range neighbourLimits {
				for _, below := range neighbourLimits {
					k := boardStatement{withMetadata: rows.withMetadata, fromIndex: rows.fromIndex, shape: shape, above: above, below: below}
					qs[k] = boardStandingSQLOf(k)
				}
			}
		}
	}
	return qs
}()

// boardStandingSQLOf returns the statement k of boardStandingSQL.
func boardStandingSQLOf(k boardStatement) string {
	columns, row, neighbours := entryColumns(k.withMetadata), "s.*", entryColumns(k.withMetadata)
	if k.fromIndex {
		row, neighbours = indexColumns, neighbourColumns
	}
	return `WITH p AS (
	SELECT id, starts_at, status FROM periods WHERE board_id = $1 AND key = $2
), me AS (
	SELECT s.*, ` + hourColumnsSQL + ` FROM p JOIN board_scores s ON s.period_id = p.id AND s.player_id = $3
)
SELECT 0, ` + strings.ReplaceAll(columns, "t.", "me.") + `,
	` + periodRowRankSQL("me", "$4", k.shape) + `,
	(SELECT ` + periodTotalOfShapeSQL(k.shape) + ` FROM p),
	(SELECT starts_at FROM p), (SELECT status FROM p)
FROM me
UNION ALL
SELECT -1, ` + neighbours + `, NULL, NULL, NULL, NULL FROM me CROSS JOIN LATERAL (
	SELECT ` + row + ` FROM board_scores s WHERE s.period_id >= me.period_id
		AND (s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq)
			< (me.period_id, me.sort_score, me.sort_subscore, me.reached_at, me.seq)
	ORDER BY s.period_id DESC, s.sort_score DESC, s.sort_subscore DESC, s.reached_at DESC, s.seq DESC
	LIMIT ` + strconv.Itoa(k.above) + `) AS t
UNION ALL
SELECT 1, ` + neighbours + `, NULL, NULL, NULL, NULL FROM me CROSS JOIN LATERAL (
	SELECT ` + row + ` FROM board_scores s WHERE s.period_id <= me.period_id
		AND (s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq)
			> (me.period_id, me.sort_score, me.sort_subscore, me.reached_at, me.seq)
	ORDER BY s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq LIMIT ` + strconv.Itoa(k.below) + `) AS t`
}

// boardStanding returns playerID's standing in period key of b with up to
// above and below neighbours (each at most leaderboard.MaxNeighbours), read
// from one snapshot, or nil when the period or the player's row in it does
// not exist. Its Month is the month the period starts in, in b's time zone.
// Once the period is CLOSED its rows no longer change: they are its final
// standings (Final, with the board's tier).
//
// One statement, not a transaction, gives the one snapshot, without a
// transaction's round trips: a small board's standing is read thousands of
// times a second.
func (db *DB) boardStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	above = min(max(above, 0), leaderboard.MaxNeighbours)
	below = min(max(below, 0), leaderboard.MaxNeighbours)
	ref := periodRef{board: b.ID, key: key}
	leave, err := db.closing.enter(ctx, ref)
	if err != nil {
		return nil, errorf("read standing of %q in period %s of %s: %w", playerID, key, b.ID, err)
	}
	defer leave()
	var s *leaderboard.Standing
	err = db.cohortSnapshot(ctx, b, func(q rowQuerier) error {
		var err error
		var status leaderboard.PeriodStatus
		if s, status, err = db.queryBoardStanding(ctx, q, b, key, playerID, above, below); err == nil {
			if status != "" {
				db.closing.saw(ref, status)
			}
			err = tierInCohorts(ctx, q, b, key, s)
		}
		return err
	})
	if err != nil {
		return nil, errorf("read standing of %q in period %s of %s: %w", playerID, key, b.ID, err)
	}
	return s, nil
}

// queryBoardStanding reads boardStanding's answer and the status of the
// period ("" when the player has no row there).
func (db *DB) queryBoardStanding(ctx context.Context, q rowQuerier, b *leaderboard.Board, key, playerID string, above,
	below int) (*leaderboard.Standing, leaderboard.PeriodStatus, error) {
	l := rankLevelsOf(b)
	withMetadata := leaderboard.MetadataWanted(ctx)
	sql := boardStandingSQL[boardStatement{withMetadata: withMetadata, fromIndex: !withMetadata &&
		(b.TieBreak != leaderboard.TieBreakNone || !leaderboard.NeighbourSubscoresWanted(ctx)),
		shape: l.shape(), above: limitFor(neighbourLimits, above), below: limitFor(neighbourLimits, below)}]
	rows, err := q.Query(ctx, sql, b.ID, key, playerID, l.origin)
	if err != nil {
		return nil, "", err
	}
	var (
		s                    *leaderboard.Standing
		status               leaderboard.PeriodStatus
		aboveRows, belowRows []boardEntry
	)
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var (
			kind        int
			r           boardEntry
			score       *int
			metadata    []byte
			rank, total *int64
			startsAt    *time.Time
			stored      *string
		)
		err := row.Scan(&kind, &r.entry.Player.ID, &r.entry.Player.Name, &score, &r.entry.Subscore,
			&r.entry.ReachedAt, &metadata, &r.key.sortScore, &r.key.sortSubscore, &r.key.seq, &rank, &total, &startsAt, &stored)
		if err != nil {
			return struct{}{}, err
		}
		if score != nil {
			r.entry.Score = *score
		} else { // a neighbour read from the index alone
			r.entry.Score, r.entry.Subscore = b.ScoreOfSortKey(r.key.sortScore, r.key.sortSubscore)
		}
		r.key.reachedAt = r.entry.ReachedAt
		if metadata != nil {
			r.entry.Metadata = metadata
		}
		switch kind {
		case 0:
			r.entry.Rank = int(*rank)
			status = leaderboard.PeriodStatus(*stored)
			s = &leaderboard.Standing{RankEntry: r.entry, Board: b.ID, Period: key, Total: int(*total),
				Month: b.MonthOfPeriod(key, *startsAt), Final: status == leaderboard.PeriodClosed}
			if s.Final {
				s.Tier = b.TierOf(s.Rank, s.Total)
			}
		case -1:
			aboveRows = append(aboveRows, r)
		default:
			belowRows = append(belowRows, r)
		}
		return struct{}{}, nil
	})
	if err != nil || s == nil {
		return nil, "", err
	}
	// The statement's branches come back in any order: sort each side, and
	// keep its nearest rows (its limit is a step of neighbourLimits).
	byKey := func(x, y boardEntry) int { return x.key.compare(y.key) }
	slices.SortFunc(aboveRows, byKey)
	slices.SortFunc(belowRows, byKey)
	aboveRows = aboveRows[max(len(aboveRows)-above, 0):]
	belowRows = belowRows[:min(len(belowRows), below)]
	s.Above = make([]leaderboard.RankEntry, len(aboveRows))
	for i, r := range aboveRows {
		s.Above[i] = r.entry
		s.Above[i].Rank = s.Rank - len(aboveRows) + i
	}
	s.Below = make([]leaderboard.RankEntry, len(belowRows))
	for i, r := range belowRows {
		s.Below[i] = r.entry
		s.Below[i].Rank = s.Rank + 1 + i
	}
	return s, status, nil
}

// boardLeaderboard returns up to first entries of period key of b after the
// cursor (from the top when after is ""), in b's order, with exact ranks and
// the period's total, all from one snapshot. An empty page for a period
// without a row; EBADINPUT for a malformed cursor or one of another period.
func (db *DB) boardLeaderboard(ctx context.Context, b *leaderboard.Board, key string, first int, after string) (*leaderboard.Page, error) {
	cur, err := decodeBoardCursor(after)
	if err != nil {
		return nil, err
	}
	first = max(first, 0)
	page := &leaderboard.Page{}
	ref := periodRef{board: b.ID, key: key}
	leave, err := db.closing.enter(ctx, ref)
	if err != nil {
		return nil, errorf("read leaderboard of period %s of %s: %w", key, b.ID, err)
	}
	defer leave()
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		const period = `SELECT id, status FROM periods WHERE board_id = $1 AND key = $2`
		var (
			periodID int32
			status   leaderboard.PeriodStatus
		)
		err := tx.QueryRow(ctx, period, b.ID, key).Scan(&periodID, &status)
		if err == nil {
			db.closing.saw(ref, status)
		}
		switch {
		case noRows(err) && cur == nil:
			return nil
		case noRows(err) || (err == nil && cur != nil && cur.periodID != periodID):
			return leaderboard.Errorf(leaderboard.EBADINPUT,
				"cursor %q is not a cursor of period %s of board %s", after, key, b.ID)
		case err != nil:
			return err
		}
		page.Edges, page.HasNextPage, page.Total, err = boardPage(ctx, tx, rankLevelsOf(b), periodID, first, cur)
		return err
	})
	if err != nil {
		return nil, errorf("read leaderboard of period %s of %s: %w", key, b.ID, err)
	}
	return page, nil
}

// boardPageSQLOf returns a page's first read (top) and its read after a
// cursor (next), with or without the rows' metadata, of up to limit rows: a
// step of pageLimits, written in the statement so that PostgreSQL keeps its
// generic plan (see boardStandingSQL), as it does next's because the key
// comes through a materialized CTE (see rowsUpToSQL). A read after a key
// bounds the period from above with <= (so does boardStandingSQL, from the
// side it scans towards), not =: with an equality beside the row-value
// comparison, PostgreSQL starts the scan at the period's first row and
// filters up to the key (830 ms at rank 500,000 of a million), instead of
// starting at the key.
func boardPageSQLOf(withMetadata bool, limit int) (top, next string) {
	columns := entryColumns(withMetadata)
	top = `SELECT ` + columns + ` FROM board_scores t WHERE t.period_id = $1
		ORDER BY t.period_id, t.sort_score, t.sort_subscore, t.reached_at, t.seq LIMIT ` + strconv.Itoa(limit)
	next = `WITH k AS MATERIALIZED (` + pageKeySQL + `)
	SELECT ` + columns + ` FROM k CROSS JOIN LATERAL (
		SELECT s.* FROM board_scores s WHERE s.period_id <= k.period_id
			AND (s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq)
				> (k.period_id, k.sort_score, k.sort_subscore, k.reached_at, k.seq)
		ORDER BY s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq LIMIT ` + strconv.Itoa(limit) + `) AS t`
	return top, next
}

// pageKeySQL is the row of the key in period $1 after which a page reads:
// $2 sort score, $3 sort subscore, $4 reached_at, $5 seq.
const pageKeySQL = `SELECT $1::int AS period_id, $2::bigint AS sort_score, $3::bigint AS sort_subscore,
	$4::timestamptz AS reached_at, $5::bigint AS seq`

// boardPage reads the page of period periodID after the cursor by keyset,
// with the period's total and, after a cursor, the rank of the page's first
// row counted afresh: rows move while the period is open, so the rank the
// cursor carries may be stale.
func boardPage(ctx context.Context, tx pgx.Tx, l rankLevels, periodID int32, first int, after *boardCursor) ([]leaderboard.Edge, bool, int, error) {
	top, next := boardPageSQLOf(leaderboard.MetadataWanted(ctx), limitFor(pageLimits, first+1))
	var (
		entries []boardEntry
		count   int
		before  int
	)
	reads := &pgx.Batch{}
	reads.Queue(periodTotalQuery, periodID).QueryRow(func(row pgx.Row) error { return row.Scan(&count) })
	collect := func(rows pgx.Rows) error {
		var err error
		entries, err = pgx.CollectRows(rows, scanBoardEntry)
		return err
	}
	if after == nil {
		reads.Queue(top, periodID).Query(collect)
	} else {
		k := after.key
		reads.Queue(next, periodID, k.sortScore, k.sortSubscore, k.reachedAt, k.seq).Query(collect)
		reads.Queue(rowsUpToSQL[l.shape()], periodID, k.sortScore, k.sortSubscore, k.reachedAt, k.seq,
			l.origin).QueryRow(func(row pgx.Row) error {
			return row.Scan(&before)
		})
	}
	if err := tx.SendBatch(ctx, reads).Close(); err != nil {
		return nil, false, 0, err
	}
	hasNext := len(entries) > first
	entries = entries[:min(first, len(entries))]
	edges := make([]leaderboard.Edge, len(entries))
	for i, r := range entries {
		r.entry.Rank = before + 1 + i
		edges[i] = leaderboard.Edge{Cursor: boardCursor{periodID: periodID, rank: r.entry.Rank, key: r.key}.encode(), Entry: r.entry}
	}
	return edges, hasNext, count, nil
}

// periodTotalQuery reads the rows of period $1 from its counters. The
// period comes through a materialized CTE, as in rowsUpToSQL.
const periodTotalQuery = `WITH p AS MATERIALIZED (SELECT $1::int AS id) SELECT ` + periodTotalSQL + ` FROM p`

// rowsUpToSQL holds, by the rankShape of a board's counters, the statement that counts the rows of period
// $1 up to the key of pageKeySQL, that key included, with the counters of
// the board's rankLevels whose origin is $6: the rank of the key just after
// it (seq + 1: sequence numbers are whole) less one. The key need not be a
// row. It comes through a materialized CTE, which a plan cannot see into:
// given as parameters, a custom plan knew the counter buckets it reads and
// was costed below the generic plan, which PostgreSQL then never kept (0.3
// to 0.5 ms of planning a read at a million players); read from the CTE,
// both plans are costed alike and the generic one is kept.
var rowsUpToSQL = func() map[rankShape]string {
	qs := map[rankShape]string{}
	for _, shape := range rankShapes() {
		qs[shape] = `WITH k0 AS MATERIALIZED (` + pageKeySQL + `),
	k AS (SELECT period_id, sort_score, sort_subscore, reached_at, seq + 1 AS seq, ` + hourColumnsSQL + ` FROM k0)
SELECT ` + periodRankSQL("k", "$6", shape) + ` - 1 FROM k`
	}
	return qs
}()

// boardCursor is a position in a period's table: the period's id, so that
// a cursor of another period is refused, the rank, and the key the next
// page starts after.
type boardCursor struct {
	periodID int32
	rank     int
	key      boardKey
}

// encode returns the cursor as the API shows it.
func (c boardCursor) encode() string {
	var buf [2 + 6*21]byte // "b1" and six ":"-led int64s
	raw := append(buf[:0], "b1"...)
	for _, n := range [...]int64{int64(c.periodID), int64(c.rank), c.key.sortScore, c.key.sortSubscore,
		c.key.reachedAt.UnixNano(), c.key.seq} {
		raw = strconv.AppendInt(append(raw, ':'), n, 10)
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

// decodeBoardCursor reads a cursor that encode made; "" is none.
func decodeBoardCursor(s string) (*boardCursor, error) {
	if s == "" {
		return nil, nil
	}
	bad := leaderboard.Errorf(leaderboard.EBADINPUT, "cursor %q is not a cursor this API returned", s)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 7 || parts[0] != "b1" {
		return nil, bad
	}
	var n [6]int64
	for i, p := range parts[1:] {
		if n[i], err = strconv.ParseInt(p, 10, 64); err != nil {
			return nil, bad
		}
	}
	// Every field must be one this API could have written: sort keys are
	// 32-bit totals and subscores, either sign, or the subscore's "none".
	const int32Range = 1 << 31
	inRange := func(v int64) bool { return v >= -int32Range && v <= int32Range }
	if n[0] < 1 || n[0] > math.MaxInt32 || n[1] < 0 || n[1] > math.MaxInt32 || !inRange(n[2]) ||
		(!inRange(n[3]) && n[3] != math.MaxInt64) || n[5] < 1 {
		return nil, bad
	}
	return &boardCursor{periodID: int32(n[0]), rank: int(n[1]),
		key: boardKey{sortScore: n[2], sortSubscore: n[3], reachedAt: time.Unix(0, n[4]), seq: n[5]}}, nil
}

// neighbourLimits are the row limits standing statements are written with:
// a request's neighbours on each side are read with limitFor(neighbourLimits, n).
var neighbourLimits = []int{0, leaderboard.DefaultNeighbours, leaderboard.MaxNeighbours}

// pageLimits are the row limits pages are read with: a page of first
// entries reads first+1 rows (the extra one tells whether another page
// follows) with limitFor(pageLimits, first+1).
var pageLimits = []int{11, 26, 51, 101, 251, leaderboard.MaxPageSize + 1}

// limitFor returns the smallest of limits, in increasing order, that holds
// n, or n when none does. Statements are written with their limits as
// literals (see boardStandingSQL), so that a few steps of them keep the
// statements prepared on each connection few; the rows are trimmed in Go.
func limitFor(limits []int, n int) int {
	for _, l := range limits {
		if n <= l {
			return l
		}
	}
	return n
}
