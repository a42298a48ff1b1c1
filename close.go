package leaderboard

import (
	"context"
)

// ClosePhase names a step of the close of a period closed on its own (a
// large one, or one an admin closes), for logs and metrics.
type ClosePhase string

// The phases of a close, in order.
const (
	PhaseStopping ClosePhase = "stopping" // OPEN -> CLOSING: waits for submissions in flight
	PhaseRanking  ClosePhase = "ranking"  // scores read, sorted, copied into the final ranks
	PhaseIndexing ClosePhase = "indexing" // the final ranks' primary key and statistics
	PhaseDigest   ClosePhase = "digest"   // the ranks digested, the top 100's names
	PhaseAttach   ClosePhase = "attach"   // a large period's ranks become its partition
	PhaseDone     ClosePhase = "done"     // committed
)

// Closer closes and clears the periods of boards by hand (the closePeriod
// and clearPeriod mutations, and closeMonth, which closes a period of
// main); the scheduler closes due periods by itself.
type Closer interface {
	// ClosePeriod starts the close of period key of board, or joins the one
	// running on any instance, and returns the period once it is CLOSED or,
	// when the close wait or ctx ends first, as it stands. Cancelling ctx
	// cancels nothing of the close. The close is accepted once the period
	// is CLOSING in the database: from then on its events are REJECTED
	// (MONTH_CLOSED) and any instance finishes the close should this one be
	// cut off; an error (UNAVAILABLE) before that means nothing was done.
	// An OPEN period closed before its end ends early; one that no event
	// opened is closed with no participants. A CLOSED period is answered as
	// it is. main's periods are its months: ENOTFOUND for a month no event
	// opened.
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
