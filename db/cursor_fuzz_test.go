package db

import (
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// FuzzDecodeCursor checks that decodeCursor never panics, refuses with
// BAD_USER_INPUT, and that what it accepts encodes back to a cursor that
// decodes to the same position: no input can reach a query as a half-read
// cursor.
func FuzzDecodeCursor(f *testing.F) {
	m, err := leaderboard.ParseMonth("2026-11")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range []cursor{
		{rank: 1},
		{rank: 500, key: boardKey{sortScore: -9000, reachedAt: time.Date(2026, 11, 3, 4, 5, 6, 7, time.UTC), seq: 42}},
		{rank: 1<<31 - 1, key: boardKey{sortScore: 10000, reachedAt: time.Unix(0, -1), seq: -1}},
	} {
		f.Add(c.encode(m))
	}
	for _, s := range []string{"", "djE6MjAyNi0xMToxOjA6MDow", "djE6MjAyNi0xMjoxOjA6MDow", "v1:2026-11:1:0:0:0", "====", "djE6MjAyNi0xMTotMTowOjA6MA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor(s, m)
		if err != nil {
			if code := leaderboard.ErrorCode(err); code != leaderboard.EBADINPUT {
				t.Fatalf("decodeCursor(%q): code %s, want BAD_USER_INPUT", s, code)
			}
			return
		}
		if c == nil {
			if s != "" {
				t.Fatalf("decodeCursor(%q) = nil without an error", s)
			}
			return
		}
		if c.rank < 0 {
			t.Fatalf("decodeCursor(%q): negative rank %d", s, c.rank)
		}
		again, err := decodeCursor(c.encode(m), m)
		if err != nil || again.rank != c.rank || again.key.sortScore != c.key.sortScore ||
			!again.key.reachedAt.Equal(c.key.reachedAt) || again.key.seq != c.key.seq {
			t.Fatalf("decodeCursor(%q) = %+v, which does not round-trip: %+v, %v", s, c, again, err)
		}
	})
}
