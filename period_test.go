package leaderboard

import (
	"testing"
	"time"
)

func mustZone(tb testing.TB, name string) *time.Location {
	tb.Helper()
	loc, err := LoadTimeZone(name)
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}

func boardOf(reset Reset, loc *time.Location) *Board {
	return &Board{ID: "b", Name: "B", Reset: reset, Order: OrderDesc, MaxScore: 10000,
		TieBreak: TieBreakNone, ScoreFormat: ScoreNumber, TimeZone: loc.String(), Location: loc, StartsAt: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func TestPeriodOf_CalendarEdgesInAZoneWithDaylightSaving(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04:05", s, berlin)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name      string
		reset     Reset
		t         time.Time
		key       string
		start     time.Time
		length    time.Duration // 0: not checked
		endsAtKey string        // the key of the instant the span ends at
	}{
		{"day before spring forward", ResetDay, at("2026-03-28 23:59:59"), "2026-03-28", at("2026-03-28 00:00:00"), 24 * time.Hour, "2026-03-29"},
		{"spring forward day is 23h", ResetDay, at("2026-03-29 12:00:00"), "2026-03-29", at("2026-03-29 00:00:00"), 23 * time.Hour, "2026-03-30"},
		{"fall back day is 25h", ResetDay, at("2026-10-25 02:30:00"), "2026-10-25", at("2026-10-25 00:00:00"), 25 * time.Hour, "2026-10-26"},
		{"midnight starts the day", ResetDay, at("2026-11-25 00:00:00"), "2026-11-25", at("2026-11-25 00:00:00"), 24 * time.Hour, "2026-11-26"},
		{"week 53 of 2026", ResetWeek, at("2027-01-03 23:59:59"), "2026-W53", at("2026-12-28 00:00:00"), 7 * 24 * time.Hour, "2027-W01"},
		{"week 1 of 2027 starts on Monday Jan 4", ResetWeek, at("2027-01-04 00:00:00"), "2027-W01", at("2027-01-04 00:00:00"), 7 * 24 * time.Hour, "2027-W02"},
		{"week 1 of 2026 starts in 2025", ResetWeek, at("2025-12-29 08:00:00"), "2026-W01", at("2025-12-29 00:00:00"), 0, "2026-W02"},
		{"week with fall back is 7 days and an hour", ResetWeek, at("2026-10-21 10:00:00"), "2026-W43", at("2026-10-19 00:00:00"), 7*24*time.Hour + time.Hour, "2026-W44"},
		{"month with spring forward", ResetMonth, at("2026-03-31 23:59:59"), "2026-03", at("2026-03-01 00:00:00"), 31*24*time.Hour - time.Hour, "2026-04"},
		{"December to January", ResetMonth, at("2026-12-31 23:00:00"), "2026-12", at("2026-12-01 00:00:00"), 0, "2027-01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := boardOf(tc.reset, berlin)
			key, span, err := b.PeriodOf(tc.t)
			if err != nil {
				t.Fatal(err)
			}
			if key != tc.key || !span.Start.Equal(tc.start) {
				t.Fatalf("PeriodOf(%s) = %s from %s, want %s from %s", tc.t, key, span.Start, tc.key, tc.start)
			}
			if !span.Contains(tc.t) || span.Contains(*span.End) || span.Contains(span.Start.Add(-time.Nanosecond)) {
				t.Fatalf("span %s..%s does not hold exactly its instants", span.Start, span.End)
			}
			if tc.length != 0 && span.End.Sub(span.Start) != tc.length {
				t.Fatalf("span is %s long, want %s", span.End.Sub(span.Start), tc.length)
			}
			next, _, _ := b.PeriodOf(*span.End)
			if next != tc.endsAtKey {
				t.Fatalf("the period after %s is %s, want %s", key, next, tc.endsAtKey)
			}
			back, err := b.PeriodSpan(key)
			if err != nil || !back.Start.Equal(span.Start) || !back.End.Equal(*span.End) {
				t.Fatalf("PeriodSpan(%s) = %v, %v; want the span PeriodOf gave", key, back, err)
			}
		})
	}
}

func TestPeriodOf_EveryHourOfTwoYearsFallsInTheSpanOfItsKey(t *testing.T) {
	// Santiago, Havana and the Azores skip midnight when their clocks go
	// forward: that day starts at 01:00.
	for _, zone := range []string{"UTC", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham",
		"America/Santiago", "America/Havana", "Atlantic/Azores"} {
		loc := mustZone(t, zone)
		for _, reset := range []Reset{ResetDay, ResetWeek, ResetMonth} {
			b := boardOf(reset, loc)
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for tm := start; tm.Before(start.AddDate(2, 0, 0)); tm = tm.Add(time.Hour) {
				key, span, err := b.PeriodOf(tm)
				if err != nil {
					t.Fatal(err)
				}
				if local := tm.In(loc); (reset == ResetDay && key != local.Format(time.DateOnly)) ||
					(reset == ResetMonth && key != local.Format("2006-01")) {
					t.Fatalf("%s %s at %s (%s there): key %s", zone, reset, tm, local, key)
				}
				if !span.Contains(tm) || !span.End.After(span.Start) {
					t.Fatalf("%s %s at %s: key %s spans %s..%s", zone, reset, tm, key, span.Start, span.End)
				}
				back, err := b.PeriodSpan(key)
				if err != nil || !back.Contains(tm) || !back.Start.Equal(span.Start) || !back.End.Equal(*span.End) {
					t.Fatalf("%s %s at %s: key %s gives %v (%v)", zone, reset, tm, key, back, err)
				}
			}
		}
	}
}

func TestPeriodSpan_RefusesKeysOfAnotherReset(t *testing.T) {
	tests := []struct {
		reset Reset
		key   string
	}{
		{ResetDay, "2026-11"}, {ResetDay, "2026-11-31"}, {ResetDay, "2026-11-5"}, {ResetDay, "2026-02-29"},
		{ResetWeek, "2026-W54"}, {ResetWeek, "2025-W53"}, {ResetWeek, "2026-W00"}, {ResetWeek, "2026W48"},
		{ResetWeek, "2026-w48"}, {ResetWeek, "2026-W+1"},
		{ResetMonth, "2026-13"}, {ResetMonth, "2026-11-01"},
		{ResetNone, "ALL"}, {ResetNone, "2026-11"},
		{ResetSeason, ""}, {ResetSeason, "s 1"}, {ResetSeason, string(make([]byte, 65))},
	}
	for _, tc := range tests {
		b := boardOf(tc.reset, time.UTC)
		if _, err := b.PeriodSpan(tc.key); ErrorCode(err) != EBADINPUT {
			t.Errorf("%s board, key %q: %v, want BAD_USER_INPUT", tc.reset, tc.key, err)
		}
	}
	if _, err := boardOf(ResetWeek, time.UTC).PeriodSpan("2026-W53"); err != nil {
		t.Errorf("2026 has 53 ISO weeks: %v", err)
	}
}

func TestPeriodOf_NoneBoardHasOnePeriodForItsLife(t *testing.T) {
	b := boardOf(ResetNone, time.UTC)
	key, span, err := b.PeriodOf(time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || key != PeriodAll || span.End != nil || !span.Start.Equal(b.StartsAt) {
		t.Fatalf("PeriodOf = %q %v %v, want all from the board's start, no end", key, span, err)
	}
	end := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	b.EndsAt = &end
	if _, span, _ := b.PeriodOf(end); !span.End.Equal(end) {
		t.Fatalf("an ended NONE board's period ends at %v, want %s", span.End, end)
	}
}

func TestPeriodOf_SeasonBoardIsNotPlacedByTheCalendar(t *testing.T) {
	b := boardOf(ResetSeason, time.UTC)
	if _, _, err := b.PeriodOf(time.Now()); ErrorCode(err) != ENOTSTARTED {
		t.Fatalf("PeriodOf on a SEASON board: %v, want NOT_STARTED", err)
	}
}

func TestPeriodOf_ADayWhoseMidnightIsSkippedStartsWhenTheClocksJump(t *testing.T) {
	santiago := mustZone(t, "America/Santiago")
	b := boardOf(ResetDay, santiago)
	// On 2026-09-06 Santiago's clocks jump from 00:00 to 01:00.
	key, span, err := b.PeriodOf(time.Date(2026, 9, 6, 12, 0, 0, 0, santiago))
	start := time.Date(2026, 9, 6, 1, 0, 0, 0, santiago)
	if err != nil || key != "2026-09-06" || !span.Start.Equal(start) || span.End.Sub(span.Start) != 23*time.Hour {
		t.Fatalf("PeriodOf = %s %s..%s, %v; want 2026-09-06 from %s, 23 hours", key, span.Start, span.End, err, start)
	}
	_, before, _ := b.PeriodOf(start.Add(-time.Nanosecond))
	if !before.End.Equal(start) || before.End.Sub(before.Start) != 24*time.Hour {
		t.Fatalf("the day before spans %s..%s, want 24 hours up to %s", before.Start, before.End, start)
	}
}

// A period whose times the API cannot write in RFC 3339 (years 0001..9999)
// is not a key: the day 9999-12-31 ends at 10000-01-01T00:00:00Z.
func TestPeriodSpan_RefusesPeriodsOutsideTheYears0001To9999(t *testing.T) {
	tokyo, newYork := mustZone(t, "Asia/Tokyo"), mustZone(t, "America/New_York") // +09:00, -05:00
	tests := []struct {
		reset Reset
		loc   *time.Location
		key   string
		ok    bool
	}{
		{ResetDay, time.UTC, "9999-12-30", true}, {ResetDay, time.UTC, "9999-12-31", false},
		{ResetDay, time.UTC, "0001-01-01", true}, {ResetDay, time.UTC, "0000-12-31", false},
		{ResetDay, tokyo, "0001-01-01", false}, {ResetDay, tokyo, "0001-01-02", true},
		{ResetDay, newYork, "0001-01-01", true}, {ResetDay, tokyo, "9999-12-31", true},
		{ResetWeek, time.UTC, "9999-W51", true}, {ResetWeek, time.UTC, "9999-W52", false},
		{ResetMonth, time.UTC, "9999-11", true}, {ResetMonth, time.UTC, "9999-12", false},
	}
	for _, tc := range tests {
		b := boardOf(tc.reset, tc.loc)
		_, err := b.PeriodSpan(tc.key)
		if tc.ok && err != nil {
			t.Errorf("%s board in %s, key %q: %v", tc.reset, tc.loc, tc.key, err)
		}
		if !tc.ok && ErrorCode(err) != EBADINPUT {
			t.Errorf("%s board in %s, key %q: %v, want BAD_USER_INPUT", tc.reset, tc.loc, tc.key, err)
		}
	}
	// The close grace counts: 9999-12-30 closes past the end of 9999 with
	// a grace over a day.
	b := boardOf(ResetDay, time.UTC)
	b.CloseGrace = 25 * time.Hour
	if _, err := b.PeriodSpan("9999-12-30"); ErrorCode(err) != EBADINPUT {
		t.Errorf("9999-12-30 with a 25 h grace: %v, want BAD_USER_INPUT", err)
	}
}

// A board whose first or last period could not be written is refused.
func TestBoardValidate_RefusesPeriodsOutsideTheYears0001To9999(t *testing.T) {
	at := func(s string) *time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	tests := []struct {
		name     string
		reset    Reset
		startsAt string
		endsAt   string
		grace    time.Duration
		ok       bool
	}{
		{"a day board to the end of 9999-12-30", ResetDay, "2026-01-01T00:00:00Z", "9999-12-31T00:00:00Z", 0, true},
		{"a day board into 9999-12-31", ResetDay, "2026-01-01T00:00:00Z", "9999-12-31T00:00:01Z", 0, false},
		{"a NONE board to the last second", ResetNone, "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z", 0, true},
		{"a NONE board whose grace ends past 9999", ResetNone, "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z", time.Minute, false},
		{"a month board from year 1", ResetMonth, "0001-01-01T00:00:00Z", "", 0, true},
	}
	for _, tc := range tests {
		b := boardOf(tc.reset, time.UTC)
		b.StartsAt, b.CloseGrace = *at(tc.startsAt), tc.grace
		if tc.endsAt != "" {
			b.EndsAt = at(tc.endsAt)
		}
		err := b.Validate()
		if tc.ok && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !tc.ok && ErrorCode(err) != EBADINPUT {
			t.Errorf("%s: %v, want BAD_USER_INPUT", tc.name, err)
		}
	}
	b := boardOf(ResetDay, mustZone(t, "Asia/Tokyo"))
	b.StartsAt = MinTime
	if err := b.Validate(); ErrorCode(err) != EBADINPUT {
		t.Errorf("a Tokyo day board from 0001-01-01T00:00:00Z, whose first day starts in year 0: %v, want BAD_USER_INPUT", err)
	}
}
