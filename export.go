package leaderboard

import (
	"context"
	"io"
)

// ExportForm picks the columns of an export and the words of its errors.
type ExportForm int

// The forms of an export.
const (
	// PeriodExport is the export of any board's period (GET
	// /admin/boards/{board}/periods/{key}/standings.csv): the columns
	// rank,player_id,player_name,score,reached_at,percentile, then
	// subscore,tier,claimed_at; its errors name the period and board.
	PeriodExport ExportForm = iota
	// MonthExport is the month export of main (GET
	// /admin/months/{month}/standings.csv): the first six columns only; its
	// errors name the month.
	MonthExport
)

// Exporter writes the final standings of closed periods.
type Exporter interface {
	// ExportStandings writes CLOSED period key of board's final standings
	// to w as CSV in rank order, in form's columns. ENOTFOUND for an
	// unknown board or a period without scores that never closed;
	// ECONFLICT while it is not CLOSED; EBADINPUT for a key that is not
	// the board's, or MonthExport of a board other than main. An error
	// after the first byte leaves w partial.
	ExportStandings(ctx context.Context, board, key string, form ExportForm, w io.Writer) error
}
