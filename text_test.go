package leaderboard_test

import (
	"maps"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gamebackend/leaderboard"
)

// Control and bidi formatting characters: refused in ids, names and reasons.
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

// Characters next to the forbidden ranges, and ordinary non-ASCII text in NFC,
// pass.
var allowedText = []string{"space here", "~", "\u00a0nbsp", "\u00a1", "\u00ac", "\u00ae", "élodie", "가", "名前", "مرحبا",
	"\u2029", "\u202f", "\u205f", "\u2070", "\ufe10", "\ufefe", "\uffa1", "\ufff9", "😀", "\U000e1000"}

// Default-ignorable code points other than the bidi formatting above: refused
// in ids and names alike (emoji's joiner and selectors aside, see
// emojiInNames).
var invisible = map[string]string{
	"soft hyphen (U+00AD)":      "\u00ad",
	"CGJ (U+034F)":              "\u034f",
	"ALM (U+061C)":              "\u061c",
	"Hangul choseong filler":    "\u115f",
	"Hangul jungseong filler":   "\u1160",
	"Khmer inherent vowel":      "\u17b4",
	"Mongolian FVS1 (U+180B)":   "\u180b",
	"Mongolian vowel separator": "\u180e",
	"ZWSP (U+200B)":             "\u200b",
	"ZWNJ (U+200C)":             "\u200c",
	"ZWJ (U+200D)":              "\u200d",
	"LRM (U+200E)":              "\u200e",
	"RLM (U+200F)":              "\u200f",
	"word joiner (U+2060)":      "\u2060",
	"invisible plus (U+2064)":   "\u2064",
	"U+2065":                    "\u2065",
	"nominal digit shapes":      "\u206f",
	"Hangul filler (U+3164)":    "\u3164",
	"VS1 (U+FE00)":              "\ufe00",
	"VS15 (U+FE0E)":             "\ufe0e",
	"VS16 (U+FE0F)":             "\ufe0f",
	"BOM (U+FEFF)":              "\ufeff",
	"halfwidth Hangul filler":   "\uffa0",
	"U+FFF0":                    "\ufff0",
	"U+FFF8":                    "\ufff8",
	"shorthand letter overlap":  "\U0001bca0",
	"musical begin beam":        "\U0001d173",
	"U+E0000":                   "\U000e0000",
	"language tag (U+E0001)":    "\U000e0001",
	"tag latin small a":         "\U000e0061",
	"cancel tag (U+E007F)":      "\U000e007f",
	"VS17 (U+E0100)":            "\U000e0100",
	"VS256 (U+E01EF)":           "\U000e01ef",
	"last ignorable (U+E0FFF)":  "\U000e0fff",
}

// Names keep the joiner and the presentation selectors where emoji use them.
var emojiInNames = []string{
	"\u2764\ufe0f",                                 // red heart: heart + VS16
	"\u2764\ufe0e",                                 // heart as text: + VS15
	"1\ufe0f\u20e3",                                // keycap 1
	"\u2139\ufe0f",                                 // information source, a letter (Ll)
	"Sam \U0001f469\u200d\U0001f4bb",               // woman technologist
	"\U0001f469\U0001f3fd\u200d\U0001f4bb",         // with a skin tone
	"\U0001f3f3\ufe0f\u200d\U0001f308",             // rainbow flag: VS16 before the joiner
	"\U0001f468\u200d\U0001f469\u200d\U0001f467",   // family
	"\U0001f468\u200d\u2764\ufe0f\u200d\U0001f468", // couple with heart
}

// Default-ignorables in names where no emoji puts them stay refused.
var notEmoji = map[string]string{
	"selector first":            "\ufe0fa",
	"selector after a space":    "a \ufe0f",
	"selector after a letter":   "alice\ufe0f",
	"text selector on a letter": "ali\ufe0ece",
	"two selectors":             "\u2764\ufe0f\ufe0f",
	"selector after a joiner":   "\U0001f469\u200d\ufe0f",
	"joiner first":              "\u200d\U0001f4bb",
	"joiner last":               "\U0001f469\u200d",
	"joiner between letters":    "ali\u200dce",
	"joiner after a letter":     "a\u200d\U0001f4bb",
	"joiner before a letter":    "\U0001f469\u200da",
	"two joiners":               "\U0001f469\u200d\u200d\U0001f4bb",
	"other selector (VS1)":      "\u2764\ufe00",
	"tag flag (Scotland)":       "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
}

// Text not in NFC, whose NFC form passes.
var notNFC = map[string]string{
	"e + combining acute":    "e\u0301lodie",
	"Hangul jamo":            "\u1100\u1161",
	"singleton (Ohm sign)":   "\u2126",
	"marks out of order":     "a\u0302\u0323",
	"angstrom sign (U+212B)": "\u212b",
}

func TestCheckPlayerID_RefusesControlBidiAndInvisible(t *testing.T) {
	for label, r := range merge(forbiddenInAllText, invisible) {
		for _, id := range []string{r, "a" + r, r + "b", "a" + r + "b"} {
			if err := leaderboard.CheckPlayerID(id); err == nil || err.Code != leaderboard.EBADINPUT {
				t.Errorf("%s in %q: error %v, want BAD_USER_INPUT", label, id, err)
			}
		}
	}
	for _, id := range emojiInNames {
		if err := leaderboard.CheckPlayerID(id); err == nil || err.Code != leaderboard.EBADINPUT {
			t.Errorf("emoji sequence %q as an id: error %v, want BAD_USER_INPUT", id, err)
		}
	}
	for _, id := range allowedText {
		if err := leaderboard.CheckPlayerID(id); err != nil {
			t.Errorf("%q: %v, want accepted", id, err)
		}
	}
}

func TestCheckPlayerID_RefusesTextNotInNFC(t *testing.T) {
	for label, s := range notNFC {
		err := leaderboard.CheckPlayerID(s)
		if err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, "NFC") {
			t.Errorf("%s %q: error %v, want BAD_USER_INPUT saying NFC", label, s, err)
		}
		if err := leaderboard.CheckPlayerID(norm.NFC.String(s)); err != nil {
			t.Errorf("%s in NFC %q: %v, want accepted", label, norm.NFC.String(s), err)
		}
	}
}

func TestScoreEvent_Validate_RefusesControlBidiAndInvisible(t *testing.T) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	valid := leaderboard.ScoreEvent{EventID: "e", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1}
	field := map[string]func(e *leaderboard.ScoreEvent, s string){
		"eventId":    func(e *leaderboard.ScoreEvent, s string) { e.EventID = s },
		"playerId":   func(e *leaderboard.ScoreEvent, s string) { e.PlayerID = s },
		"playerName": func(e *leaderboard.ScoreEvent, s string) { e.PlayerName = &s },
	}
	refused := func(name, label, s string, e leaderboard.ScoreEvent) {
		t.Helper()
		err := e.Validate(now)
		if err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, name) {
			t.Errorf("%s with %s (%q): error %v, want BAD_USER_INPUT naming %s", name, label, s, err, name)
		}
	}
	for name, set := range field {
		for label, r := range merge(forbiddenInAllText, invisible) {
			// After a space, where no emoji puts a selector or joiner.
			e := valid
			set(&e, "x "+r+"y")
			refused(name, label, "x "+r+"y", e)
		}
		for label, s := range merge(notNFC, notEmoji) {
			e := valid
			set(&e, s)
			refused(name, label, s, e)
		}
		for _, s := range allowedText {
			e := valid
			set(&e, s)
			if err := e.Validate(now); err != nil {
				t.Errorf("%s %q: %v, want accepted", name, s, err)
			}
		}
	}
	for _, s := range emojiInNames {
		ids := valid
		ids.EventID = "e" + s
		if err := ids.Validate(now); err == nil {
			t.Errorf("eventId %q accepted, want BAD_USER_INPUT", ids.EventID)
		}
		named := valid
		named.PlayerName = &s
		if err := named.Validate(now); err != nil {
			t.Errorf("playerName %q: %v, want accepted", s, err)
		}
	}
	empty := ""
	named := valid
	named.PlayerName = &empty
	if err := named.Validate(now); err != nil {
		t.Errorf("empty playerName: %v, want accepted", err)
	}
}

func TestCheckReason(t *testing.T) {
	for _, reason := range append([]string{"aimbot, ticket 4411", "x", strings.Repeat("é", leaderboard.MaxReasonLen), "名前"}, emojiInNames...) {
		if err := leaderboard.CheckReason(reason); err != nil {
			t.Errorf("%q: %v, want accepted", reason, err)
		}
	}
	bad := merge(forbiddenInAllText, invisible, notEmoji, notNFC, map[string]string{
		"empty": "", "blank": " \u00a0 ", "too long": strings.Repeat("a", leaderboard.MaxReasonLen+1), "invalid UTF-8": "a\xffb",
	})
	for label, reason := range bad {
		if err := leaderboard.CheckReason(reason); err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, "reason") {
			t.Errorf("%s %q: %v, want BAD_USER_INPUT naming the reason", label, reason, err)
		}
	}
}

func TestCheckClaimID_RefusesBlankIDs(t *testing.T) {
	for _, id := range []string{"g1", "grant 7", " x "} {
		if err := leaderboard.CheckClaimID(id); err != nil {
			t.Errorf("%q: %v, want accepted", id, err)
		}
	}
	for _, id := range []string{"", " ", "   ", "\u00a0", "\u3000"} {
		if err := leaderboard.CheckClaimID(id); err == nil || err.Code != leaderboard.EBADINPUT || !strings.Contains(err.Message, "claimId") {
			t.Errorf("%q: %v, want BAD_USER_INPUT naming the claimId", id, err)
		}
	}
}

// TestDefaultIgnorable_MatchesUnicode checks text.go's table of
// Default_Ignorable_Code_Point against the property's definition in
// DerivedCoreProperties.txt, computed from the unicode package's tables: every
// code point the definition holds is refused in an id, and no other.
func TestDefaultIgnorable_MatchesUnicode(t *testing.T) {
	for r := rune(0xA0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue // surrogates have no UTF-8 form
		}
		want := isDefaultIgnorable(r)
		err := leaderboard.CheckPlayerID(string(r))
		if got := err != nil && strings.Contains(err.Message, "default-ignorable"); got != want {
			t.Errorf("%U: refused as default-ignorable %v, want %v (error %v)", r, got, want, err)
		}
	}
}

// isDefaultIgnorable is Default_Ignorable_Code_Point as DerivedCoreProperties.txt
// defines it: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector -
// White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark.
func isDefaultIgnorable(r rune) bool {
	return (unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r)) &&
		!unicode.Is(unicode.White_Space, r) && !(r >= 0xFFF9 && r <= 0xFFFB) && !(r >= 0x13430 && r <= 0x1343F) &&
		!unicode.Is(unicode.Prepended_Concatenation_Mark, r)
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
