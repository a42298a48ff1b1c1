package leaderboard

import (
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
// an ENOTSTARTED error there.
func (b *Board) PeriodOf(t time.Time) (string, Span, error) {
	local := t.In(b.Location)
	switch b.Reset {
	case ResetNone:
		return PeriodAll, Span{Start: b.StartsAt, End: b.EndsAt}, nil
	case ResetDay:
		start := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, b.Location)
		return start.Format(time.DateOnly), daySpan(start, 1), nil
	case ResetWeek:
		year, week := local.ISOWeek()
		start := isoWeekStart(year, week, b.Location)
		return weekKey(year, week), daySpan(start, 7), nil
	case ResetMonth:
		m := MonthOf(t, b.Location)
		end := m.End(b.Location)
		return m.String(), Span{Start: m.Start(b.Location), End: &end}, nil
	}
	return "", Span{}, Errorf(ENOTSTARTED, "board %s has no season at %s", b.ID, t.UTC().Format(time.RFC3339))
}

// PeriodSpan returns the calendar span of the period key of b: its day,
// ISO week or month in the board's time zone, or for "all" the board's life.
// EBADINPUT when key is not a key of b's reset. SEASON boards keep their
// spans in the database; here a season key is only checked for its form.
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
		d, err := time.ParseInLocation(time.DateOnly, key, b.Location)
		if err != nil || len(key) != len(time.DateOnly) {
			return bad("YYYY-MM-DD")
		}
		start := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, b.Location)
		return daySpan(start, 1), nil
	case ResetWeek:
		year, week, ok := parseWeekKey(key)
		if !ok {
			return bad("YYYY-Www, ISO weeks")
		}
		return daySpan(isoWeekStart(year, week, b.Location), 7), nil
	case ResetMonth:
		m, err := ParseMonth(key)
		if err != nil {
			return bad("YYYY-MM")
		}
		end := m.End(b.Location)
		return Span{Start: m.Start(b.Location), End: &end}, nil
	}
	if err := CheckSeasonKey(key); err != nil {
		return Span{}, err
	}
	return Span{}, nil
}

// CheckSeasonKey returns an EBADINPUT error unless key is 1..64 of
// [A-Za-z0-9_.-].
func CheckSeasonKey(key string) error {
	if !isKeyText(key, MaxSeasonKeyLen, true) {
		return Errorf(EBADINPUT, "season key %q must be 1..%d of A-Z, a-z, 0-9, '_', '.' and '-'", clip(key), MaxSeasonKeyLen)
	}
	return nil
}

// daySpan is the span of days calendar days from start, which is a midnight
// in its location: a day across a daylight-saving change is 23 or 25 hours.
func daySpan(start time.Time, days int) Span {
	end := time.Date(start.Year(), start.Month(), start.Day()+days, 0, 0, 0, 0, start.Location())
	return Span{Start: start, End: &end}
}

// isoWeekStart returns the Monday midnight that starts ISO week week of year
// in loc. January 4th is always in week 1.
func isoWeekStart(year, week int, loc *time.Location) time.Time {
	jan4 := time.Date(year, time.January, 4, 0, 0, 0, 0, loc)
	sinceMonday := (int(jan4.Weekday()) + 6) % 7
	return time.Date(year, time.January, 4-sinceMonday+7*(week-1), 0, 0, 0, 0, loc)
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
