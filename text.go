package leaderboard

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text the API takes (player ids, event ids, player names, the sub of a player
// token, the reason of a correction) is stored, logged and shown to other
// players, so it must not carry characters that change how the text around it
// is read, nor differ from another text only in what nobody can see:
//
//   - it is valid UTF-8 in Unicode Normalization Form C (NFC). é typed as
//     U+00E9 and as e + U+0301 display alike but compare different, so only
//     the composed form is taken. Other forms are refused, not normalized: an
//     id is a key the game server keeps, and storing another spelling of it
//     than the one sent would split a player in two.
//   - no control characters: C0 (U+0000–U+001F, NUL included), DEL (U+007F)
//     and C1 (U+0080–U+009F). PostgreSQL refuses NUL in text, and the others
//     forge log lines and terminal output.
//   - no default-ignorable code points (Unicode's derived property
//     Default_Ignorable_Code_Point, the table defaultIgnorable): characters a
//     renderer shows as nothing, so that "alice" and "ali\u200bce" would be two
//     players who look the same. They are the soft hyphen U+00AD, the
//     combining grapheme joiner U+034F, the Arabic letter mark U+061C, the
//     Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the Khmer inherent
//     vowels U+17B4–U+17B5, the Mongolian selectors and vowel separator
//     U+180B–U+180F, zero-width space, non-joiner and joiner and the
//     direction marks U+200B–U+200F, the bidi embeddings and overrides
//     U+202A–U+202E (which also reorder the text after them), the word joiner,
//     invisible operators, bidi isolates and deprecated format characters
//     U+2060–U+206F, the variation selectors U+FE00–U+FE0F and
//     U+E0100–U+E01EF, the byte order mark U+FEFF, U+FFF0–U+FFF8, the
//     shorthand format controls U+1BCA0–U+1BCA3, the musical beam and phrase
//     controls U+1D173–U+1D17A, and the tag characters U+E0000–U+E0FFF.
//
// Names and reasons, which people read rather than match, keep the two
// default-ignorable characters that emoji are made of, and only where an
// emoji uses them:
//
//   - the presentation selectors U+FE0E (text) and U+FE0F (emoji) right after
//     a digit, punctuation mark or symbol, or the one letter that is an emoji,
//     ℹ U+2139: "❤️" is U+2764 U+FE0F, "1️⃣" is 1 U+FE0F U+20E3. Not after
//     other letters, or "alice" and "alice" U+FE0F would look the same.
//   - the zero-width joiner U+200D right between two symbols (category So),
//     the first of which may carry U+FE0F or a skin-tone modifier
//     (U+1F3FB–U+1F3FF): "👩🏽‍💻" is U+1F469 U+1F3FD U+200D U+1F4BB.
//
// So a name still cannot start with a selector, stack two, or join letters;
// flags written with tag characters (England, Scotland, Wales) are refused
// like any tag. A text kind says which rules apply.
type textKind int

const (
	idText   textKind = iota // player ids, event ids and token subjects
	nameText                 // player names and correction reasons
)

// defaultIgnorable is Unicode's Default_Ignorable_Code_Point, as listed in
// DerivedCoreProperties.txt. The unicode package has only the parts it is
// derived from (Other_Default_Ignorable_Code_Point, Cf, Variation_Selector,
// ...); text_test.go checks this table against that derivation with the
// unicode package's tables, so a Unicode update that changes it fails there.
var defaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00AD, Hi: 0x00AD, Stride: 1},
		{Lo: 0x034F, Hi: 0x034F, Stride: 1},
		{Lo: 0x061C, Hi: 0x061C, Stride: 1},
		{Lo: 0x115F, Hi: 0x1160, Stride: 1},
		{Lo: 0x17B4, Hi: 0x17B5, Stride: 1},
		{Lo: 0x180B, Hi: 0x180F, Stride: 1},
		{Lo: 0x200B, Hi: 0x200F, Stride: 1},
		{Lo: 0x202A, Hi: 0x202E, Stride: 1},
		{Lo: 0x2060, Hi: 0x206F, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xFE00, Hi: 0xFE0F, Stride: 1},
		{Lo: 0xFEFF, Hi: 0xFEFF, Stride: 1},
		{Lo: 0xFFA0, Hi: 0xFFA0, Stride: 1},
		{Lo: 0xFFF0, Hi: 0xFFF8, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1BCA0, Hi: 0x1BCA3, Stride: 1},
		{Lo: 0x1D173, Hi: 0x1D17A, Stride: 1},
		{Lo: 0xE0000, Hi: 0xE0FFF, Stride: 1},
	},
	LatinOffset: 1,
}

const (
	zeroWidthJoiner = 0x200D
	textSelector    = 0xFE0E // VS15: show the character before as text
	emojiSelector   = 0xFE0F // VS16: show the character before as an emoji
	// informationSource is ℹ, a letter (Ll) that is also an emoji.
	informationSource = 0x2139
)

// forbiddenRune returns the first rune of s that text of kind k may not hold,
// and whether there is one. s must be valid UTF-8.
func forbiddenRune(s string, k textKind) (rune, bool) {
	prev, beforePrev := rune(-1), rune(-1)
	for i, r := range s {
		if isControl(r) {
			return r, true
		}
		// U+00AD is the first default-ignorable code point: ASCII skips the table.
		if r >= 0x00AD && unicode.Is(defaultIgnorable, r) && (k != nameText || !inEmoji(s[i:], r, prev, beforePrev)) {
			return r, true
		}
		beforePrev, prev = prev, r
	}
	return 0, false
}

func isControl(r rune) bool { return r <= 0x1F || (r >= 0x7F && r <= 0x9F) }

// inEmoji reports whether the default-ignorable r, at the start of rest and
// after prev and beforePrev (-1 at the start of the text), is a presentation
// selector or joiner where an emoji puts one: the exceptions of names.
func inEmoji(rest string, r, prev, beforePrev rune) bool {
	switch r {
	case textSelector, emojiSelector:
		return prev == informationSource || (prev >= 0 && unicode.In(prev, unicode.N, unicode.P, unicode.S))
	case zeroWidthJoiner:
		base := prev
		if base == emojiSelector {
			base = beforePrev
		}
		next, size := utf8.DecodeRuneInString(rest[utf8.RuneLen(r):])
		return (isSymbol(base) || isEmojiModifier(base)) && size > 0 && isSymbol(next)
	}
	return false
}

func isSymbol(r rune) bool { return r >= 0 && unicode.Is(unicode.So, r) }

// isEmojiModifier reports whether r is one of the five skin tones.
func isEmojiModifier(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

// checkText returns an EBADINPUT error naming field unless s is valid UTF-8
// in NFC of minLen..maxLen characters free of the characters its kind
// forbids.
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
		return Errorf(EBADINPUT,
			"%s must not contain control, bidi formatting or invisible (default-ignorable) characters (found %U)", field, r)
	}
	// ASCII is always in NFC, and most ids are ASCII: on them the check would
	// more than double the cost of validating an event (465 ns against 205).
	if !isASCII(s) && !norm.NFC.IsNormalString(s) {
		return Errorf(EBADINPUT, "%s must be in Unicode normalization form NFC (composed characters, such as U+00E9 for é)", field)
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
