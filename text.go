package leaderboard

import "unicode/utf8"

// Text the API takes (player ids, event ids, player names) is stored, logged
// and shown to other players, so it must not carry characters that change how
// the text around it is read:
//
//   - control characters: C0 (U+0000–U+001F, NUL included), DEL (U+007F) and
//     C1 (U+0080–U+009F). PostgreSQL refuses NUL in text, and the others
//     forge log lines and terminal output.
//   - bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069):
//     they reverse or reorder the text after them, so a name can display as
//     something else entirely.
//   - in ids and event ids only, the implicit direction marks U+200E, U+200F
//     and U+061C: invisible, they make two ids that look the same but differ.
//     Names may hold them, as mixed-direction names sometimes need them and
//     they cannot reorder the text around them.
//
// A text kind says which of these rules apply.
type textKind int

const (
	idText   textKind = iota // player ids and event ids
	nameText                 // player names
)

// forbiddenRune returns the first rune of s that text of kind k may not hold,
// and whether there is one. s must be valid UTF-8.
func forbiddenRune(s string, k textKind) (rune, bool) {
	for _, r := range s {
		if isControl(r) || isBidiFormatting(r) || (k == idText && isDirectionMark(r)) {
			return r, true
		}
	}
	return 0, false
}

func isControl(r rune) bool { return r <= 0x1F || (r >= 0x7F && r <= 0x9F) }

func isBidiFormatting(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

func isDirectionMark(r rune) bool { return r == 0x200E || r == 0x200F || r == 0x061C }

// checkText returns an EBADINPUT error naming field unless s is valid UTF-8
// of minLen..maxLen characters free of the characters its kind forbids.
func checkText(field, s string, k textKind, minLen, maxLen int) *Error {
	if !utf8.ValidString(s) {
		return Errorf(EBADINPUT, "%s must be valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n < minLen || n > maxLen {
		if minLen == 0 {
			return Errorf(EBADINPUT, "%s must be at most %d characters", field, maxLen)
		}
		return Errorf(EBADINPUT, "%s must be %d..%d characters", field, minLen, maxLen)
	}
	if r, bad := forbiddenRune(s, k); bad {
		return Errorf(EBADINPUT, "%s must not contain control or bidi formatting characters (found %U)", field, r)
	}
	return nil
}
