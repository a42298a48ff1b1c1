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

// ExportStandings writes closed month m's final standings to w as CSV, in
// rank order, under ExportHeader: reached_at in RFC 3339 UTC, percentile the
// share of players ranked at or below, in percent. Text cells (player_id,
// player_name) that a spreadsheet would run as a formula carry a leading
// quote (see spreadsheetSafe). It streams them with COPY, in one snapshot,
// holding nothing in memory. ENOTFOUND when the month never opened;
// ECONFLICT while it is not CLOSED. Once rows were written, an error leaves
// w with a partial export.
func (db *DB) ExportStandings(ctx context.Context, m leaderboard.Month, w io.Writer) error {
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		status, participants, err := monthStatus(ctx, tx, m)
		switch {
		case err != nil:
			return err
		case status == "":
			return leaderboard.Errorf(leaderboard.ENOTFOUND, "month %s has no scores", m)
		case status != leaderboard.MonthClosed:
			return leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is %s: its standings are not final yet", m, status)
		}
		// COPY takes no parameters: the month and count are numbers
		// formatted here, never text from the request.
		q := fmt.Sprintf(`COPY (
			SELECT f.rank, %[3]s AS player_id, %[4]s AS player_name, f.score,
				to_char(f.reached_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS reached_at,
				round(100.0 * (%[2]d - f.rank + 1) / %[2]d, 4) AS percentile
			FROM final_ranks f JOIN players p ON p.id = f.player_id
			WHERE f.month = %[1]s ORDER BY f.rank
		) TO STDOUT WITH (FORMAT csv, HEADER true)`, dateLiteral(m), max(participants, 1),
			spreadsheetSafe("f.player_id"), spreadsheetSafe("p.name"))
		_, err = tx.Conn().PgConn().CopyTo(ctx, w, q)
		return err
	})
	if err != nil {
		return errorf("export standings of %s: %w", m, err)
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
