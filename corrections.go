package leaderboard

import (
	"context"
	"strings"
	"time"
)

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
	// Erasure names the erasure (erasePlayer) that made this correction or
	// took its player's id out of it; PlayerID is then "".
	Erasure *string
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

// CorrectionService changes and lists corrections.
type CorrectionService interface {
	// CorrectScore sets player's total in period key of board to *score, or
	// removes the player from the period when score is nil (their later
	// events for it are then REJECTED with FORBIDDEN), and records the
	// correction with its reason. A CLOSED period's final ranks are rebuilt
	// with its digest and a month.corrected (MONTH boards) or
	// period.corrected message. main's periods are its months. EBADINPUT for
	// a score outside the board's bounds, a bad reason (CheckReason) or a
	// key that is not the board's; ENOTFOUND for an unknown board, a period
	// no event opened or a player to remove who has no score; ECONFLICT
	// while the period is CLOSING.
	CorrectScore(ctx context.Context, board, key, playerID string, score *int, reason string) (*Correction, error)
	// Corrections lists the corrections of period key of board (clears
	// included), oldest first; none for a period no event opened.
	Corrections(ctx context.Context, board, key string) ([]Correction, error)
}
