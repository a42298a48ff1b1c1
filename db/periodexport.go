package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// PeriodExportHeader is the first line of a period's export: a month's
// columns, then the subscore, the reward tier and when the reward was
// claimed.
const PeriodExportHeader = ExportHeader + ",subscore,tier,claimed_at"

// CohortExportColumns end the header of a period's export on a board with
// cohorts: the player's cohort, its league (empty without leagues), the
// rank in the cohort and the league the player plays next.
const CohortExportColumns = ",cohort,league,cohort_rank,next_league"

// periodExportQuery returns the COPY statement of the export of period key
// of b in form, or the error that the period is not there or not CLOSED:
// in the month's words for the month export (monthNotClosed). main's
// months are written as mainExportQuery says.
func periodExportQuery(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, key string, form leaderboard.ExportForm) (string, error) {
	// COPY takes no parameters: every value formatted into it below is a
	// number or a date read from the database, never text from the request.
	const q = `SELECT id, status, COALESCE(participants, 0), final_bucket FROM periods WHERE board_id = $1 AND key = $2`
	var (
		id           int32
		status       string
		participants int
		bucket       *time.Time
	)
	err := tx.QueryRow(ctx, q, b.ID, key).Scan(&id, &status, &participants, &bucket)
	if form == leaderboard.MonthExport {
		err = monthNotClosed(key, status, noRows(err), err)
	} else {
		err = notClosed(b.ID, key, status, noRows(err), err)
	}
	if err != nil {
		return "", err
	}
	if bucket == nil {
		return "", fmt.Errorf("period %s of %s is CLOSED with no final ranks", key, b.ID)
	}
	if b.ID == leaderboard.MainBoard {
		return mainExportQuery(id, *bucket, participants, form), nil
	}
	board, err := boardLiteral(b.ID)
	if err != nil {
		return "", err
	}
	// The tier is the board's first whose topPercent is at least
	// 100 * rank / participants, in floating point as Board.TierOf computes
	// it, so that the export and the messages agree at every boundary; on
	// a board with cohorts, rank and participants are the cohort's.
	percent, cohortColumns, cohortJoin := fmt.Sprintf("100 * f.rank::float8 / %d::float8", max(participants, 1)), "", ""
	if b.HasCohorts() {
		percent = "100 * f.cohort_rank::float8 / f.cohort_size::float8"
		cohortColumns = fmt.Sprintf(`, (m.league + 1) || '-' || m.cohort AS cohort, %[1]s AS league, f.cohort_rank,
			%[2]s AS next_league`, spreadsheetSafe("((bl.leagues -> m.league::int) ->> 'name')"),
			spreadsheetSafe("((bl.leagues -> f.next_league::int) ->> 'name')"))
		cohortJoin = fmt.Sprintf(`LEFT JOIN cohort_members m ON m.period_id = %d AND m.player_id = f.player_id
		CROSS JOIN (SELECT leagues FROM boards WHERE id = %s) bl`, id, board)
	}
	return fmt.Sprintf(`COPY (
		SELECT f.rank, %[4]s AS player_id, %[5]s AS player_name, f.score,
			to_char(f.reached_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS reached_at,
			round(100.0 * (%[3]d - f.rank + 1) / %[3]d, 4) AS percentile,
			f.subscore, %[6]s AS tier, %[8]s AS claimed_at%[9]s
		FROM board_final_ranks f JOIN players p ON p.id = f.player_id
		LEFT JOIN claims c ON c.period_id = %[2]d AND c.player_id = f.player_id
		%[10]s
		LEFT JOIN LATERAL (
			SELECT t.tier ->> 'name' AS name FROM boards bd, jsonb_array_elements(bd.tiers) WITH ORDINALITY AS t (tier, i)
			WHERE bd.id = %[7]s AND (t.tier ->> 'topPercent')::float8 >= %[11]s
			ORDER BY t.i LIMIT 1
		) t ON true
		WHERE f.bucket = DATE '%[1]s' AND f.period_id = %[2]d ORDER BY f.rank
	) TO STDOUT WITH (FORMAT csv, HEADER true)`, bucket.Format(time.DateOnly), id, max(participants, 1),
		spreadsheetSafe("f.player_id"), spreadsheetSafe("p.name"), spreadsheetSafe("t.name"), board, claimedAtColumn,
		cohortColumns, cohortJoin, percent), nil
}

// claimedAtColumn is the export's claimed_at: when the standing's reward
// was claimed (claims c), in UTC as reached_at is written; empty when not.
const claimedAtColumn = `to_char(c.claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

// notClosed returns the error of an export of period key of board, whose
// status was read with err: ENOTFOUND when missing, ECONFLICT when not
// CLOSED.
func notClosed(board, key, status string, missing bool, err error) error {
	switch {
	case missing:
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "period %s of %s has no scores", key, board)
	case err != nil:
		return err
	case status != string(leaderboard.PeriodClosed):
		return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s of %s is %s: its standings are not final yet", key, board, status)
	}
	return nil
}

// boardLiteral returns board id as an SQL literal. The boards table holds
// only ids of [a-z0-9_.-], which need no quoting; anything else is refused
// rather than quoted.
func boardLiteral(id string) (string, error) {
	if err := leaderboard.CheckBoardID(id); err != nil {
		return "", err
	}
	return "'" + id + "'", nil
}
