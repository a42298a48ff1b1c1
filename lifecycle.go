package leaderboard

import (
	"context"
	"io"
	"strings"
	"time"
)

// SettlementStatus says whether a closed month's messages reached the
// studio's reward system.
type SettlementStatus string

// The states of a settlement.
const (
	SettlementDisabled  SettlementStatus = "DISABLED"  // no webhook is configured
	SettlementPending   SettlementStatus = "PENDING"   // a message waits to be delivered
	SettlementDelivered SettlementStatus = "DELIVERED" // every message was answered with a 2xx
)

// Settlement is the delivery of a closed month's newest message
// (month.closed, or month.corrected after a correction).
type Settlement struct {
	Status      SettlementStatus
	Attempts    int
	DeliveredAt *time.Time
	LastError   *string
}

// Correction is an admin's change of one player's total in one period of a
// board (a month of main), kept with its reason as the audit trail.
type Correction struct {
	ID string
	// Board and Period name the period; Month is main's month or, on
	// another board, the month the period starts in (as Standing.Month).
	Board    string
	Period   string
	Month    Month
	PlayerID string // "" for a clear of the whole period (Cleared)
	Before   *int   // the total before; nil when the player had no score
	After    *int   // the total after; nil when the player was removed
	// Cleared is set for clearPeriod's correction, which removed every
	// score of the period at once.
	Cleared bool
	Reason  string
	At      time.Time
}

// MaxReasonLen is the longest reason of a correction, in characters.
const MaxReasonLen = 500

// CheckReason returns an EBADINPUT error unless reason is 1..MaxReasonLen
// characters, not all white space, that follow the text rules of names
// (text.go): it is shown to admins and sent to the reward system, so it must
// not forge lines or reorder the text around it any more than a name may.
func CheckReason(reason string) *Error {
	if err := checkText("reason", reason, nameText, 1, MaxReasonLen); err != nil {
		return err
	}
	if strings.TrimSpace(reason) == "" {
		return Errorf(EBADINPUT, "reason must not be blank")
	}
	return nil
}

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

// Closer runs the close of a month as a background job.
type Closer interface {
	// CloseMonth starts month m's close, or joins the one running on any
	// instance, and returns the month when it is CLOSED or, at the latest
	// when ctx ends, as it stands (CLOSING). Cancelling ctx cancels nothing
	// of the close. ENOTFOUND when the month never opened.
	CloseMonth(ctx context.Context, m Month) (*MonthInfo, error)
}

// CorrectionService changes and lists corrections.
type CorrectionService interface {
	// CorrectScore sets player's total in month m to *score, or removes the
	// player from m when score is nil, and records the correction with its
	// reason. On a CLOSED month the final ranks are rebuilt. EBADINPUT for a
	// score outside MinScore..MaxScore or an empty reason; ENOTFOUND for a
	// month that never opened or a player to remove who has no score.
	CorrectScore(ctx context.Context, m Month, playerID string, score *int, reason string) (*Correction, error)
	// Corrections lists month m's corrections, oldest first.
	Corrections(ctx context.Context, m Month) ([]Correction, error)
	// CorrectPeriodScore is CorrectScore for period key of board, a board
	// other than main: the score within the board's bounds, a removed
	// player's later events for the period REJECTED (FORBIDDEN), a CLOSED
	// period's final ranks rebuilt with its digest and a period.corrected
	// (month.corrected on a MONTH board) message. ENOTFOUND for an unknown
	// board, a period without a row or a player to remove who has no
	// score; ECONFLICT while the period is CLOSING; EBADINPUT for main or a
	// key that is not the board's.
	CorrectPeriodScore(ctx context.Context, board, key, playerID string, score *int, reason string) (*Correction, error)
	// PeriodCorrections lists the corrections of period key of board (clears
	// included), oldest first; none for a period without a row.
	PeriodCorrections(ctx context.Context, board, key string) ([]Correction, error)
}

// Message is a settlement message to the studio's reward system, as stored:
// its body is sent and signed byte for byte.
type Message struct {
	ID   string // stable across attempts: the receiver dedupes by it
	Type string // month.closed, month.corrected, period.closed or period.corrected
	// Month is the month of a message of main; zero for another board's.
	Month Month
	// Board and Period name the period of a message of a board other than
	// main; both are empty for main's.
	Board, Period string
	Body          []byte
	Attempts      int // attempts made before this one
}

// StandingsExporter writes the final standings of closed months.
type StandingsExporter interface {
	// ExportStandings writes closed month m's final standings to w as CSV in
	// rank order. ENOTFOUND when the month never opened; ECONFLICT while it
	// is not CLOSED. An error after the first byte leaves w partial.
	ExportStandings(ctx context.Context, m Month, w io.Writer) error
}
