package leaderboard

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// PeriodAll is the key of the one period of a board that never resets.
const PeriodAll = "all"

// MaxSeasonKeyLen is the longest key of a season.
const MaxSeasonKeyLen = 64

// PeriodStatus is where a period is in its life; it only moves forward.
type PeriodStatus string

// The states of a period.
const (
	PeriodNotStarted PeriodStatus = "NOT_STARTED" // before its board's or its own start
	PeriodOpen       PeriodStatus = "OPEN"        // taking scores
	PeriodClosing    PeriodStatus = "CLOSING"     // its final ranks are being built
	PeriodClosed     PeriodStatus = "CLOSED"      // its final ranks are frozen
)

// Span is the time a period covers: from Start up to, not including, End.
// A nil End is a period that runs until its board ends.
type Span struct {
	Start time.Time
	End   *time.Time
}

// Contains reports whether t lies in the span.
func (s Span) Contains(t time.Time) bool {
	return !t.Before(s.Start) && (s.End == nil || t.Before(*s.End))
}

// PeriodOf returns the key and span of the period of b whose calendar span
// holds t: the day, the ISO week or the month of t in the board's time zone,
// or "all". It does not look at the board's start or end, and it cannot
// place t on a SEASON board, whose periods are made by createSeason: that is
// an ENOTSTARTED error there. ZoneError's ECONFLICT when the board's time
// zone is not loaded.
func (b *Board) PeriodOf(t time.Time) (string, Span, error) {
	switch b.Reset {
	case ResetNone:
		return PeriodAll, Span{Start: b.StartsAt, End: b.EndsAt}, nil
	case ResetDay, ResetWeek, ResetMonth:
	default:
		return "", Span{}, Errorf(ENOTSTARTED, "board %s has no season at %s", b.ID, t.UTC().Format(time.RFC3339))
	}
	if err := b.ZoneError(); err != nil {
		return "", Span{}, err
	}
	local := t.In(b.Location)
	switch b.Reset {
	case ResetDay:
		year, month, day := local.Date()
		return local.Format(time.DateOnly), daysFrom(year, month, day, 1, b.Location), nil
	case ResetWeek:
		year, week := local.ISOWeek()
		return weekKey(year, week), isoWeekSpan(year, week, b.Location), nil
	}
	return local.Format("2006-01"), daysFrom(local.Year(), local.Month(), 1, 0, b.Location), nil
}

// PeriodSpan returns the calendar span of the period key of b: its day,
// ISO week or month in the board's time zone, or for "all" the board's life.
// EBADINPUT when key is not a key of b's reset, then ZoneError's ECONFLICT
// when b's calendar needs a time zone that is not loaded. SEASON boards keep
// their spans in the database; here a season key is only checked for its form.
func (b *Board) PeriodSpan(key string) (Span, error) {
	bad := func(form string) (Span, error) {
		return Span{}, Errorf(EBADINPUT, "period %q is not a key of board %s (%s periods are %s)",
			clip(key), b.ID, b.Reset, form)
	}
	switch b.Reset {
	case ResetNone:
		if key != PeriodAll {
			return bad(`the one period "all"`)
		}
		return Span{Start: b.StartsAt, End: b.EndsAt}, nil
	case ResetDay:
		d, err := time.Parse(time.DateOnly, key)
		if err != nil || len(key) != len(time.DateOnly) || d.Year() < 1 {
			return bad("YYYY-MM-DD")
		} else if err := b.ZoneError(); err != nil {
			return Span{}, err
		}
		return b.spanInTime(key, daysFrom(d.Year(), d.Month(), d.Day(), 1, b.Location))
	case ResetWeek:
		year, week, ok := parseWeekKey(key)
		if !ok {
			return bad("YYYY-Www, ISO weeks")
		} else if err := b.ZoneError(); err != nil {
			return Span{}, err
		}
		return b.spanInTime(key, isoWeekSpan(year, week, b.Location))
	case ResetMonth:
		m, err := ParseMonth(key)
		if err != nil {
			return bad("YYYY-MM")
		} else if err := b.ZoneError(); err != nil {
			return Span{}, err
		}
		return b.spanInTime(key, daysFrom(m.Year(), m.Month(), 1, 0, b.Location))
	}
	if err := CheckSeasonKey(key); err != nil {
		return Span{}, err
	}
	return Span{}, nil
}

// MinTime and MaxTime are the first and last instants the API reads and
// writes: RFC 3339 has four-digit years, 0001..9999 as Go writes them.
var (
	MinTime = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(9999, time.December, 31, 23, 59, 59, 999999999, time.UTC)
)

// InTime reports whether t lies within MinTime..MaxTime.
func InTime(t time.Time) bool {
	return !t.Before(MinTime) && !t.After(MaxTime)
}

// CheckSpan returns an EBADINPUT error naming period key unless the span,
// and its end plus the board's close grace (the period's closesAt), lie
// within MinTime..MaxTime: a period the API could not write the times of,
// such as the day 9999-12-31 in UTC, which ends at 10000-01-01T00:00:00Z.
func (b *Board) CheckSpan(key string, s Span) error {
	if !InTime(s.Start) {
		return Errorf(EBADINPUT, "period %q of board %s would start at %s, before %s, the first time the API writes",
			clip(key), b.ID, s.Start.UTC().Format(time.RFC3339), MinTime.Format(time.RFC3339))
	}
	if s.End != nil && !InTime(s.End.Add(b.CloseGrace)) {
		return Errorf(EBADINPUT, "period %q of board %s would end (or close, with its close grace) after %s, the last time the API writes",
			clip(key), b.ID, MaxTime.Format(time.RFC3339))
	}
	return nil
}

// spanInTime returns s, or CheckSpan's error.
func (b *Board) spanInTime(key string, s Span) (Span, error) {
	if err := b.CheckSpan(key, s); err != nil {
		return Span{}, err
	}
	return s, nil
}

// CheckSeasonKey returns an EBADINPUT error unless key is 1..64 of
// [A-Za-z0-9_.-].
func CheckSeasonKey(key string) error {
	if !isKeyText(key, MaxSeasonKeyLen, true) {
		return Errorf(EBADINPUT, "season key %q must be 1..%d of A-Z, a-z, 0-9, '_', '.' and '-'", clip(key), MaxSeasonKeyLen)
	}
	return nil
}

// daysFrom is the span of the calendar days from year-month-day in loc, for
// days days, or to the same day of the next month when days is 0. A day
// across a daylight-saving change is 23 or 25 hours.
func daysFrom(year int, month time.Month, day, days int, loc *time.Location) Span {
	start := dayStart(year, month, day, loc)
	var end time.Time
	if days == 0 {
		end = dayStart(year, month+1, day, loc)
	} else {
		end = dayStart(year, month, day+days, loc)
	}
	return Span{Start: start, End: &end}
}

// dayStart returns the first instant of the calendar day year-month-day
// (normalised as time.Date does) in loc: its midnight, or, in a zone whose
// daylight-saving change skips midnight (America/Santiago, Atlantic/Azores),
// the instant the clocks jump forward, which time.Date would place in the
// day before.
func dayStart(year int, month time.Month, day int, loc *time.Location) time.Time {
	year, month, day = time.Date(year, month, day, 12, 0, 0, 0, time.UTC).Date()
	t := time.Date(year, month, day, 0, 0, 0, 0, loc)
	if t.Day() != day {
		_, jump := t.ZoneBounds()
		return jump
	}
	return t
}

// isoWeekSpan returns the span of ISO week week of year in loc, Monday to
// Monday. January 4th is always in week 1.
func isoWeekSpan(year, week int, loc *time.Location) Span {
	jan4 := time.Date(year, time.January, 4, 12, 0, 0, 0, time.UTC)
	sinceMonday := (int(jan4.Weekday()) + 6) % 7
	return daysFrom(year, time.January, 4-sinceMonday+7*(week-1), 7, loc)
}

// isoWeeks returns the number of ISO weeks of year, 52 or 53: December 28th
// is always in the year's last week.
func isoWeeks(year int) int {
	_, week := time.Date(year, time.December, 28, 12, 0, 0, 0, time.UTC).ISOWeek()
	return week
}

// weekKey is the key of ISO week week of year, such as "2026-W48".
func weekKey(year, week int) string { return fmt.Sprintf("%04d-W%02d", year, week) }

// parseWeekKey parses "YYYY-Www" with a week the year has.
func parseWeekKey(key string) (year, week int, ok bool) {
	if len(key) != len("2006-W01") || key[4:6] != "-W" {
		return 0, 0, false
	}
	year, errYear := strconv.Atoi(key[:4])
	week, errWeek := strconv.Atoi(key[6:])
	if errYear != nil || errWeek != nil || key[0] == '+' || key[6] == '+' || year < 1 ||
		week < 1 || week > isoWeeks(year) {
		return 0, 0, false
	}
	return year, week, true
}

// Period is one period of a board: a day, an ISO week, a month, a season or
// the one period "all", with the month's lifecycle.
type Period struct {
	Board    string
	Key      string
	Status   PeriodStatus
	StartsAt time.Time
	EndsAt   *time.Time // nil only for a NONE board without an end
	// ClosesAt is EndsAt plus the board's close grace: events are taken
	// until then, and then the period is closed automatically.
	ClosesAt     *time.Time
	ClosedAt     *time.Time
	Participants int
	// Digest is as MonthInfo.Digest: "" until the period is CLOSED.
	Digest     string
	Settlement *Settlement // nil while the period is not CLOSED
}

// UnopenedPeriod returns the period key of b, whose calendar span is span,
// as it stands at now before any event opened it: NOT_STARTED before it
// starts, OPEN until it closes. It returns nil for a period that no event
// will ever open: one that starts at or after the board's end, ends before
// the board's start, or whose events are no longer taken.
func (b *Board) UnopenedPeriod(key string, span Span, now time.Time) *Period {
	p := &Period{Board: b.ID, Key: key, Status: PeriodOpen, StartsAt: span.Start, EndsAt: span.End}
	if b.StartsAt.After(p.StartsAt) {
		p.StartsAt = b.StartsAt
	}
	if p.EndsAt != nil {
		closesAt := p.EndsAt.Add(b.CloseGrace)
		p.ClosesAt = &closesAt
	}
	switch {
	case b.EndsAt != nil && !span.Start.Before(*b.EndsAt),
		p.EndsAt != nil && !p.EndsAt.After(p.StartsAt),
		p.ClosesAt != nil && !now.Before(*p.ClosesAt):
		return nil
	case now.Before(p.StartsAt):
		p.Status = PeriodNotStarted
	}
	return p
}

// PeriodService reads the periods of boards, main's months among them, and
// makes seasons.
type PeriodService interface {
	// Period returns period key of board: the stored period, or, for one
	// no event opened yet, how it stands (see Board.UnopenedPeriod); nil when
	// there is none. ENOTFOUND for an unknown board, EBADINPUT for a key
	// that is not one of the board's.
	Period(ctx context.Context, board, key string) (*Period, error)
	// CurrentPeriod returns the period of b that takes scores now, nil
	// before the board's start and after its end.
	CurrentPeriod(ctx context.Context, b *Board) (*Period, error)
	// CurrentKey returns the key of the period CurrentPeriod would return,
	// and false when there is none, reading as little as it can.
	CurrentKey(ctx context.Context, b *Board) (string, bool, error)
	// BoardStatus returns b's state: NOT_STARTED before its start, ENDED
	// once its end has passed and its last period is CLOSED (or never
	// opened), RUNNING between.
	BoardStatus(ctx context.Context, b *Board) (BoardStatus, error)
	// OpenedPeriod returns period key of b as stored: nil when no event
	// opened it (nor createSeason made it), where Period answers how it
	// would stand. It reads what may lag the primary a little (a replica).
	// EBADINPUT for a key of main that is not a month.
	OpenedPeriod(ctx context.Context, b *Board, key string) (*Period, error)
	// Periods returns up to first periods of b that events opened (or
	// createSeason made), newest first. It reads what may lag the primary a
	// little (a replica).
	Periods(ctx context.Context, b *Board, first int) ([]Period, error)
	// CreateSeason makes season key of a SEASON board. An identical season
	// again answers the existing one; ECONFLICT for a key with other times
	// or a season that overlaps another; EBADINPUT for a board that is not
	// a SEASON board, a malformed key, or times outside the board's life;
	// ENOTFOUND for an unknown board.
	CreateSeason(ctx context.Context, board, key string, startsAt, endsAt time.Time) (*Period, error)
}
