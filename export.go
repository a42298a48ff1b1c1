package leaderboard

import (
	"context"
	"io"
)

// StandingsExporter writes the final standings of closed months.
type StandingsExporter interface {
	// ExportStandings writes closed month m's final standings to w as CSV in
	// rank order. ENOTFOUND when the month never opened; ECONFLICT while it
	// is not CLOSED. An error after the first byte leaves w partial.
	ExportStandings(ctx context.Context, m Month, w io.Writer) error
}

// PeriodExporter writes the final standings of closed periods.
type PeriodExporter interface {
	// ExportPeriod writes CLOSED period key of board's final standings to w
	// as CSV in rank order: the columns of a month's export, then subscore,
	// tier and claimed_at. ENOTFOUND for an unknown board or a period
	// without scores that never closed; ECONFLICT while it is not CLOSED;
	// EBADINPUT for a bad key. An error after the first byte leaves w
	// partial.
	ExportPeriod(ctx context.Context, board, key string, w io.Writer) error
}
