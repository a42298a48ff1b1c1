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
// of b in form, or the error that the period is not there or not CLOSED,
// in the month's words for the month export. The month export writes
// ExportHeader's columns; the period export adds periodExportColumns.
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
	what := fmt.Sprintf("period %s of %s", key, b.ID)
	if form == leaderboard.MonthExport {
		what = "month " + key
	}
	if err := notClosed(what, status, noRows(err), err); err != nil {
		return "", err
	}
	if bucket == nil {
		return "", fmt.Errorf("period %s of %s is CLOSED with no final ranks", key, b.ID)
	}
	var columns, joins string
	if form == leaderboard.PeriodExport {
		if columns, joins, err = periodExportColumns(b, id, participants); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf(`COPY (
		SELECT f.rank, %[4]s AS player_id, %[5]s AS player_name, f.score,
			to_char(f.reached_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS reached_at,
			round(100.0 * (%[3]d - f.rank + 1) / %[3]d, 4) AS percentile%[6]s
		FROM board_final_ranks f JOIN players p ON p.id = f.player_id
		%[7]s
		WHERE f.bucket = DATE '%[1]s' AND f.period_id = %[2]d ORDER BY f.rank
	) TO STDOUT WITH (FORMAT csv, HEADER true)`, bucket.Format(time.DateOnly), id, max(participants, 1),
		spreadsheetSafe("f.player_id"), spreadsheetSafe("p.name"), columns, joins), nil
}

// periodExportColumns returns the columns a period's export adds to the
// month's, for period id of b with participants (the subscore, the tier,
// when the reward was claimed and, on a board with cohorts,
// CohortExportColumns), and the joins they read.
func periodExportColumns(b *leaderboard.Board, id int32, participants int) (columns, joins string, err error) {
	board, err := boardLiteral(b.ID)
	if err != nil {
		return "", "", err
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
	columns = fmt.Sprintf(`,
			f.subscore, %[1]s AS tier, %[2]s AS claimed_at%[3]s`, spreadsheetSafe("t.name"), claimedAtColumn, cohortColumns)
	joins = fmt.Sprintf(`LEFT JOIN claims c ON c.period_id = %[1]d AND c.player_id = f.player_id
		%[2]s
		LEFT JOIN LATERAL (
			SELECT t.tier ->> 'name' AS name FROM boards bd, jsonb_array_elements(bd.tiers) WITH ORDINALITY AS t (tier, i)
			WHERE bd.id = %[3]s AND (t.tier ->> 'topPercent')::float8 >= %[4]s
			ORDER BY t.i LIMIT 1
		) t ON true`, id, cohortJoin, board, percent)
	return columns, joins, nil
}

// claimedAtColumn is the export's claimed_at: when the standing's reward
// was claimed (claims c), in UTC as reached_at is written; empty when not.
const claimedAtColumn = `to_char(c.claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

// notClosed returns the error of an export of what (a period of a board,
// or main's month), whose status was read with err: ENOTFOUND when missing,
// ECONFLICT when not CLOSED.
func notClosed(what, status string, missing bool, err error) error {
	switch {
	case missing:
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "%s has no scores", what)
	case err != nil:
		return err
	case status != string(leaderboard.PeriodClosed):
		return leaderboard.Errorf(leaderboard.ECONFLICT, "%s is %s: its standings are not final yet", what, status)
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
