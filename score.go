package leaderboard

import (
	"context"
	"encoding/json"
	"time"
)

// ScoreMode says how an event's value changes a player's total.
type ScoreMode string

// The score modes.
const (
	ModeAdd  ScoreMode = "ADD"  // add the value (negative values subtract)
	ModeSet  ScoreMode = "SET"  // replace the total
	ModeBest ScoreMode = "BEST" // keep the higher of total and value
)

// ScoreStatus is what became of one score event.
type ScoreStatus string

// The outcomes of a score event.
const (
	StatusApplied   ScoreStatus = "APPLIED"   // the total or its first entry was written
	StatusDuplicate ScoreStatus = "DUPLICATE" // the event id was applied before
	StatusUnchanged ScoreStatus = "UNCHANGED" // accepted, the total stayed as it was
	StatusRejected  ScoreStatus = "REJECTED"  // not applied; see the result's error
)

// ScoreEvent is one score change sent by a game server.
type ScoreEvent struct {
	EventID    string // idempotency key, one per board
	PlayerID   string
	PlayerName *string
	Mode       ScoreMode
	Value      int
	OccurredAt *time.Time // nil means the server's time of arrival
	// Board is the board the event counts on; "" is MainBoard.
	Board string
	// Subscore breaks ties of the total on a board whose tiebreak says so;
	// the row keeps that of the newest event that changed it.
	Subscore *int
	// Metadata is a JSON object the row keeps from the newest event that
	// changed it; nil when the event has none. Validate leaves it to
	// NormalizeMetadata, which checks it and returns it as it is stored.
	Metadata json.RawMessage
}

// BoardID returns the id of the event's board.
func (e ScoreEvent) BoardID() string {
	if e.Board == "" {
		return MainBoard
	}
	return e.Board
}

// ScoreResult is the outcome of one ScoreEvent.
type ScoreResult struct {
	EventID  string
	Status   ScoreStatus
	Month    Month  // main's only; zero for an event rejected before its month was known
	PlayerID string // the event's player
	Score    *int   // the total after the event; nil when rejected
	Err      *Error // why the event was rejected; nil otherwise
	// Board is the event's board; Period the key of its period, "" when
	// the event was rejected before its period was known (on main, the
	// month's key).
	Board  string
	Period string
}

// Reject returns a REJECTED result for e carrying err.
func Reject(e ScoreEvent, err *Error) ScoreResult {
	return ScoreResult{EventID: e.EventID, Status: StatusRejected, PlayerID: e.PlayerID, Err: err}
}

// Validate checks what can be checked of e without the database: the ids and
// the name (length, UTF-8 in NFC, no control, bidi formatting or other
// default-ignorable characters: see text.go), the mode, the value's range
// for SET and BEST, and that it did not occur after now. It returns an
// EBADINPUT error or nil. The metadata's content is NormalizeMetadata's to
// check, as the one pass that also gives the text to store.
func (e ScoreEvent) Validate(now time.Time) *Error {
	if err := checkText("eventId", e.EventID, idText, 1, MaxEventIDLen); err != nil {
		return err
	}
	if err := CheckPlayerID(e.PlayerID); err != nil {
		return err
	}
	if e.PlayerName != nil {
		if err := checkText("playerName", *e.PlayerName, nameText, 0, MaxPlayerNameLen); err != nil {
			return err
		}
	}
	switch {
	case e.Mode != ModeAdd && e.Mode != ModeSet && e.Mode != ModeBest:
		return Errorf(EBADINPUT, "mode %q is not one of ADD, SET, BEST", e.Mode)
	// Other boards check values against their own bounds (Board.Decide).
	case e.BoardID() == MainBoard && e.Mode == ModeAdd && (e.Value < -MaxScore || e.Value > MaxScore):
		return Errorf(EBADINPUT, "value %d of an ADD is outside %d..%d", e.Value, -MaxScore, MaxScore)
	case e.BoardID() == MainBoard && e.Mode != ModeAdd && (e.Value < MinScore || e.Value > MaxScore):
		return OutOfRange(e.Value)
	case e.BoardID() == MainBoard && (e.Subscore != nil || e.Metadata != nil):
		return Errorf(EBADINPUT, "the board main keeps no subscore or metadata: send them to a board made with createBoard")
	case e.OccurredAt != nil && e.OccurredAt.IsZero():
		return Errorf(EBADINPUT, "occurredAt must be an RFC 3339 time such as 2026-11-22T10:04:05Z")
	case e.OccurredAt != nil && e.OccurredAt.After(now.Add(MaxClockSkew)):
		return Errorf(EBADINPUT, "occurredAt %s lies in the future", e.OccurredAt.Format(time.RFC3339Nano))
	}
	if e.Board != "" {
		if err := CheckBoardID(e.Board); err != nil {
			return err.(*Error)
		}
	}
	return nil
}

// CheckMonth returns an EBADINPUT error when an event of month m arrives too
// late to count: only the month of now and the one before take events, so
// that a stray timestamp cannot open a long-gone month.
func CheckMonth(m, nowMonth Month) *Error {
	if m.Before(nowMonth.Prev()) {
		return Errorf(EBADINPUT, "the event falls in %s; events count only in %s and %s", m, nowMonth.Prev(), nowMonth)
	}
	return nil
}

// MaxClockSkew is how far ahead of the server's clock an event's occurredAt
// may be: game servers' clocks are never exactly in step with ours.
const MaxClockSkew = 2 * time.Second

// OutOfRange is the error for a total outside MinScore..MaxScore.
func OutOfRange(total int) *Error {
	return Errorf(EBADINPUT, "total %d is outside the allowed range %d..%d", total, MinScore, MaxScore)
}

// CheckPlayerID returns an EBADINPUT error unless id is valid UTF-8 in NFC of
// 1..MaxPlayerIDLen characters with no control characters (NUL included) and
// no default-ignorable code points (zero-width characters, direction marks,
// bidi formatting, variation selectors, tags...): the rules of text.go.
func CheckPlayerID(id string) *Error {
	return checkText("playerId", id, idText, 1, MaxPlayerIDLen)
}

// ParseOccurredAt reads an event's occurredAt, an RFC 3339 time whose zone
// offset lies within ±MaxZoneOffset, within MinTime..MaxTime; anything else
// is an EBADINPUT error. A
// resolver that takes occurredAt as a string calls it per event, so that one
// malformed time rejects that event only.
func ParseOccurredAt(s string) (time.Time, *Error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, Errorf(EBADINPUT, "occurredAt %q is not an RFC 3339 time", s)
	}
	// Go's parser takes offsets up to ±24:59 and a minute of 60. Unless the
	// zone is Z, the offset is the last six characters, ±hh:mm.
	_, offset := t.Zone()
	if offset < -MaxZoneOffset || offset > MaxZoneOffset || (s[len(s)-1] != 'Z' && s[len(s)-2:] > "59") {
		return time.Time{}, Errorf(EBADINPUT, "occurredAt %q has a zone offset outside -18:00..+18:00 (or a minute past 59)", s)
	}
	// Go reads the year 0000, and an offset can move 0001 or 9999 out of
	// the years RFC 3339 writes.
	if !InTime(t) {
		return time.Time{}, Errorf(EBADINPUT, "occurredAt %q lies outside %s..%s", s,
			MinTime.Format(time.RFC3339), MaxTime.Format(time.RFC3339))
	}
	return t, nil
}

// MaxZoneOffset is the widest zone offset an occurredAt may carry, in
// seconds: 18 hours, which holds every zone in use (-12:00..+14:00) and is
// the range ISO 8601 libraries such as java.time accept.
const MaxZoneOffset = 18 * 60 * 60

// ScoreService takes score events.
type ScoreService interface {
	// SubmitScores applies events in order, each atomically on its own, and
	// returns one result per event. EBADINPUT when there are more than MaxBatch.
	SubmitScores(ctx context.Context, events []ScoreEvent) ([]ScoreResult, error)
}
