package db

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Leaderboard returns up to first entries of month m's table after the cursor
// (from the top when after is ""). An empty page for a month that never
// opened; EBADINPUT for a malformed cursor.
func (db *DB) Leaderboard(ctx context.Context, m leaderboard.Month, first int, after string) (*leaderboard.Page, error) {
	cur, err := decodeCursor(after, m)
	if err != nil {
		return nil, err
	}
	page := &leaderboard.Page{}
	leave, err := db.closing.enter(ctx, m)
	if err != nil {
		return nil, errorf("read leaderboard of %s: %w", m, err)
	}
	defer leave()
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		status, participants, err := monthStatus(ctx, tx, m)
		if err == nil {
			db.closing.saw(m, status)
		}
		switch {
		case err != nil || status == "":
			return err
		case status == leaderboard.MonthClosed:
			page.Total = participants
			page.Edges, page.HasNextPage, err = finalPage(ctx, tx, m, first, cur)
		default:
			if err := tx.QueryRow(ctx, liveTotalQuery, m.Date()).Scan(&page.Total); err != nil {
				return err
			}
			page.Edges, page.HasNextPage, err = livePage(ctx, tx, m, first, cur)
		}
		return err
	})
	if err != nil {
		return nil, errorf("read leaderboard of %s: %w", m, err)
	}
	return page, nil
}

func finalPage(ctx context.Context, tx pgx.Tx, m leaderboard.Month, first int, after *cursor) ([]leaderboard.Edge, bool, error) {
	q := `SELECT f.rank, f.score, f.reached_at, f.player_id, ` + nameSQL("f") + ` FROM board_final_ranks f
		WHERE f.bucket = ` + ownBucketSQL + ` AND f.period_id = ` + monthPeriodSQL + ` AND f.rank > $2 ORDER BY f.rank LIMIT $3`
	afterRank := 0
	if after != nil && after.live() {
		return nil, false, leaderboard.Errorf(leaderboard.EBADINPUT,
			"month %s closed after this cursor was read: page again from the top", m)
	} else if after != nil {
		afterRank = after.rank
	}
	rows, err := tx.Query(ctx, q, m.Date(), afterRank, first+1)
	if err != nil {
		return nil, false, err
	}
	entries, err := pgx.CollectRows(rows, scanRankEntry)
	if err != nil {
		return nil, false, err
	}
	hasNext := len(entries) > first
	entries = entries[:min(first, len(entries))]
	edges := make([]leaderboard.Edge, len(entries))
	for i, e := range entries {
		edges[i] = leaderboard.Edge{Cursor: cursor{rank: e.Rank}.encode(m), Entry: e}
	}
	return edges, hasNext, nil
}

// livePage reads the page after the cursor's key by keyset. Its first row is
// ranked by counting afresh: ranks move while the month is open, so the
// rank the cursor carries may be stale.
func livePage(ctx context.Context, tx pgx.Tx, m leaderboard.Month, first int, after *cursor) ([]leaderboard.Edge, bool, error) {
	table, limit := monthTable(m), limitFor(pageLimits, first+1)
	q, args := liveTopQuery(table, limit), []any(nil)
	if after != nil {
		q, args = liveBelowQuery(table, limit), []any{after.key.score, after.key.reachedAt, after.key.seq}
	}
	result, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, false, err
	}
	rows, err := collectLiveRows(result)
	if err != nil {
		return nil, false, err
	}
	rows = nearest(rows, first+1, liveKey.before)
	hasNext := len(rows) > first
	rows = rows[:min(first, len(rows))]
	if len(rows) == 0 {
		return nil, false, nil
	}
	firstRank := 1
	if after != nil {
		if err := tx.QueryRow(ctx, liveRankQuery(table), liveRankArgs(m, rows[0].liveKey)...).Scan(&firstRank); err != nil {
			return nil, false, err
		}
	}
	edges := make([]leaderboard.Edge, len(rows))
	for i, e := range rankRows(rows, firstRank-1, +1) {
		edges[i] = leaderboard.Edge{Cursor: cursor{rank: e.Rank, key: rows[i].liveKey}.encode(m), Entry: e}
	}
	return edges, hasNext, nil
}

// cursor is a position in a month's table: the rank, and the live ranking key
// so that an open month pages on by keyset rather than by offset.
type cursor struct {
	rank int
	key  liveKey
}

// live reports whether the cursor was read from a live table: its rank may
// have moved since, so only its key places it.
func (c cursor) live() bool { return c.key.seq != 0 }

// encode returns the cursor for a page of month m.
func (c cursor) encode(m leaderboard.Month) string {
	raw := fmt.Sprintf("v1:%s:%d:%d:%d:%d", m, c.rank, c.key.score, c.key.reachedAt.UnixNano(), c.key.seq)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// decodeCursor reads a cursor that encode made for month m; "" is none.
func decodeCursor(s string, m leaderboard.Month) (*cursor, error) {
	if s == "" {
		return nil, nil
	}
	bad := leaderboard.Errorf(leaderboard.EBADINPUT, "cursor %q is not a cursor this API returned for month %s", s, m)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 6 || parts[0] != "v1" || parts[1] != m.String() {
		return nil, bad
	}
	var n [4]int64
	for i, p := range parts[2:] {
		if n[i], err = strconv.ParseInt(p, 10, 64); err != nil {
			return nil, bad
		}
	}
	// Every field must be one this API could have written: a forged score
	// or sequence out of range is bad input, not a query that fails.
	if n[0] < 0 || n[0] > 1<<31-1 || n[1] < leaderboard.MinScore || n[1] > leaderboard.MaxScore || n[3] < 0 {
		return nil, bad
	}
	return &cursor{rank: int(n[0]), key: liveKey{score: int(n[1]), reachedAt: time.Unix(0, n[2]), seq: n[3]}}, nil
}

// monthLiveRanks returns the current rank of each key of main's months that
// has a score row. The rows are read in one query, their ranks counted in
// one pipelined batch.
func (db *DB) monthLiveRanks(ctx context.Context, keys []monthPlayer) (map[monthPlayer]int, error) {
	const q = `SELECT s.month, s.player_id, s.score, s.reached_at, s.seq
		FROM unnest($1::date[], $2::text[]) AS k(month, player_id)
		JOIN scores s ON s.month = k.month AND s.player_id = k.player_id`
	months, players := make([]time.Time, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		months[i], players[i] = k.Month.Date(), k.PlayerID
	}
	ranks := map[monthPlayer]int{}
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q, months, players)
		if err != nil {
			return err
		}
		var (
			date time.Time
			row  liveRow
		)
		batch := &pgx.Batch{}
		queries := map[leaderboard.Month]string{}
		_, err = pgx.ForEachRow(rows, []any{&date, &row.player.ID, &row.score, &row.reachedAt, &row.seq}, func() error {
			key := monthPlayer{Month: leaderboard.MonthFromDate(date), PlayerID: row.player.ID}
			q, ok := queries[key.Month]
			if !ok {
				q = liveRankQuery(monthTable(key.Month))
				queries[key.Month] = q
			}
			batch.Queue(q, liveRankArgs(key.Month, row.liveKey)...).QueryRow(func(r pgx.Row) error {
				var rank int
				err := r.Scan(&rank)
				ranks[key] = rank
				return err
			})
			return nil
		})
		if err != nil || batch.Len() == 0 {
			return err
		}
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return nil, errorf("read live ranks of main: %w", err)
	}
	return ranks, nil
}
