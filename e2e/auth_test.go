package e2e_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// signedToken returns a JWT for playerID with the given method, key and
// expiry (none when exp is zero).
func signedToken(t *testing.T, method jwt.SigningMethod, key any, playerID string, exp time.Time) string {
	t.Helper()
	claims := jwt.RegisteredClaims{Subject: playerID}
	if !exp.IsZero() {
		claims.ExpiresAt = jwt.NewNumericDate(exp)
	}
	token, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatalf("sign %s token: %v", method.Alg(), err)
	}
	return token
}

// badPlayerTokens are bearer tokens that must not authenticate player "ann".
func badPlayerTokens(t *testing.T) map[string]string {
	t.Helper()
	hour := time.Now().Add(time.Hour)
	return map[string]string{
		"expired":           signedToken(t, jwt.SigningMethodHS256, []byte(jwtSecret), "ann", time.Now().Add(-time.Hour)),
		"wrong secret":      signedToken(t, jwt.SigningMethodHS256, []byte("not-the-secret"), "ann", hour),
		"alg none":          signedToken(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "ann", hour),
		"HS512":             signedToken(t, jwt.SigningMethodHS512, []byte(jwtSecret), "ann", hour),
		"no exp":            signedToken(t, jwt.SigningMethodHS256, []byte(jwtSecret), "ann", time.Time{}),
		"no sub":            signedToken(t, jwt.SigningMethodHS256, []byte(jwtSecret), "", hour),
		"not a JWT":         "not-a-jwt",
		"tampered":          playerToken(t, "ann") + "x",
		"unknown static":    "e2e-some-other-token",
		"admin token twice": adminToken + adminToken,
	}
}

// malformedHeaders are Authorization headers that are not "Bearer <token>"
// with a valid token, each carrying a good player token where one fits.
func malformedHeaders(t *testing.T) map[string]string {
	t.Helper()
	good := playerToken(t, "ann")
	return map[string]string{
		"no scheme":    good,
		"basic":        "Basic " + good,
		"token scheme": "Token " + good,
		"bearer alone": "Bearer",
		"bearer space": "Bearer ",
		"bearer colon": "Bearer: " + good,
	}
}

// doWithHeader sends a GraphQL operation with a raw Authorization header.
func (s *server) doWithHeader(t *testing.T, authorization, query string, vars map[string]any) *response {
	t.Helper()
	body := mustJSON(t, map[string]any{"query": query, "variables": vars})
	return s.post(t, http.Header{"Content-Type": {"application/json"}, "Authorization": {authorization}}, body)
}

// checkNothingWritten fails when the service holds any month, which any
// accepted score event or close would have created.
func checkNothingWritten(t *testing.T, s *server) {
	t.Helper()
	if got := s.months(t, 120); len(got) != 0 {
		t.Errorf("a refused operation wrote data: months %+v", got)
	}
}

func TestAuth_SubmitScoresNeedsTheGameServerToken(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	vars := map[string]any{"events": []scoreEvent{ev("1", "ann", "SET", 100, cur.at(1))}}

	for _, tt := range []struct{ name, token, code string }{
		{"no token", "", "UNAUTHENTICATED"},
		{"admin token", adminToken, "FORBIDDEN"},
		{"player token", playerToken(t, "ann"), "FORBIDDEN"},
	} {
		r := s.expectError(t, tt.token, submitMutation, vars, tt.code)
		if !r.dataIsNull() {
			t.Errorf("%s: data %s, want null", tt.name, r.Data)
		}
	}
	for name, token := range badPlayerTokens(t) {
		t.Run(name, func(t *testing.T) {
			r := s.expectError(t, token, submitMutation, vars, "UNAUTHENTICATED")
			if !r.dataIsNull() {
				t.Errorf("data %s, want null", r.Data)
			}
		})
	}
	for name, header := range malformedHeaders(t) {
		r := s.doWithHeader(t, header, submitMutation, vars)
		if codes := r.Codes(); len(codes) != 1 || codes[0] != "UNAUTHENTICATED" || !r.dataIsNull() {
			t.Errorf("header %s (%q): codes %q data %s, want UNAUTHENTICATED and no data", name, header, codes, r.Data)
		}
	}
	checkNothingWritten(t, s)

	// The event itself was fine: with the right token it applies, once.
	checkResult(t, s.submit(t, vars["events"].([]scoreEvent)...)[0], "APPLIED", 100, 1)
}

func TestAuth_CloseMonthNeedsTheAdminToken(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, prev.at(1)))
	const q = `mutation($m: Month!) { closeMonth(month: $m) { month status } }`
	vars := map[string]any{"m": prev.month}

	s.expectError(t, "", q, vars, "UNAUTHENTICATED")
	s.expectError(t, serverToken, q, vars, "FORBIDDEN")
	s.expectError(t, playerToken(t, "ann"), q, vars, "FORBIDDEN")
	for name, token := range badPlayerTokens(t) {
		t.Run(name, func(t *testing.T) {
			s.expectError(t, token, q, vars, "UNAUTHENTICATED")
		})
	}
	for name, header := range malformedHeaders(t) {
		r := s.doWithHeader(t, header, q, vars)
		if codes := r.Codes(); len(codes) != 1 || codes[0] != "UNAUTHENTICATED" {
			t.Errorf("header %s (%q): codes %q, want UNAUTHENTICATED", name, header, codes)
		}
	}
	if m := s.month(t, prev.month); m == nil || m.Status != "OPEN" || m.ClosedAt != nil {
		t.Errorf("after refused closes: month %+v, want it OPEN", m)
	}
	// Still open: scores are taken.
	checkResult(t, s.submit(t, ev("2", "ann", "ADD", 1, prev.at(2)))[0], "APPLIED", 101, 1)
}

func TestAuth_MyRankNeedsAValidPlayerToken(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))
	const q = `query($m: Month!) { myRank(month: $m) { rank score player { id } } }`
	vars := map[string]any{"m": cur.month}

	s.expectError(t, "", q, vars, "UNAUTHENTICATED")
	s.expectError(t, serverToken, q, vars, "FORBIDDEN")
	s.expectError(t, adminToken, q, vars, "FORBIDDEN")
	for name, token := range badPlayerTokens(t) {
		t.Run(name, func(t *testing.T) {
			r := s.expectError(t, token, q, vars, "UNAUTHENTICATED")
			if !r.dataIsNull() {
				t.Errorf("data %s, want null", r.Data)
			}
		})
	}
	for name, header := range malformedHeaders(t) {
		r := s.doWithHeader(t, header, q, vars)
		if codes := r.Codes(); len(codes) != 1 || codes[0] != "UNAUTHENTICATED" || !r.dataIsNull() {
			t.Errorf("header %s (%q): codes %q data %s, want UNAUTHENTICATED and no data", name, header, codes, r.Data)
		}
	}
	// The right token works, and the player comes from its sub.
	st := s.myRank(t, playerToken(t, "ann"), cur.month, "neighbours", nil)
	if st == nil || st.Player.ID != "ann" || st.Rank != 1 || st.Score != 100 {
		t.Errorf("myRank of ann: %+v, want ann at rank 1 with 100", st)
	}
}

func TestAuth_PublicReadsNeedNoToken(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	s.submit(t, ev("1", "ann", "SET", 100, cur.at(1)))
	s.mustDo(t, "", `query($m: Month!) {
		standing(month: $m, playerId: "ann") { rank }
		leaderboard(month: $m) { total }
		month(month: $m) { status }
		months { month }
	}`, map[string]any{"m": cur.month}, nil)
}
