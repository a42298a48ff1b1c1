package leaderboard

import "strings"

// unsafeText reports whether s holds a rune that has no place in an id or a
// display name: a control character (C0 with NUL, DEL, C1) or a
// bidirectional-text control, which can make a name render as another
// (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069).
func unsafeText(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		switch {
		case r < 0x20, r >= 0x7f && r < 0xa0:
			return true
		case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return true
		}
		return false
	})
}
