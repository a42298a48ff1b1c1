package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
)

var secret = []byte("test-secret")

// principalOf runs a request with the header through the middleware and
// returns what Require says for the roles.
func principalOf(t *testing.T, header string, roles ...leaderboard.Role) (leaderboard.Principal, error) {
	t.Helper()
	a := auth.New(auth.Config{AdminToken: "admin", ServerToken: "server", JWTSecret: secret})
	var (
		p   leaderboard.Principal
		err error
	)
	h := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err = auth.Require(r.Context(), roles...)
	}))
	r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	if header != "" {
		r.Header.Set("Authorization", header)
	}
	h.ServeHTTP(httptest.NewRecorder(), r)
	return p, err
}

func sign(t *testing.T, method jwt.SigningMethod, key any, claims jwt.Claims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRequire_Roles(t *testing.T) {
	token, err := auth.PlayerToken(secret, "alice", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := principalOf(t, "Bearer admin", leaderboard.RoleAdmin); err != nil || p.Role != leaderboard.RoleAdmin {
		t.Errorf("admin: %+v, %v", p, err)
	}
	if p, err := principalOf(t, "bearer server", leaderboard.RoleGameServer); err != nil || p.Role != leaderboard.RoleGameServer {
		t.Errorf("server: %+v, %v", p, err)
	}
	if p, err := principalOf(t, "Bearer "+token, leaderboard.RolePlayer); err != nil || p.PlayerID != "alice" {
		t.Errorf("player: %+v, %v", p, err)
	}
	if _, err := principalOf(t, "Bearer server", leaderboard.RoleAdmin); leaderboard.ErrorCode(err) != leaderboard.EFORBIDDEN {
		t.Errorf("server token for an admin call: %v, want FORBIDDEN", err)
	}
}

func TestRequire_RefusesBadTokens(t *testing.T) {
	hour := time.Hour
	claims := func(sub string, exp *time.Duration) jwt.RegisteredClaims {
		c := jwt.RegisteredClaims{Subject: sub}
		if exp != nil {
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(*exp))
		}
		return c
	}
	expired := -time.Minute
	for label, header := range map[string]string{
		"none":          "",
		"not bearer":    "Basic YWRtaW46YWRtaW4=",
		"empty bearer":  "Bearer ",
		"unknown token": "Bearer nope",
		"expired":       "Bearer " + sign(t, jwt.SigningMethodHS256, secret, claims("alice", &expired)),
		"no exp":        "Bearer " + sign(t, jwt.SigningMethodHS256, secret, claims("alice", nil)),
		"no sub":        "Bearer " + sign(t, jwt.SigningMethodHS256, secret, claims("", &hour)),
		"wrong secret":  "Bearer " + sign(t, jwt.SigningMethodHS256, []byte("other"), claims("alice", &hour)),
		"HS512":         "Bearer " + sign(t, jwt.SigningMethodHS512, secret, claims("alice", &hour)),
		"alg none":      "Bearer " + sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims("alice", &hour)),
	} {
		if _, err := principalOf(t, header, leaderboard.RolePlayer); leaderboard.ErrorCode(err) != leaderboard.EUNAUTHENTICATED {
			t.Errorf("%s: %v, want UNAUTHENTICATED", label, err)
		}
	}
}

func TestRequire_EmptySecretsMatchNothing(t *testing.T) {
	a := auth.New(auth.Config{})
	var err error
	h := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err = auth.Require(r.Context(), leaderboard.RoleAdmin)
	}))
	r := httptest.NewRequest(http.MethodPost, "/graphql", nil).WithContext(context.Background())
	r.Header.Set("Authorization", "Bearer x")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if leaderboard.ErrorCode(err) != leaderboard.EUNAUTHENTICATED {
		t.Errorf("with no secrets configured: %v, want UNAUTHENTICATED", err)
	}
}
