package db

import (
	"encoding/base64"
	"fmt"
	"math"
	"testing"
	"time"
)

// A cursor's encoding is the bytes the API has always shown: "b1" and its
// six fields in decimal, ":"-separated, in unpadded URL base64, at every
// field's extremes, and it decodes to the cursor it encodes.
func TestBoardCursorEncode_SameBytesAsEver(t *testing.T) {
	extremes := []boardCursor{
		{periodID: 1, rank: 0, key: boardKey{sortScore: 0, sortSubscore: 0, reachedAt: time.Unix(0, 1), seq: 1}},
		{periodID: math.MaxInt32, rank: math.MaxInt32, key: boardKey{sortScore: -1 << 31, sortSubscore: math.MaxInt64,
			reachedAt: time.Date(2026, 11, 28, 8, 45, 1, 123456000, time.UTC), seq: math.MaxInt64}},
		{periodID: 7, rank: 2_000_000, key: boardKey{sortScore: 1 << 31, sortSubscore: -2_000_000_000,
			reachedAt: time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), seq: 42}},
	}
	for _, c := range extremes {
		want := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "b1:%d:%d:%d:%d:%d:%d", c.periodID, c.rank,
			c.key.sortScore, c.key.sortSubscore, c.key.reachedAt.UnixNano(), c.key.seq))
		if got := c.encode(); got != want {
			t.Fatalf("%+v: encode %q, want %q", c, got, want)
		}
		d, err := decodeBoardCursor(c.encode())
		if err != nil || d.periodID != c.periodID || d.rank != c.rank || d.key.sortScore != c.key.sortScore ||
			d.key.sortSubscore != c.key.sortSubscore || !d.key.reachedAt.Equal(c.key.reachedAt) || d.key.seq != c.key.seq {
			t.Fatalf("%+v: decodes to %+v, %v", c, d, err)
		}
	}
}
