package db

import (
	"math"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// FuzzDecodeBoardCursor checks that decodeBoardCursor never panics, refuses
// with BAD_USER_INPUT, and that what it accepts encodes back to a cursor
// that decodes to the same position: no input reaches a query as a
// half-read cursor.
func FuzzDecodeBoardCursor(f *testing.F) {
	for _, c := range []boardCursor{
		{periodID: 1, rank: 1, key: boardKey{sortScore: -9000, reachedAt: time.Date(2026, 11, 3, 4, 5, 6, 7000, time.UTC), seq: 42}},
		{periodID: math.MaxInt32, rank: math.MaxInt32, key: boardKey{sortScore: 1 << 31, sortSubscore: math.MaxInt64, reachedAt: time.Unix(0, -1), seq: 1}},
		{periodID: 7, rank: 0, key: boardKey{sortScore: -1 << 31, sortSubscore: -3, seq: math.MaxInt64}},
	} {
		f.Add(c.encode())
	}
	for _, s := range []string{"", "YjE6MToxOjA6MDowOjE", "b1:1:1:0:0:0:1", "====", "YjE6MDoxOjA6MDowOjE", "djE6MjAyNi0xMToxOjA6MDow"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeBoardCursor(s)
		if err != nil {
			if code := leaderboard.ErrorCode(err); code != leaderboard.EBADINPUT {
				t.Fatalf("decodeBoardCursor(%q): code %s, want BAD_USER_INPUT", s, code)
			}
			return
		}
		if c == nil {
			if s != "" {
				t.Fatalf("decodeBoardCursor(%q) = nil without an error", s)
			}
			return
		}
		if c.periodID < 1 || c.rank < 0 || c.key.seq < 1 {
			t.Fatalf("decodeBoardCursor(%q) = %+v: a field this API never writes", s, c)
		}
		again, err := decodeBoardCursor(c.encode())
		if err != nil || again.periodID != c.periodID || again.rank != c.rank || again.key.compare(c.key) != 0 {
			t.Fatalf("decodeBoardCursor(%q) = %+v, which does not round-trip: %+v, %v", s, c, again, err)
		}
	})
}
