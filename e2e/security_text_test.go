package e2e_test

import (
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// An id that displays like another but differs in an invisible character, or
// in its Unicode normalization, is refused: per event in a batch, whose other
// events apply, and as a read's playerId. Names keep their emoji.
func TestSecurity_LookAlikeIdsAreRejected(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	results := s.submit(t,
		ev("1", "alice", "SET", 100, cur.at(1)),
		ev("2", "ali\u200bce", "SET", 200, cur.at(2)),
		ev("3", "\ufeffalice", "SET", 300, cur.at(3)),
		ev("e\u0301vent", "bob", "SET", 400, cur.at(4)),
		named(ev("5", "carol", "SET", 50, cur.at(5)), "Carol \U0001f469\u200d\U0001f4bb \u2764\ufe0f"),
		named(ev("6", "dave", "SET", 60, cur.at(6)), "Da\u00adve"),
	)
	checkResult(t, results[0], "APPLIED", 100, 1)
	checkRejected(t, results[1], "BAD_USER_INPUT", "playerId", "U+200B")
	checkRejected(t, results[2], "BAD_USER_INPUT", "playerId", "U+FEFF")
	checkRejected(t, results[3], "BAD_USER_INPUT", "eventId", "NFC")
	checkResult(t, results[4], "APPLIED", 50, 2)
	checkRejected(t, results[5], "BAD_USER_INPUT", "playerName", "U+00AD")

	const q = `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { rank } }`
	for _, id := range []string{"ali\u200bce", "alice\u2060", "e\u0301lodie", "alice\U000e0041"} {
		r := s.expectError(t, "", q, map[string]any{"m": cur.month, "p": id}, "BAD_USER_INPUT")
		if !r.dataIsNull() {
			t.Errorf("standing of %q: data %s, want null", id, r.Data)
		}
	}
	if st := s.mustStanding(t, cur.month, "alice"); st.Total != 2 {
		t.Errorf("%d players in the month, want alice and carol only", st.Total)
	}
	if st := s.mustStanding(t, cur.month, "carol"); strOr(st.Player.Name, "") != "Carol \U0001f469\u200d\U0001f4bb \u2764\ufe0f" {
		t.Errorf("carol's name came back as %q", strOr(st.Player.Name, "null"))
	}

	// A correction's reason follows the rules of names.
	const correct = `mutation($m: Month!, $r: String!) { correctScore(month: $m, playerId: "alice", score: 1, reason: $r) { id } }`
	for _, reason := range []string{"refund \u202etxt.exe", "a\u200bb", "two\nlines"} {
		s.expectError(t, adminToken, correct, map[string]any{"m": cur.month, "r": reason}, "BAD_USER_INPUT")
	}
	if st := s.mustStanding(t, cur.month, "alice"); st.Score != 100 {
		t.Errorf("alice's score %d after refused corrections, want 100", st.Score)
	}
}

// The contract asks a player token for sub and exp only: one without iat
// works. Its lifetime is bounded by exp - now; times must be JSON numbers, and
// a crit header is refused.
func TestSecurity_PlayerTokenNeedsSubAndExpOnly(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))

	sign := func(claims jwt.MapClaims, header map[string]any) string {
		t.Helper()
		token := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
		maps.Copy(token.Header, header)
		signed, err := token.SignedString([]byte(jwtSecret))
		if err != nil {
			t.Fatal(err)
		}
		return signed
	}
	exp := time.Now().Add(time.Hour).Unix()
	st := s.myRank(t, sign(jwt.MapClaims{"sub": "ann", "exp": exp}, nil), cur.month, "neighbours", nil)
	if st == nil || st.Player.ID != "ann" || st.Rank != 1 || st.Score != 100 {
		t.Errorf("myRank with a token without iat: %+v, want ann at rank 1 with 100", st)
	}

	const q = `query($m: Month!) { myRank(month: $m) { rank } }`
	for label, token := range map[string]string{
		"exp beyond the max lifetime": sign(jwt.MapClaims{"sub": "ann", "exp": time.Now().Add(48 * time.Hour).Unix()}, nil),
		"iat in the future":           sign(jwt.MapClaims{"sub": "ann", "exp": exp, "iat": time.Now().Add(time.Minute).Unix()}, nil),
		"exp as a string":             sign(jwt.MapClaims{"sub": "ann", "exp": strconv.FormatInt(exp, 10)}, nil),
		"crit header":                 sign(jwt.MapClaims{"sub": "ann", "exp": exp}, map[string]any{"crit": []string{"exp"}}),
		"look-alike sub":              sign(jwt.MapClaims{"sub": "a\u200bnn", "exp": exp}, nil),
	} {
		t.Run(label, func(t *testing.T) {
			if r := s.expectError(t, token, q, map[string]any{"m": cur.month}, "UNAUTHENTICATED"); !r.dataIsNull() {
				t.Errorf("data %s, want null", r.Data)
			}
		})
	}
}
