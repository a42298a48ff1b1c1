package auth_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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
		c := jwt.RegisteredClaims{Subject: sub, IssuedAt: jwt.NewNumericDate(time.Now())}
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
		"NUL in sub":    "Bearer " + sign(t, jwt.SigningMethodHS256, secret, claims("al\x00ice", &hour)),
		"RLO in sub":    "Bearer " + sign(t, jwt.SigningMethodHS256, secret, claims("al\u202eice", &hour)),
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

// roleOf runs a request with the bearer token through an Authenticator for
// cfg and returns the caller's role, or the error of Require for any role.
func roleOf(t *testing.T, cfg auth.Config, token string) (leaderboard.Role, error) {
	t.Helper()
	var (
		p   leaderboard.Principal
		err error
	)
	h := auth.New(cfg).Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err = auth.Require(r.Context(), leaderboard.RoleAdmin, leaderboard.RoleGameServer, leaderboard.RolePlayer)
	}))
	r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	h.ServeHTTP(httptest.NewRecorder(), r)
	return p.Role, err
}

func TestNew_SeveralTokensPerRoleForRotation(t *testing.T) {
	cfg := auth.Config{AdminToken: "old-admin, new-admin", ServerToken: "s1,s2,,s3 "}
	for token, want := range map[string]leaderboard.Role{
		"old-admin": leaderboard.RoleAdmin, "new-admin": leaderboard.RoleAdmin,
		"s1": leaderboard.RoleGameServer, "s2": leaderboard.RoleGameServer, "s3": leaderboard.RoleGameServer,
	} {
		if role, err := roleOf(t, cfg, token); err != nil || role != want {
			t.Errorf("token %q: %s, %v; want %s", token, role, err, want)
		}
	}
	for _, token := range []string{"old-admin, new-admin", "old-admin,", " new-admin", "s1,s2", "s", ","} {
		if _, err := roleOf(t, cfg, token); leaderboard.ErrorCode(err) != leaderboard.EUNAUTHENTICATED {
			t.Errorf("token %q: %v, want UNAUTHENTICATED", token, err)
		}
	}
}

func TestNew_PlayerTokenIssuerAudienceAndLifetime(t *testing.T) {
	now := time.Now()
	token := func(c jwt.RegisteredClaims) string { return sign(t, jwt.SigningMethodHS256, secret, c) }
	claims := func(lifetime time.Duration) jwt.RegisteredClaims {
		return jwt.RegisteredClaims{Subject: "alice", Issuer: "login", Audience: jwt.ClaimStrings{"leaderboard"},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(lifetime))}
	}
	strict := auth.Config{JWTSecret: secret, Issuer: "login", Audience: "leaderboard", MaxTokenLifetime: time.Hour}
	with := func(change func(*jwt.RegisteredClaims)) string {
		c := claims(time.Hour)
		change(&c)
		return token(c)
	}
	for label, c := range map[string]struct {
		cfg  auth.Config
		tok  string
		want bool
	}{
		"all checks pass":           {strict, token(claims(time.Hour)), true},
		"signed by SignPlayerToken": {strict, mustSign(t, strict, now.Add(time.Hour)), true},
		"other issuer":              {strict, with(func(c *jwt.RegisteredClaims) { c.Issuer = "elsewhere" }), false},
		"no issuer":                 {strict, with(func(c *jwt.RegisteredClaims) { c.Issuer = "" }), false},
		"other audience":            {strict, with(func(c *jwt.RegisteredClaims) { c.Audience = jwt.ClaimStrings{"chat"} }), false},
		"no audience":               {strict, with(func(c *jwt.RegisteredClaims) { c.Audience = nil }), false},
		"audience among several":    {strict, with(func(c *jwt.RegisteredClaims) { c.Audience = jwt.ClaimStrings{"chat", "leaderboard"} }), true},
		"no iat":                    {strict, with(func(c *jwt.RegisteredClaims) { c.IssuedAt = nil }), true},
		"iat in the future":         {strict, with(func(c *jwt.RegisteredClaims) { c.IssuedAt = jwt.NewNumericDate(now.Add(time.Minute)) }), false},
		"iat within the leeway":     {strict, with(func(c *jwt.RegisteredClaims) { c.IssuedAt = jwt.NewNumericDate(now.Add(2 * time.Second)) }), true},
		"exp - now over the limit":  {strict, token(claims(time.Hour + time.Minute)), false},
		"no iat, exp too far":       {strict, with(func(c *jwt.RegisteredClaims) { c.IssuedAt, c.ExpiresAt = nil, jwt.NewNumericDate(now.Add(2*time.Hour)) }), false},
		"old iat, exp near":         {strict, with(func(c *jwt.RegisteredClaims) { c.IssuedAt = jwt.NewNumericDate(now.Add(-30 * 24 * time.Hour)) }), true},
		"default limit is 24h":      {auth.Config{JWTSecret: secret}, token(claims(24*time.Hour + time.Minute)), false},
		"within the default limit":  {auth.Config{JWTSecret: secret}, token(claims(24 * time.Hour)), true},
		"iss and aud not checked":   {auth.Config{JWTSecret: secret}, with(func(c *jwt.RegisteredClaims) { c.Issuer, c.Audience = "x", nil }), true},
	} {
		role, err := roleOf(t, c.cfg, c.tok)
		if c.want && (err != nil || role != leaderboard.RolePlayer) {
			t.Errorf("%s: %s, %v; want PLAYER", label, role, err)
		}
		if !c.want && leaderboard.ErrorCode(err) != leaderboard.EUNAUTHENTICATED {
			t.Errorf("%s: %s, %v; want UNAUTHENTICATED", label, role, err)
		}
	}
}

// A player token's times must be JSON numbers and its header must have no
// crit: golang-jwt's RegisteredClaims would read "exp":"<digits>" as a
// number, and it ignores crit.
func TestNew_PlayerTokenRefusesStringTimesAndCrit(t *testing.T) {
	exp := time.Now().Add(time.Hour).Unix()
	iat := time.Now().Unix()
	signMap := func(claims jwt.MapClaims, header map[string]any) string {
		t.Helper()
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
		maps.Copy(tok.Header, header)
		s, err := tok.SignedString(secret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cfg := auth.Config{JWTSecret: secret}
	if role, err := roleOf(t, cfg, signMap(jwt.MapClaims{"sub": "alice", "exp": exp}, nil)); err != nil || role != leaderboard.RolePlayer {
		t.Fatalf("sub and exp only: %s, %v; want PLAYER", role, err)
	}
	if role, err := roleOf(t, cfg, signMap(jwt.MapClaims{"sub": "alice", "exp": float64(exp) + 0.5, "iat": iat}, nil)); err != nil || role != leaderboard.RolePlayer {
		t.Fatalf("fractional exp: %s, %v; want PLAYER", role, err)
	}
	for label, tok := range map[string]string{
		"string exp":       signMap(jwt.MapClaims{"sub": "alice", "exp": strconv.FormatInt(exp, 10)}, nil),
		"string iat":       signMap(jwt.MapClaims{"sub": "alice", "exp": exp, "iat": strconv.FormatInt(iat, 10)}, nil),
		"string nbf":       signMap(jwt.MapClaims{"sub": "alice", "exp": exp, "nbf": strconv.FormatInt(iat, 10)}, nil),
		"null exp":         signMap(jwt.MapClaims{"sub": "alice", "exp": nil}, nil),
		"number sub":       signMap(jwt.MapClaims{"sub": 42, "exp": exp}, nil),
		"crit":             signMap(jwt.MapClaims{"sub": "alice", "exp": exp}, map[string]any{"crit": []string{"exp"}}),
		"empty crit":       signMap(jwt.MapClaims{"sub": "alice", "exp": exp}, map[string]any{"crit": []string{}}),
		"crit with b64":    signMap(jwt.MapClaims{"sub": "alice", "exp": exp}, map[string]any{"crit": []string{"b64"}, "b64": false}),
		"zero-width sub":   signMap(jwt.MapClaims{"sub": "ali\u200bce", "exp": exp}, nil),
		"BOM in sub":       signMap(jwt.MapClaims{"sub": "\ufeffalice", "exp": exp}, nil),
		"sub not in NFC":   signMap(jwt.MapClaims{"sub": "e\u0301lodie", "exp": exp}, nil),
		"tag char in sub":  signMap(jwt.MapClaims{"sub": "alice\U000e0041", "exp": exp}, nil),
		"soft hyphen sub":  signMap(jwt.MapClaims{"sub": "ali\u00adce", "exp": exp}, nil),
		"emoji joiner sub": signMap(jwt.MapClaims{"sub": "\U0001f469\u200d\U0001f4bb", "exp": exp}, nil),
	} {
		if role, err := roleOf(t, cfg, tok); leaderboard.ErrorCode(err) != leaderboard.EUNAUTHENTICATED {
			t.Errorf("%s: %s, %v; want UNAUTHENTICATED", label, role, err)
		}
	}
}

func mustSign(t *testing.T, cfg auth.Config, exp time.Time) string {
	t.Helper()
	token, err := cfg.SignPlayerToken("alice", exp)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func TestConfig_Roles(t *testing.T) {
	describe := func(cfg auth.Config) map[string]string {
		got := map[string]string{}
		for _, a := range cfg.Roles() {
			got[a.Key] = a.Value.String()
		}
		return got
	}
	none := describe(auth.Config{})
	for _, role := range []string{"ADMIN", "GAME_SERVER", "PLAYER"} {
		if none[role] != "disabled" {
			t.Errorf("unconfigured %s: %q, want disabled", role, none[role])
		}
	}
	all := describe(auth.Config{AdminToken: "a,b", ServerToken: "s", JWTSecret: secret, Issuer: "login", MaxTokenLifetime: time.Hour})
	for role, want := range map[string]string{
		"ADMIN":       "2 tokens",
		"GAME_SERVER": "1 token",
		"PLAYER":      `HS256 tokens, iss "login", lifetime at most 1h0m0s`,
	} {
		if all[role] != want {
			t.Errorf("%s: %q, want %q", role, all[role], want)
		}
	}
	if strings.Contains(fmt.Sprint(all), "a,b") || strings.Contains(fmt.Sprint(all), string(secret)) {
		t.Errorf("the description shows a secret: %v", all)
	}
}

func TestRequireFor_SaysWhichTokenIsNeeded(t *testing.T) {
	a := auth.New(auth.Config{AdminToken: "admin", ServerToken: "server", JWTSecret: secret})
	requireFor := func(header string, role leaderboard.Role) error {
		var err error
		h := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err = auth.RequireFor(r.Context(), "submitScores", role)
		}))
		r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		return err
	}
	const needsServer = "submitScores needs the game-server token (LEADERBOARD_SERVER_TOKEN) as Authorization: Bearer …"
	tests := []struct {
		name, header string
		role         leaderboard.Role
		code, msg    string
	}{
		{"NoHeader", "", leaderboard.RoleGameServer, leaderboard.EUNAUTHENTICATED, needsServer},
		{"UnknownToken", "Bearer nope", leaderboard.RoleGameServer, leaderboard.EUNAUTHENTICATED,
			"the bearer token is not valid; " + needsServer},
		{"WrongRole", "Bearer admin", leaderboard.RoleGameServer, leaderboard.EFORBIDDEN,
			needsServer + "; the token sent is the admin token (LEADERBOARD_ADMIN_TOKEN)"},
		{"Admin", "Bearer server", leaderboard.RoleAdmin, leaderboard.EFORBIDDEN,
			"submitScores needs the admin token (LEADERBOARD_ADMIN_TOKEN) as Authorization: Bearer …; the token sent is the game-server token (LEADERBOARD_SERVER_TOKEN)"},
		{"Player", "", leaderboard.RolePlayer, leaderboard.EUNAUTHENTICATED,
			"submitScores needs a player token (an HS256 JWT signed with LEADERBOARD_JWT_SECRET, the player's id as its sub) as Authorization: Bearer …"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := requireFor(tc.header, tc.role)
			if leaderboard.ErrorCode(err) != tc.code || leaderboard.ErrorMessage(err) != tc.msg {
				t.Fatalf("%s %q, want %s %q", leaderboard.ErrorCode(err), leaderboard.ErrorMessage(err), tc.code, tc.msg)
			}
		})
	}
}
