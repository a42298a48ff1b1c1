package leaderboard

import (
	"encoding/json"
	"math"
	"time"
)

// BoardRow is a player's live row in a period of any board, main included.
type BoardRow struct {
	Score     int
	Subscore  *int
	ReachedAt time.Time
	Metadata  json.RawMessage
}

// SortKey returns the row's place in its board's order as two numbers that
// rank ascending, whatever the board's order and tie-break: the total
// (negated on a DESC board), then the subscore (negated for SUBSCORE_DESC,
// 0 on a board without a tie-break; a missing subscore ranks after every
// subscore). Who reached the key first, then the sequence, break what ties
// remain.
func (b *Board) SortKey(score int, subscore *int) (int64, int64) {
	primary := int64(score)
	if b.Order == OrderDesc {
		primary = -primary
	}
	var secondary int64
	switch {
	case b.TieBreak == TieBreakNone:
	case subscore == nil:
		secondary = math.MaxInt64
	case b.TieBreak == TieBreakSubscoreDesc:
		secondary = -int64(*subscore)
	default:
		secondary = int64(*subscore)
	}
	return primary, secondary
}

// ScoreOfSortKey returns the total and subscore whose SortKey is (sortScore,
// sortSubscore). A board without a tie-break keeps no subscore in its key:
// the subscore is then nil, whatever the row holds.
func (b *Board) ScoreOfSortKey(sortScore, sortSubscore int64) (int, *int) {
	score := int(sortScore)
	if b.Order == OrderDesc {
		score = -score
	}
	var subscore int
	switch {
	case b.TieBreak == TieBreakNone || sortSubscore == math.MaxInt64:
		return score, nil
	case b.TieBreak == TieBreakSubscoreDesc:
		subscore = int(-sortSubscore)
	default:
		subscore = int(sortSubscore)
	}
	return score, &subscore
}

// ranksBefore reports whether (score, subscore) ranks strictly before
// (otherScore, otherSubscore) in b's order.
func (b *Board) ranksBefore(score int, subscore *int, otherScore int, otherSubscore *int) bool {
	p, s := b.SortKey(score, subscore)
	op, os := b.SortKey(otherScore, otherSubscore)
	return p < op || (p == op && s < os)
}

// CheckTotal returns an EBADINPUT error naming the board's bounds unless
// total lies within them.
func (b *Board) CheckTotal(total int) *Error {
	if total < b.MinScore || total > b.MaxScore {
		if b.ID == MainBoard {
			return OutOfRange(total)
		}
		return Errorf(EBADINPUT, "total %d is outside the allowed range %d..%d of board %s", total, b.MinScore, b.MaxScore, b.ID)
	}
	return nil
}

// Decide returns the row that event e, occurring at at, leaves in place of
// row (nil: the player has none yet), and whether it changed: the rules of
// the score modes in the board's order. ADD adds to the total, SET replaces
// it, BEST keeps the better of the row and the event (their subscores
// included on a board that breaks ties by them). A row changes when its
// total does, or, on a board that breaks ties by subscore, its subscore; a
// changed row takes the event's subscore and metadata, and reachedAt moves
// to at, never backwards. EBADINPUT when the total leaves the board's bounds.
func (b *Board) Decide(e ScoreEvent, at time.Time, row *BoardRow) (BoardRow, bool, *Error) {
	if e.Mode != ModeAdd {
		if err := b.CheckTotal(e.Value); err != nil {
			return BoardRow{}, false, err
		}
	}
	if row == nil {
		if err := b.CheckTotal(e.Value); err != nil {
			return BoardRow{}, false, err
		}
		return BoardRow{Score: e.Value, Subscore: e.Subscore, ReachedAt: at, Metadata: e.Metadata}, true, nil
	}
	total, subscore := row.Score, row.Subscore
	switch e.Mode {
	case ModeAdd:
		total, subscore = row.Score+e.Value, e.Subscore
	case ModeSet:
		total, subscore = e.Value, e.Subscore
	case ModeBest:
		if b.ranksBefore(e.Value, e.Subscore, row.Score, row.Subscore) {
			total, subscore = e.Value, e.Subscore
		}
	}
	if err := b.CheckTotal(total); err != nil {
		return *row, false, err
	}
	changed := total != row.Score || (b.TieBreak != TieBreakNone && !sameInt(subscore, row.Subscore))
	if !changed {
		return *row, false, nil
	}
	next := BoardRow{Score: total, Subscore: subscore, ReachedAt: row.ReachedAt, Metadata: e.Metadata}
	if at.After(row.ReachedAt) {
		next.ReachedAt = at
	}
	return next, true, nil
}

func sameInt(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
