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

// Main's pages keep the month contract's cursors, "v1:YYYY-MM:rank:score:
// reachedAtNanos:seq" in URL-safe base64, which clients already hold: an open
// month's page is any period's page (boardPage), its cursors written in the
// month's form; a closed month's page is read by rank from its final ranks,
// its cursors carrying the rank alone (a zero seq), as they always did.

// monthLeaderboard returns up to first entries of month key of main after
// the cursor (from the top when after is ""). An empty page for a month that
// never opened; EBADINPUT for a malformed cursor, or a cursor of the open
// month once the month closed.
func (db *DB) monthLeaderboard(ctx context.Context, b *leaderboard.Board, m leaderboard.Month, first int, after string) (*leaderboard.Page, error) {
	cur, err := decodeCursor(after, m)
	if err != nil {
		return nil, err
	}
	first = max(first, 0)
	page := &leaderboard.Page{}
	ref := monthRef(m)
	leave, err := db.closing.enter(ctx, ref)
	if err != nil {
		return nil, errorf("read leaderboard of %s: %w", m, err)
	}
	defer leave()
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		const period = `SELECT id, status, COALESCE(participants, 0), final_bucket FROM periods WHERE board_id = $1 AND key = $2`
		var (
			periodID int32
			status   string
			bucket   *time.Time
		)
		err := tx.QueryRow(ctx, period, b.ID, m.String()).Scan(&periodID, &status, &page.Total, &bucket)
		if err == nil {
			db.closing.saw(ref, leaderboard.PeriodStatus(status))
		}
		switch {
		case noRows(err):
			return nil
		case err != nil:
			return err
		case leaderboard.PeriodStatus(status) == leaderboard.PeriodClosed:
			page.Edges, page.HasNextPage, err = finalPage(ctx, tx, m, *bucket, periodID, first, cur)
			return err
		}
		var bc *boardCursor
		if cur != nil {
			bc = &boardCursor{periodID: periodID, rank: cur.rank, key: cur.key}
		}
		page.Edges, page.HasNextPage, page.Total, err = boardPage(ctx, tx, rankLevelsOf(b), periodID, first, bc)
		for i, e := range page.Edges {
			k, _ := decodeBoardCursor(e.Cursor)
			page.Edges[i].Cursor = cursor{rank: e.Entry.Rank, key: k.key}.encode(m)
		}
		return err
	})
	if err != nil {
		return nil, errorf("read leaderboard of %s: %w", m, err)
	}
	return page, nil
}

// finalPage reads closed month m's page after the cursor's rank from its
// final ranks (period periodID, in bucket).
func finalPage(ctx context.Context, tx pgx.Tx, m leaderboard.Month, bucket time.Time, periodID int32, first int,
	after *cursor) ([]leaderboard.Edge, bool, error) {
	q := `SELECT f.rank, f.score, f.reached_at, f.player_id, ` + nameSQL("f") + ` FROM board_final_ranks f
		WHERE f.bucket = $4 AND f.period_id = $1 AND f.rank > $2 ORDER BY f.rank LIMIT $3`
	afterRank := 0
	if after != nil && after.live() {
		return nil, false, leaderboard.Errorf(leaderboard.EBADINPUT,
			"month %s closed after this cursor was read: page again from the top", m)
	} else if after != nil {
		afterRank = after.rank
	}
	rows, err := tx.Query(ctx, q, periodID, afterRank, first+1, bucket)
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

// cursor is a position in a month's table: the rank, and the key of main's
// row (its sort key: the score negated) the next page starts after; a zero
// seq for a cursor of a closed month's final ranks.
type cursor struct {
	rank int
	key  boardKey
}

// live reports whether the cursor was read from an open month: its rank may
// have moved since, so only its key places it.
func (c cursor) live() bool { return c.key.seq != 0 }

// encode returns the cursor for a page of month m.
func (c cursor) encode(m leaderboard.Month) string {
	raw := fmt.Sprintf("v1:%s:%d:%d:%d:%d", m, c.rank, -c.key.sortScore, c.key.reachedAt.UnixNano(), c.key.seq)
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
	return &cursor{rank: int(n[0]), key: boardKey{sortScore: -n[1], reachedAt: time.Unix(0, n[2]), seq: n[3]}}, nil
}
