package leaderboard

import (
	"fmt"
	"strconv"
	"time"
)

// Month identifies one monthly event, such as 2026-11. Its zero value is not
// a valid month; use ParseMonth, MonthOf or NewMonth.
type Month struct {
	year  int
	month time.Month
}

// NewMonth returns the month of the given year, or an EBADINPUT error when the
// year is outside 1..9999 or the month outside 1..12.
func NewMonth(year int, month time.Month) (Month, error) {
	if year < 1 || year > 9999 || month < time.January || month > time.December {
		return Month{}, Errorf(EBADINPUT, "month %04d-%02d is not a valid month", year, int(month))
	}
	return Month{year: year, month: month}, nil
}

// ParseMonth parses "YYYY-MM"; anything else is an EBADINPUT error that
// says what is wrong: the form, or a month or year number out of range.
func ParseMonth(s string) (Month, error) {
	if len(s) != len("2006-01") || s[4] != '-' || !digits(s[:4]) || !digits(s[5:]) {
		return Month{}, Errorf(EBADINPUT, "month %q is not of the form YYYY-MM", s)
	}
	year, _ := strconv.Atoi(s[:4])
	month, _ := strconv.Atoi(s[5:])
	switch {
	case month < 1 || month > 12:
		return Month{}, Errorf(EBADINPUT, "month %q: the month number %s is out of range (01 to 12)", s, s[5:])
	case year < 1:
		return Month{}, Errorf(EBADINPUT, "month %q: the year %s is out of range (0001 to 9999)", s, s[:4])
	}
	return NewMonth(year, time.Month(month))
}

// digits reports whether s is ASCII digits only.
func digits(s string) bool {
	for _, r := range []byte(s) {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MonthOf returns the month that holds t in the event time zone loc. A nil
// loc, the zone of a board that ZoneError reports, is taken as UTC, as
// time.Location's methods take it.
func MonthOf(t time.Time, loc *time.Location) Month {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return Month{year: t.Year(), month: t.Month()}
}

// IsZero reports whether m is the zero Month, which names no month.
func (m Month) IsZero() bool { return m.year == 0 }

// Year returns the month's year.
func (m Month) Year() int { return m.year }

// Month returns the month of the year.
func (m Month) Month() time.Month { return m.month }

// String returns the month as "YYYY-MM".
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.year, int(m.month)) }

// Start returns the first instant of the month in the event time zone loc.
func (m Month) Start(loc *time.Location) time.Time {
	return time.Date(m.year, m.month, 1, 0, 0, 0, 0, loc)
}

// End returns the first instant after the month in the event time zone loc.
func (m Month) End(loc *time.Location) time.Time {
	return m.Start(loc).AddDate(0, 1, 0)
}

// Date returns the month's first day as a UTC midnight, the form in which the
// database keys months.
func (m Month) Date() time.Time {
	return time.Date(m.year, m.month, 1, 0, 0, 0, 0, time.UTC)
}

// Before reports whether m comes before o.
func (m Month) Before(o Month) bool {
	return m.year < o.year || (m.year == o.year && m.month < o.month)
}

// Prev returns the month before m.
func (m Month) Prev() Month {
	if m.month == time.January {
		return Month{year: m.year - 1, month: time.December}
	}
	return Month{year: m.year, month: m.month - 1}
}

// MonthStatus is where a month is in its life: OPEN while scores are taken,
// CLOSING while its final ranks are built, CLOSED once they are frozen.
type MonthStatus string

// The states of a month; they only ever move forward.
const (
	MonthOpen    MonthStatus = "OPEN"
	MonthClosing MonthStatus = "CLOSING"
	MonthClosed  MonthStatus = "CLOSED"
)

// MonthInfo describes one month of the event.
type MonthInfo struct {
	Month        Month
	Status       MonthStatus
	Participants int       // players with a score in the month
	EndsAt       time.Time // first instant after the month in the event time zone
	// ClosesAt is EndsAt plus the close grace: events are taken until then,
	// and then the month is closed automatically.
	ClosesAt time.Time
	ClosedAt *time.Time // when the final standings were frozen; nil until then
	// Digest is the sha256 (hex) of the final standings, one line
	// "rank,playerId,score\n" per rank; "" until the month is CLOSED.
	Digest string
	// Settlement is the delivery of the month's messages to the studio's
	// reward system; nil while the month is not CLOSED.
	Settlement *Settlement
}

// MonthInfo returns period p of main as its month's info: what the API's
// month fields answer. EBADINPUT when p's
// key is not a month.
func (p *Period) MonthInfo() (*MonthInfo, error) {
	m, err := ParseMonth(p.Key)
	if err != nil {
		return nil, err
	}
	info := &MonthInfo{Month: m, Status: MonthStatus(p.Status), Participants: p.Participants,
		ClosedAt: p.ClosedAt, Digest: p.Digest, Settlement: p.Settlement}
	if p.EndsAt != nil {
		info.EndsAt = *p.EndsAt
	}
	if p.ClosesAt != nil {
		info.ClosesAt = *p.ClosesAt
	}
	return info, nil
}
