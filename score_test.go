package leaderboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

func TestScoreEvent_Validate(t *testing.T) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	past, future, skewed := now.Add(-time.Hour), now.Add(leaderboard.MaxClockSkew+time.Millisecond), now.Add(time.Second)
	name := strings.Repeat("n", leaderboard.MaxPlayerNameLen+1)
	valid := leaderboard.ScoreEvent{EventID: "e", PlayerID: "p", Mode: leaderboard.ModeSet, Value: 10000, OccurredAt: &past}
	if err := valid.Validate(now); err != nil {
		t.Fatalf("valid event: %v", err)
	}
	for label, change := range map[string]func(*leaderboard.ScoreEvent){
		"no event id":    func(e *leaderboard.ScoreEvent) { e.EventID = "" },
		"long player id": func(e *leaderboard.ScoreEvent) { e.PlayerID = strings.Repeat("p", 65) },
		"no player id":   func(e *leaderboard.ScoreEvent) { e.PlayerID = "" },
		"long name":      func(e *leaderboard.ScoreEvent) { e.PlayerName = &name },
		"unknown mode":   func(e *leaderboard.ScoreEvent) { e.Mode = "MAX" },
		"SET over bound": func(e *leaderboard.ScoreEvent) { e.Value = 10001 },
		"BEST negative":  func(e *leaderboard.ScoreEvent) { e.Mode, e.Value = leaderboard.ModeBest, -1 },
		"in the future":  func(e *leaderboard.ScoreEvent) { e.OccurredAt = &future },
		"invalid UTF-8":  func(e *leaderboard.ScoreEvent) { e.PlayerID = "\xff" },
		"long event id":  func(e *leaderboard.ScoreEvent) { e.EventID = strings.Repeat("e", 129) },
	} {
		e := valid
		change(&e)
		if err := e.Validate(now); err == nil || err.Code != leaderboard.EBADINPUT {
			t.Errorf("%s: error %v, want BAD_USER_INPUT", label, err)
		}
	}
	add := valid
	add.Mode, add.Value = leaderboard.ModeAdd, -10000
	if err := add.Validate(now); err != nil {
		t.Errorf("a negative ADD is checked against the total later: %v", err)
	}
	late := valid
	late.OccurredAt = &skewed
	if err := late.Validate(now); err != nil {
		t.Errorf("an event within the clock skew: %v", err)
	}
}

func TestCheckMonth_TakesThisMonthAndTheOneBefore(t *testing.T) {
	jan, _ := leaderboard.ParseMonth("2027-01")
	for s, ok := range map[string]bool{"2027-01": true, "2026-12": true, "2026-11": false, "2001-01": false} {
		m, _ := leaderboard.ParseMonth(s)
		if err := leaderboard.CheckMonth(m, jan); (err == nil) != ok {
			t.Errorf("month %s in %s: %v", s, jan, err)
		}
	}
}

func TestValidate_RefusesControlAndBidiCharacters(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ok := leaderboard.ScoreEvent{EventID: "e1", PlayerID: "p1", Mode: leaderboard.ModeSet, Value: 1}
	if err := ok.Validate(now); err != nil {
		t.Fatalf("a clean event: %v", err)
	}
	for _, bad := range []string{"a\x00b", "a\tb", "a\nb", "\x7f", "a\u0085b", "\u202eevil", "a\u2066b", "\u200f", "\u061c"} {
		for _, field := range []string{"eventId", "playerId", "playerName"} {
			e := ok
			switch field {
			case "eventId":
				e.EventID = bad
			case "playerId":
				e.PlayerID = bad
			case "playerName":
				e.PlayerName = &bad
			}
			if err := e.Validate(now); err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, field) {
				t.Errorf("%s %q: %v", field, bad, err)
			}
		}
		if err := leaderboard.CheckPlayerID(bad); err == nil {
			t.Errorf("CheckPlayerID(%q) accepted it", bad)
		}
	}
	for _, fine := range []string{"Zoë", "玩家一号", "ناصر", "a b", "emoji 🎮"} {
		e := ok
		e.PlayerName = &fine
		if err := e.Validate(now); err != nil {
			t.Errorf("name %q: %v", fine, err)
		}
	}
}

// A zone offset beyond ±18:00, or with a minute of 60, is not a time any
// clock shows: Go's parser takes both, ParseOccurredAt does not.
func TestParseOccurredAt_HoldsZoneOffsetsWithin18Hours(t *testing.T) {
	for s, want := range map[string]time.Time{
		"2026-11-20T10:00:00+18:00":      time.Date(2026, 11, 19, 16, 0, 0, 0, time.UTC),
		"2026-11-20T10:00:00-18:00":      time.Date(2026, 11, 21, 4, 0, 0, 0, time.UTC),
		"2026-11-20T10:00:00.5+14:00":    time.Date(2026, 11, 19, 20, 0, 0, 5e8, time.UTC),
		"2026-11-20T10:00:00-00:00":      time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		"2026-11-20T10:00:00+05:59":      time.Date(2026, 11, 20, 4, 1, 0, 0, time.UTC),
		"2026-11-20T10:00:59.999999999Z": time.Date(2026, 11, 20, 10, 0, 59, 999999999, time.UTC),
	} {
		if got, err := leaderboard.ParseOccurredAt(s); err != nil || !got.Equal(want) {
			t.Errorf("ParseOccurredAt(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{
		"2026-11-20T10:00:00+24:00", "2026-11-20T10:00:00-24:00", "2026-11-20T10:00:00+18:01",
		"2026-11-20T10:00:00-18:01", "2026-11-20T10:00:00+24:59", "2026-11-20T10:00:00+05:60",
		"2026-11-20T10:00:00.5+19:00",
	} {
		if _, err := leaderboard.ParseOccurredAt(s); err == nil || err.Code != leaderboard.EBADINPUT {
			t.Errorf("ParseOccurredAt(%q): error %v, want BAD_USER_INPUT", s, err)
		}
	}
}

// RFC 3339 writes four-digit years: 0000 (which Go reads) and times an
// offset moves out of 0001..9999 are refused.
func TestParseOccurredAt_HoldsYears0001To9999(t *testing.T) {
	for _, s := range []string{"0001-01-01T00:00:00.000001Z", "9999-12-31T23:59:59.999999999Z", "9999-12-31T23:00:00+05:00"} {
		if _, err := leaderboard.ParseOccurredAt(s); err != nil {
			t.Errorf("ParseOccurredAt(%q): %v", s, err)
		}
	}
	for _, s := range []string{"0000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:00:00-05:00"} {
		if _, err := leaderboard.ParseOccurredAt(s); err == nil || err.Code != leaderboard.EBADINPUT {
			t.Errorf("ParseOccurredAt(%q): error %v, want BAD_USER_INPUT", s, err)
		}
	}
}
