package leaderboard_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
)

func TestNormalizeMetadata_OK(t *testing.T) {
	for in, want := range map[string]string{
		`{"car": "red"}`:                               `{"car":"red"}`,
		`{"b":1,"a":2}`:                                `{"a":2,"b":1}`,
		`{"a":1,"a":2}`:                                `{"a":2}`,
		`{"n":1.50e2,"m":-0,"k":1e-7}`:                 `{"k":0.0000001,"m":0,"n":150}`,
		`{"big":1e31}`:                                 `{"big":10000000000000000000000000000000}`,
		`{"tiny":1e-1000000}`:                          `{"tiny":0}`,
		`{"s":"\u00e9<tag>","x":[true,null]}`:          `{"s":"é\u003ctag\u003e","x":[true,null]}`,
		`{"d":{"d":{"d":{"d":{"d":{"d":{"d":{}}}}}}}}`: `{"d":{"d":{"d":{"d":{"d":{"d":{"d":{}}}}}}}}`,
		" \n{}\t":                                      `{}`,
	} {
		got, err := leaderboard.NormalizeMetadata(json.RawMessage(in))
		if err != nil || string(got) != want {
			t.Errorf("%s: %s, %v; want %s", in, got, err, want)
		}
	}
	if got, err := leaderboard.NormalizeMetadata(nil); got != nil || err != nil {
		t.Errorf("no metadata: %s, %v; want none", got, err)
	}
}

func TestNormalizeMetadata_ErrBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"not JSON":                   `{`,
		"an array":                   `[1]`,
		"a string":                   `"x"`,
		"two objects":                `{}{}`,
		"NUL in a key":               `{"k\u0000":1}`,
		"NUL in a value":             `{"k":["\u0000"]}`,
		"a number past float64":      `{"n":1e200000}`,
		"a number of 131,072 digits": `{"n":1e131071}`,
		"a number of 33 digits":      `{"n":1e32}`,
		"a long small number":        `{"n":5e-324}`,
		"nine levels":                `{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{}}}}}}}}}`,
		"nine levels of arrays":      `{"d":[[[[[[[[]]]]]]]]}`,
		"over 1 KB as stored":        `{"a":"` + strings.Repeat("<", 200) + `"}`,
		"over 1 KB":                  `{"a":"` + strings.Repeat("x", 1020) + `"}`,
		"16 KiB of spaces":           `{` + strings.Repeat(" ", 16*1024) + `}`,
	} {
		got, err := leaderboard.NormalizeMetadata(json.RawMessage(in))
		if err == nil || err.Code != leaderboard.EBADINPUT || err.Message == "" {
			t.Errorf("%s: %s, %v; want BAD_USER_INPUT", name, got, err)
		}
	}
}

// FuzzNormalizeMetadata checks that whatever a client sends, NormalizeMetadata
// refuses it with BAD_USER_INPUT or returns a JSON object of at most
// MaxMetadataBytes that normalizes to itself.
func FuzzNormalizeMetadata(f *testing.F) {
	for _, seed := range []string{`{"a":1}`, `{"n":1e131071}`, `{"k\u0000":1}`, `{"a":[1.5e3,"x",{"b":null}]}`, `[]`, `{`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := leaderboard.NormalizeMetadata(json.RawMessage(in))
		if err != nil {
			if err.Code != leaderboard.EBADINPUT {
				t.Fatalf("%q: code %s", in, err.Code)
			}
			return
		}
		if len(got) > leaderboard.MaxMetadataBytes || !json.Valid(got) || got[0] != '{' {
			t.Fatalf("%q normalized to %q", in, got)
		}
		again, err := leaderboard.NormalizeMetadata(got)
		if err != nil || string(again) != string(got) {
			t.Fatalf("%q normalized to %q, then to %q, %v", in, got, again, err)
		}
	})
}
