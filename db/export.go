package db

import (
	"context"
	"fmt"
	"io"

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
	return func(tx pgx.Tx) (string, error) { return periodExportQuery(ctx, tx, b, key, form) }, nil
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
