package leaderboard_test

import (
	"testing"

	"github.com/gamebackend/leaderboard"
)

// FuzzParseMonth checks that ParseMonth never panics, refuses with
// BAD_USER_INPUT, and accepts only the canonical form of a valid month.
func FuzzParseMonth(f *testing.F) {
	for _, s := range []string{"2026-11", "0001-01", "9999-12", "2026-13", "2026-1", "", "2026-11\x00", "٢٠٢٦-١١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := leaderboard.ParseMonth(s)
		if err != nil {
			if code := leaderboard.ErrorCode(err); code != leaderboard.EBADINPUT {
				t.Fatalf("ParseMonth(%q): code %s, want BAD_USER_INPUT", s, code)
			}
			return
		}
		if m.IsZero() || m.String() != s {
			t.Fatalf("ParseMonth(%q) = %v, which prints as %q", s, m, m.String())
		}
		if m.Month() < 1 || m.Month() > 12 || m.Year() < 1 || m.Year() > 9999 {
			t.Fatalf("ParseMonth(%q) = %v, out of range", s, m)
		}
	})
}
