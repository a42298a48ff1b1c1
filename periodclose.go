package leaderboard

import (
	"context"
	"io"
)

// PeriodCloser closes and clears the periods of boards by hand (the
// closePeriod and clearPeriod mutations); the scheduler closes due periods
// by itself.
type PeriodCloser interface {
	// ClosePeriod starts the close of period key of board, or joins the one
	// running on any instance, and returns the period once it is CLOSED or,
	// when the close wait or ctx ends first, as it stands. Cancelling ctx
	// cancels nothing of the close. An OPEN period closed before its end
	// ends early: later events for it are REJECTED (MONTH_CLOSED); one that
	// no event opened is closed with no participants. A CLOSED period is
	// answered as it is. main's periods are its months (closeMonth).
	// ENOTFOUND for an unknown board or a season it does not have;
	// EBADINPUT for a key that is not one of the board's; ECONFLICT for a
	// period that has not started.
	ClosePeriod(ctx context.Context, board, key string) (*Period, error)
	// ClearPeriod removes every score of period key of board, which must be
	// OPEN, and records it as a correction with its reason (CheckReason).
	// ECONFLICT when the period is not OPEN (or past its closesAt);
	// EBADINPUT for a bad reason or key, or for main, whose scores are
	// corrected one by one (correctScore); ENOTFOUND for an unknown board.
	ClearPeriod(ctx context.Context, board, key, reason string) (*Period, error)
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
