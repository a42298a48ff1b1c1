package leaderboard_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The characters that ids, event ids and names refuse, by rule.
var forbiddenInAllText = map[string]string{
	"NUL":               "\x00",
	"tab (C0)":          "\t",
	"newline (C0)":      "\n",
	"unit separator":    "\x1f",
	"DEL":               "\x7f",
	"C1 first (U+0080)": "\u0080",
	"NEL (C1)":          "\u0085",
	"C1 last (U+009F)":  "\u009f",
	"LRE (U+202A)":      "\u202a",
	"RLE (U+202B)":      "\u202b",
	"PDF (U+202C)":      "\u202c",
	"LRO (U+202D)":      "\u202d",
	"RLO (U+202E)":      "\u202e",
	"LRI (U+2066)":      "\u2066",
	"RLI (U+2067)":      "\u2067",
	"FSI (U+2068)":      "\u2068",
	"PDI (U+2069)":      "\u2069",
}

// Invisible direction marks: refused in ids, allowed in names.
var directionMarks = map[string]string{
	"LRM (U+200E)": "\u200e",
	"RLM (U+200F)": "\u200f",
	"ALM (U+061C)": "\u061c",
}

// Characters next to the forbidden ranges, and ordinary non-ASCII text, pass.
var allowedText = []string{"space here", "~", "\u00a0nbsp", "\u00a1", "élodie", "名前", "مرحبا", "\u2029", "\u202f", "\u2065", "\u206a", "😀"}

func TestCheckPlayerID_RefusesControlAndBidi(t *testing.T) {
	for label, r := range merge(forbiddenInAllText, directionMarks) {
		for _, id := range []string{r, "a" + r, r + "b", "a" + r + "b"} {
			if err := leaderboard.CheckPlayerID(id); err == nil || err.Code != leaderboard.EBADINPUT {
				t.Errorf("%s in %q: error %v, want BAD_USER_INPUT", label, id, err)
			}
		}
	}
	for _, id := range allowedText {
		if err := leaderboard.CheckPlayerID(id); err != nil {
			t.Errorf("%q: %v, want accepted", id, err)
		}
	}
}

func TestScoreEvent_Validate_RefusesControlAndBidi(t *testing.T) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	valid := leaderboard.ScoreEvent{EventID: "e", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1}
	field := map[string]func(e *leaderboard.ScoreEvent, s string){
		"eventId":    func(e *leaderboard.ScoreEvent, s string) { e.EventID = s },
		"playerId":   func(e *leaderboard.ScoreEvent, s string) { e.PlayerID = s },
		"playerName": func(e *leaderboard.ScoreEvent, s string) { e.PlayerName = &s },
	}
	for name, set := range field {
		for label, r := range forbiddenInAllText {
			e := valid
			set(&e, "x"+r+"y")
			err := e.Validate(now)
			if err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, name) {
				t.Errorf("%s with %s: error %v, want BAD_USER_INPUT naming %s", name, label, err, name)
			}
		}
		for _, s := range allowedText {
			e := valid
			set(&e, s)
			if err := e.Validate(now); err != nil {
				t.Errorf("%s %q: %v, want accepted", name, s, err)
			}
		}
	}
	for label, r := range directionMarks {
		ids := valid
		ids.EventID = "e" + r
		if err := ids.Validate(now); err == nil {
			t.Errorf("eventId with %s accepted, want BAD_USER_INPUT", label)
		}
		named := valid
		name := "Sam" + r
		named.PlayerName = &name
		if err := named.Validate(now); err != nil {
			t.Errorf("playerName with %s: %v, want accepted", label, err)
		}
	}
	empty := ""
	named := valid
	named.PlayerName = &empty
	if err := named.Validate(now); err != nil {
		t.Errorf("empty playerName: %v, want accepted", err)
	}
}

func TestParseOccurredAt(t *testing.T) {
	for s, want := range map[string]time.Time{
		"2026-11-20T10:00:00Z":           time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		"2026-11-20T10:00:00.5+01:00":    time.Date(2026, 11, 20, 9, 0, 0, 5e8, time.UTC),
		"2026-11-20T10:00:00.123456789Z": time.Date(2026, 11, 20, 10, 0, 0, 123456789, time.UTC),
	} {
		if got, err := leaderboard.ParseOccurredAt(s); err != nil || !got.Equal(want) {
			t.Errorf("ParseOccurredAt(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "yesterday", "2026-11-20", "2026-11-20 10:00:00Z", "2026-13-01T00:00:00Z", "2026-11-20T10:00:00", "2026-11-20T10:00:00Z\x00"} {
		if _, err := leaderboard.ParseOccurredAt(s); err == nil || err.Code != leaderboard.EBADINPUT {
			t.Errorf("ParseOccurredAt(%q): error %v, want BAD_USER_INPUT", s, err)
		}
	}
}

func merge(sets ...map[string]string) map[string]string {
	all := map[string]string{}
	for _, m := range sets {
		maps.Copy(all, m)
	}
	return all
}
