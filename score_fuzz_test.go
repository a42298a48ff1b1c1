package leaderboard_test

import (
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/gamebackend/leaderboard"
)

// FuzzScoreEvent_Validate checks that Validate never panics, refuses only
// with BAD_USER_INPUT, and never accepts an event whose ids or name hold
// invalid UTF-8, control characters, bidi formatting characters, text not in
// NFC or default-ignorable code points (in a name, only the joiner and
// presentation selectors of emoji). Its oracles are unicode.IsControl
// (category Cc: C0, DEL, C1), isDefaultIgnorable (computed from the unicode
// package's tables) and norm.NFC, independent of text.go.
func FuzzScoreEvent_Validate(f *testing.F) {
	f.Add("e1", "p1", "Ann", true, "ADD", int64(5), int64(-60))
	f.Add("e\x00", "p", "", false, "SET", int64(10), int64(0))
	f.Add("e", "p\u202e", "n", true, "BEST", int64(-1), int64(3))
	f.Add("e", "p", "n\u2066x", true, "SET", int64(10001), int64(1<<40))
	f.Add("e", "\xff", "n\u200f", true, "MAX", int64(1), int64(-1<<40))
	f.Add("e", "ali\u200bce", "Sam \u2764\ufe0f", true, "ADD", int64(1), int64(0))
	f.Add("e\u0301", "p", "\U0001f469\u200d\U0001f4bb", true, "SET", int64(2), int64(0))
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, eventID, playerID, name string, named bool, mode string, value, offsetSeconds int64) {
		occurredAt := now.Add(time.Duration(offsetSeconds) * time.Second)
		e := leaderboard.ScoreEvent{EventID: eventID, PlayerID: playerID, Mode: leaderboard.ScoreMode(mode),
			Value: int(value), OccurredAt: &occurredAt}
		if named {
			e.PlayerName = &name
		}
		err := e.Validate(now)
		if err != nil {
			if err.Code != leaderboard.EBADINPUT {
				t.Fatalf("%+v: code %s, want BAD_USER_INPUT", e, err.Code)
			}
			return
		}
		texts := []string{eventID, playerID}
		if named {
			texts = append(texts, name)
		}
		for i, s := range texts {
			if !utf8.ValidString(s) {
				t.Fatalf("accepted invalid UTF-8 %q", s)
			}
			if !norm.NFC.IsNormalString(s) {
				t.Fatalf("accepted %q, not in NFC", s)
			}
			isName := i == 2
			for _, r := range s {
				emoji := isName && (r == 0x200D || r == 0xFE0E || r == 0xFE0F)
				if unicode.IsControl(r) || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) ||
					(isDefaultIgnorable(r) && !emoji) {
					t.Fatalf("accepted %U in %q", r, s)
				}
			}
		}
		if eventID == "" || playerID == "" {
			t.Fatalf("accepted an empty id: %+v", e)
		}
		if err := leaderboard.CheckPlayerID(playerID); err != nil {
			t.Fatalf("Validate accepted player id %q that CheckPlayerID refuses: %v", playerID, err)
		}
	})
}
