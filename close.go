package leaderboard

import (
	"context"
)

// ClosePhase names a step of a month's close job, for logs and metrics.
type ClosePhase string

// The phases of a close, in order.
const (
	PhaseStopping ClosePhase = "stopping" // OPEN -> CLOSING: waits for submissions in flight
	PhaseRanking  ClosePhase = "ranking"  // scores read with ROW_NUMBER(), digested, copied into the final ranks
	PhaseIndexing ClosePhase = "indexing" // the final ranks' primary key and statistics
	PhaseDigest   ClosePhase = "digest"   // the ranks handed to CloseHooks.Ranks, the top 100's names
	PhaseAttach   ClosePhase = "attach"   // the ranks become the month's partition; CLOSED
	PhaseDone     ClosePhase = "done"     // committed
)

// RankStream reads a month's final ranks: it calls entry with every final
// entry in rank order, its player without a name, then, unless name is nil,
// name with the id and name of every ranked player who has one, in no
// particular order, and perhaps of players without a rank in the month, whom
// name ignores. It returns the first error. Names come apart because
// joining them in rank order makes the database sort the whole month again,
// and a scan of every player costs less than a join with the month's.
type RankStream func(entry func(RankEntry) error, name func(playerID, name string) error) error

// CloseHooks follow a close job. Each may be nil.
type CloseHooks struct {
	// Phase is called as each phase starts, with the rows done so far.
	Phase func(m Month, phase ClosePhase, rows int64)
	// Ranks is handed the close's own read of the month's new final ranks,
	// before the close commits, and must call ranks exactly once; the close
	// fails if it returns an error. They are the month's standings at once,
	// since a CLOSING month takes no scores and no corrections, but final
	// only once Closed is called.
	Ranks func(m Month, participants int, ranks RankStream) error
	// Closed is called once the close committed, with the version of the
	// final ranks it made.
	Closed func(m Month, ranksVersion int)
}

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
	// it is. main's periods are its months: their close is the month's,
	// which waits for a close running on any instance and answers CLOSING
	// after the wait; ENOTFOUND for a month that never opened.
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
