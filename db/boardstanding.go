package db

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Standings and tables of the boards other than main, read from
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

// boardStandingSQL reads, without and with the rows' metadata (see
// metadataIndex), in one statement and so from one snapshot, the row
// of player $3 in period $2 of board $1 (kind 0) with its rank, counted with
// the counters of the board's rankLevels in $6 and $7, the period's rows
// and its start, then up to $4 rows just above it (kind -1) and $5 just
// below (kind 1).
var boardStandingSQL = [2]string{boardStandingSQLOf(false), boardStandingSQLOf(true)}

// boardStandingSQLOf returns boardStandingSQL, with or without the rows'
// metadata.
func boardStandingSQLOf(withMetadata bool) string {
	columns := entryColumns(withMetadata)
	return `WITH p AS (
	SELECT id, starts_at, status FROM periods WHERE board_id = $1 AND key = $2
), me AS (
	SELECT s.*, ` + hourColumnsSQL + ` FROM p JOIN board_scores s ON s.period_id = p.id AND s.player_id = $3
)
SELECT 0, ` + strings.ReplaceAll(columns, "t.", "me.") + `,
	` + periodRankSQL("me", "$6", "$7") + `,
	(SELECT ` + periodTotalSQL + ` FROM p),
	(SELECT starts_at FROM p), (SELECT status = 'CLOSED' FROM p)
FROM me
UNION ALL
SELECT -1, ` + columns + `, NULL, NULL, NULL, NULL FROM me CROSS JOIN LATERAL (
	SELECT s.* FROM board_scores s WHERE s.period_id >= me.period_id
		AND (s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq)
			< (me.period_id, me.sort_score, me.sort_subscore, me.reached_at, me.seq)
	ORDER BY s.period_id DESC, s.sort_score DESC, s.sort_subscore DESC, s.reached_at DESC, s.seq DESC LIMIT $4) AS t
UNION ALL
SELECT 1, ` + columns + `, NULL, NULL, NULL, NULL FROM me CROSS JOIN LATERAL (
	SELECT s.* FROM board_scores s WHERE s.period_id <= me.period_id
		AND (s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq)
			> (me.period_id, me.sort_score, me.sort_subscore, me.reached_at, me.seq)
	ORDER BY s.period_id, s.sort_score, s.sort_subscore, s.reached_at, s.seq LIMIT $5) AS t`
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
	s, err := db.queryBoardStanding(ctx, b, key, playerID, above, below)
	if err != nil {
		return nil, errorf("read standing of %q in period %s of %s: %w", playerID, key, b.ID, err)
	}
	return s, nil
}

func (db *DB) queryBoardStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	l := rankLevelsOf(b)
	rows, err := db.pool.Query(ctx, boardStandingSQL[metadataIndex(ctx)], b.ID, key, playerID, above, below,
		l.origin, l.shifts)
	if err != nil {
		return nil, err
	}
	var (
		s                    *leaderboard.Standing
		aboveRows, belowRows []boardEntry
	)
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var (
			kind        int
			r           boardEntry
			metadata    []byte
			rank, total *int64
			startsAt    *time.Time
			closed      *bool
		)
		err := row.Scan(&kind, &r.entry.Player.ID, &r.entry.Player.Name, &r.entry.Score, &r.entry.Subscore,
			&r.entry.ReachedAt, &metadata, &r.key.sortScore, &r.key.sortSubscore, &r.key.seq, &rank, &total, &startsAt, &closed)
		if err != nil {
			return struct{}{}, err
		}
		r.key.reachedAt = r.entry.ReachedAt
		if metadata != nil {
			r.entry.Metadata = metadata
		}
		switch kind {
		case 0:
			r.entry.Rank = int(*rank)
			s = &leaderboard.Standing{RankEntry: r.entry, Board: b.ID, Period: key, Total: int(*total),
				Month: leaderboard.MonthOf(*startsAt, b.Location), Final: *closed}
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
		return nil, err
	}
	// The statement's branches come back in any order: sort each side.
	byKey := func(x, y boardEntry) int { return x.key.compare(y.key) }
	slices.SortFunc(aboveRows, byKey)
	slices.SortFunc(belowRows, byKey)
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
	return s, nil
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
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		const period = `SELECT id FROM periods WHERE board_id = $1 AND key = $2`
		var periodID int32
		err := tx.QueryRow(ctx, period, b.ID, key).Scan(&periodID)
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

// boardPageSQL holds a page's first read (top) and its read after a cursor
// (next), without and with the rows' metadata (see metadataIndex).
var boardPageSQL = [2]struct{ top, next string }{boardPageSQLOf(false), boardPageSQLOf(true)}

// boardPageSQLOf returns the reads of boardPageSQL, with or without the
// rows' metadata. A read after a key bounds the period from above with <=
// (so does boardStandingSQL, from the side it scans towards), not =: with an
// equality beside the row-value comparison, PostgreSQL starts the scan at
// the period's first row and filters up to the key (830 ms at rank 500,000
// of a million), instead of starting at the key.
func boardPageSQLOf(withMetadata bool) (q struct{ top, next string }) {
	columns := entryColumns(withMetadata)
	q.top = `SELECT ` + columns + ` FROM board_scores t WHERE t.period_id = $1
		ORDER BY t.period_id, t.sort_score, t.sort_subscore, t.reached_at, t.seq LIMIT $2`
	q.next = `SELECT ` + columns + ` FROM board_scores t WHERE t.period_id <= $1
		AND (t.period_id, t.sort_score, t.sort_subscore, t.reached_at, t.seq) > ($1, $3, $4, $5, $6)
		ORDER BY t.period_id, t.sort_score, t.sort_subscore, t.reached_at, t.seq LIMIT $2`
	return q
}

// metadataIndex returns the index of the statements a read under ctx runs
// in boardStandingSQL and boardPageSQL: 1 with the rows' metadata, 0
// without (leaderboard.WithoutMetadata).
func metadataIndex(ctx context.Context) int {
	if leaderboard.MetadataWanted(ctx) {
		return 1
	}
	return 0
}

// boardPage reads the page of period periodID after the cursor by keyset,
// with the period's total and, after a cursor, the rank of the page's first
// row counted afresh: rows move while the period is open, so the rank the
// cursor carries may be stale.
func boardPage(ctx context.Context, tx pgx.Tx, l rankLevels, periodID int32, first int, after *boardCursor) ([]leaderboard.Edge, bool, int, error) {
	top, next := boardPageSQL[metadataIndex(ctx)].top, boardPageSQL[metadataIndex(ctx)].next
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
		reads.Queue(top, periodID, first+1).Query(collect)
	} else {
		k := after.key
		reads.Queue(next, periodID, first+1, k.sortScore, k.sortSubscore, k.reachedAt, k.seq).Query(collect)
		reads.Queue(rowsUpToQuery, periodID, k.sortScore, k.sortSubscore, k.reachedAt, k.seq,
			l.origin, l.shifts).QueryRow(func(row pgx.Row) error {
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

// periodTotalQuery reads the rows of period $1 from its counters.
const periodTotalQuery = `SELECT ` + periodTotalSQL + ` FROM (SELECT $1::int AS id) AS p`

// rowsUpToQuery counts the rows of period $1 up to the key ($2 sort score,
// $3 sort subscore, $4 reached_at, $5 seq), that key included, with the
// counters of rankLevels $6 and $7: the rank of the key just after it
// (seq + 1: sequence numbers are whole) less one. The key need not be a row.
var rowsUpToQuery = `SELECT ` + periodRankSQL("k", "$6", "$7") + ` - 1 FROM (
	SELECT *, ` + hourColumnsSQL + ` FROM (SELECT $1::int AS period_id, $2::bigint AS sort_score,
		$3::bigint AS sort_subscore, $4::timestamptz AS reached_at, $5::bigint + 1 AS seq) AS k0) AS k`

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
	raw := fmt.Sprintf("b1:%d:%d:%d:%d:%d:%d", c.periodID, c.rank, c.key.sortScore, c.key.sortSubscore,
		c.key.reachedAt.UnixNano(), c.key.seq)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
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
