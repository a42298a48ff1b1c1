package db

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// ExportHeader is the first line of an export.
const ExportHeader = "rank,player_id,player_name,score,reached_at,percentile"

// ExportStandings writes CLOSED period key of board's final standings to w
// as CSV, in rank order. reached_at is in RFC 3339 UTC, percentile the
// share of players ranked at or below, in percent; text cells (player_id,
// player_name, tier) that a spreadsheet would run as a formula carry a
// leading quote (see spreadsheetSafe). It streams them with COPY, in one
// snapshot, holding nothing in memory. The form picks the columns:
// MonthExport, main's month export, writes ExportHeader's and names the
// month in its errors; PeriodExport writes PeriodExportHeader's: the
// subscore (empty without one), the tier (Board.TierOf) and claimed_at
// (when claimReward claimed the standing's reward; empty until then).
// main's periods are its months, exported with empty subscore and tier.
// ENOTFOUND for an unknown board or a period without a row; EBADINPUT for a
// key not of the board's, or MonthExport of another board than main;
// ECONFLICT while the period is not CLOSED. Once rows were written, an
// error leaves w with a partial export.
func (db *DB) ExportStandings(ctx context.Context, board, key string, form leaderboard.ExportForm, w io.Writer) error {
	query, err := db.exportQuery(ctx, board, key, form)
	if err != nil {
		return err
	}
	err = db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		q, err := query(tx)
		if err != nil {
			return err
		}
		_, err = tx.Conn().PgConn().CopyTo(ctx, w, q)
		return err
	})
	if err != nil {
		return errorf("export standings of period %s of %s: %w", key, board, err)
	}
	return nil
}

// exportQuery checks the board and key of an export and returns what makes
// its COPY statement in the export's transaction.
func (db *DB) exportQuery(ctx context.Context, board, key string, form leaderboard.ExportForm) (func(pgx.Tx) (string, error), error) {
	if form == leaderboard.MonthExport {
		if board != leaderboard.MainBoard {
			return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "board %s has no month export: export its periods", board)
		}
		if _, err := leaderboard.ParseMonth(key); err != nil {
			return nil, err
		}
	}
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, err
	}
	if _, err := b.PeriodSpan(key); err != nil {
		return nil, err
	}
	if b.ID == leaderboard.MainBoard {
		if _, err := leaderboard.ParseMonth(key); err != nil {
			return nil, err
		}
	}
	return func(tx pgx.Tx) (string, error) { return periodExportQuery(ctx, tx, b, key, form) }, nil
}

// mainExportQuery returns the COPY statement of the export of main's
// closed month key in form, whose final ranks are those of period id in
// bucket: the month's columns and, in the period export's form, a board's,
// which main has none of (empty subscore and tier), and when the reward was
// claimed.
func mainExportQuery(id int32, bucket time.Time, participants int, form leaderboard.ExportForm) string {
	boardColumns, claims := "", ""
	if form == leaderboard.PeriodExport {
		boardColumns = ", NULL::integer AS subscore, NULL::text AS tier, " + claimedAtColumn + " AS claimed_at"
		claims = fmt.Sprintf("LEFT JOIN claims c ON c.period_id = %d AND c.player_id = f.player_id", id)
	}
	// COPY takes no parameters: the period, bucket and count are numbers and
	// a date read from the database, never text from the request.
	return fmt.Sprintf(`COPY (
		SELECT f.rank, %[4]s AS player_id, %[5]s AS player_name, f.score,
			to_char(f.reached_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS reached_at,
			round(100.0 * (%[3]d - f.rank + 1) / %[3]d, 4) AS percentile%[6]s
		FROM board_final_ranks f JOIN players p ON p.id = f.player_id
		%[7]s
		WHERE f.bucket = DATE '%[1]s' AND f.period_id = %[2]d
		ORDER BY f.rank
	) TO STDOUT WITH (FORMAT csv, HEADER true)`, bucket.Format(time.DateOnly), id, max(participants, 1),
		spreadsheetSafe("f.player_id"), spreadsheetSafe("p.name"), boardColumns, claims)
}

// monthNotClosed returns the error of the month export of month key, whose
// status was read with err: ENOTFOUND when it never opened (missing),
// ECONFLICT when not CLOSED.
func monthNotClosed(key, status string, missing bool, err error) error {
	switch {
	case missing:
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", key)
	case err != nil:
		return err
	case status != string(leaderboard.PeriodClosed):
		return leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is %s: its standings are not final yet", key, status)
	}
	return nil
}

// spreadsheetSafe is the SQL expression of text column col as an export
// writes it: a spreadsheet opening the file runs a cell that begins with
// = + - or @ as a formula, and some skip a leading tab or carriage return
// first, so a cell that begins with any of these gets a single quote in
// front, which makes it text (OWASP's CSV injection rules). A cell that
// begins with a quote gets one too, so that the quote is never ambiguous:
// taking one leading quote off, when there is one, gives the stored text
// back, as the digest recipe of docs/api.md does. COPY then quotes the cell
// as CSV requires.
func spreadsheetSafe(col string) string {
	return fmt.Sprintf(`CASE WHEN left(%[1]s, 1) IN ('=', '+', '-', '@', E'\t', E'\r', '''') THEN '''' || %[1]s ELSE %[1]s END`, col)
}
