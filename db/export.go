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
// share of players ranked at or below, in percent. It streams them with
// COPY, in one snapshot, holding nothing in memory. ENOTFOUND when the month
// never opened; ECONFLICT while it is not CLOSED. Once rows were written, an
// error leaves w with a partial export.
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
			SELECT f.rank, f.player_id, p.name AS player_name, f.score,
				to_char(f.reached_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS reached_at,
				round(100.0 * (%[2]d - f.rank + 1) / %[2]d, 4) AS percentile
			FROM final_ranks f JOIN players p ON p.id = f.player_id
			WHERE f.month = %[1]s ORDER BY f.rank
		) TO STDOUT WITH (FORMAT csv, HEADER true)`, dateLiteral(m), max(participants, 1))
		_, err = tx.Conn().PgConn().CopyTo(ctx, w, q)
		return err
	})
	if err != nil {
		return errorf("export standings of %s: %w", m, err)
	}
	return nil
}
