package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/server"
)

const (
	adminToken  = "admin-token"
	serverToken = "server-token"
	jwtSecret   = "jwt-secret-of-the-rate-limit-tests"
	export      = "/admin/months/2026-10/standings.csv"
	readQuery   = `{"query": "{ months { month } }"}`
	myRankQuery = `{"query": "{ myRank(month: \"2026-10\") { rank } }"}`
)

// startLimited runs a server over the fake services with limits, the three
// roles configured, and the loopback address as a trusted proxy, so that a
// test picks its client's address with X-Forwarded-For.
func startLimited(t *testing.T, limits server.RateLimits) string {
	t.Helper()
	limits.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	s := server.New(server.Config{
		Addr: "127.0.0.1:0", Standings: services{}, Boards: services{}, Months: services{}, Scores: services{}, Ranks: services{},
		Exporter: services{}, Auth: auth.Config{AdminToken: adminToken, ServerToken: serverToken, JWTSecret: []byte(jwtSecret)},
		Ping: func(context.Context) error { return nil }, RateLimits: limits, Logger: slog.New(slog.DiscardHandler),
	})
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s.URL()
}

// answer is what a request got.
type answer struct {
	status int
	header http.Header
	body   string
}

// limited reports whether a is a 429 RATE_LIMITED with a Retry-After.
func (a answer) limited() bool {
	seconds, err := strconv.Atoi(a.header.Get("Retry-After"))
	return a.status == http.StatusTooManyRequests && err == nil && seconds >= 1 && strings.Contains(a.body, `"RATE_LIMITED"`)
}

// send sends a request from client (an X-Forwarded-For address) with the
// Authorization header authorization, if any; GraphQL when body is set.
func send(t *testing.T, method, url, client, authorization, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", client)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, string(raw)}
}

// Every route takes from its client address's budget, the export route
// included, before it does anything else.
func TestRateLimit_EveryRouteTheExportIncluded(t *testing.T) {
	url := startLimited(t, server.RateLimits{Public: 1})
	const client = "198.51.100.1"
	for i := range 2 {
		if a := send(t, "GET", url+export, client, "", ""); a.status != http.StatusUnauthorized {
			t.Fatalf("export %d of the burst of 2: %d %s", i+1, a.status, a.body)
		}
	}
	for _, r := range []struct{ method, path, body string }{
		{"GET", export, ""}, {"POST", "/graphql", readQuery}, {"GET", "/graphql", ""},
		{"GET", "/healthz", ""}, {"GET", "/readyz", ""}, {"GET", "/metrics", ""}, {"GET", "/", ""},
	} {
		if a := send(t, r.method, url+r.path, client, "", r.body); !a.limited() || strings.Contains(a.body, "refused tokens") {
			t.Errorf("%s %s over the budget: %d %v %s", r.method, r.path, a.status, a.header, a.body)
		}
	}
	if a := send(t, "GET", url+export, client, "Bearer "+adminToken, ""); a.status != http.StatusOK {
		t.Errorf("an admin from the same address: %d %s", a.status, a.body)
	}
	if a := send(t, "GET", url+export, "198.51.100.2", "", ""); a.status != http.StatusUnauthorized {
		t.Errorf("another address: %d %s", a.status, a.body)
	}
}

// Past its budget of refused tokens, an address gets 429 for every token,
// the right one included, on every route; it may still read without one.
func TestRateLimit_FailedAuthenticationsPerAddress(t *testing.T) {
	url := startLimited(t, server.RateLimits{AuthFailures: 1})
	const guesser, other = "198.51.100.1", "198.51.100.2"
	wrong := []string{"Bearer guess-1", "Bearer " + strings.Repeat("x", 9000), "Basic YWRtaW46YWRtaW4="}
	for i, token := range wrong[:2] {
		if a := send(t, "GET", url+export, guesser, token, ""); a.status != http.StatusUnauthorized || !strings.Contains(a.body, "UNAUTHENTICATED") {
			t.Fatalf("wrong token %d of the burst of 2: %d %s", i+1, a.status, a.body)
		}
	}
	for _, token := range append(wrong, "Bearer "+adminToken, "Bearer "+serverToken) {
		if a := send(t, "GET", url+export, guesser, token, ""); !a.limited() || !strings.Contains(a.body, "too many refused tokens from this address") {
			t.Errorf("%.20s… over the budget of refused tokens: %d %s; want a 429 that says refused tokens caused it", token, a.status, a.body)
		}
		if a := send(t, "POST", url+"/graphql", guesser, token, myRankQuery); !a.limited() {
			t.Errorf("%.20s… on /graphql: %d %s", token, a.status, a.body)
		}
	}
	if a := send(t, "POST", url+"/graphql", guesser, "", readQuery); a.status != http.StatusOK {
		t.Errorf("a read without a token: %d %s", a.status, a.body)
	}
	// Refused tokens count on /graphql too, public reads included.
	for range 2 {
		send(t, "POST", url+"/graphql", other, "Bearer guess-2", readQuery)
	}
	if a := send(t, "GET", url+export, other, "Bearer "+serverToken, ""); !a.limited() {
		t.Errorf("after refused tokens on /graphql: %d %s", a.status, a.body)
	}
	// Expired player tokens were signed with the secret: no guesses, no 429.
	expired, err := auth.PlayerToken([]byte(jwtSecret), "alice", time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if a := send(t, "POST", url+"/graphql", "198.51.100.4", "Bearer "+expired, myRankQuery); a.limited() {
			t.Fatalf("expired player token %d: %d %s", i+1, a.status, a.body)
		}
	}
	// A right token is not a failure: 403 FORBIDDEN, as often as asked.
	for range 5 {
		if a := send(t, "GET", url+export, "198.51.100.3", "Bearer "+serverToken, ""); a.status != http.StatusForbidden {
			t.Fatalf("a game-server token on the export: %d %s", a.status, a.body)
		}
	}
}

// The game-server budget is the token's, whatever the spelling of the
// scheme.
func TestRateLimit_OneGameServerBudgetWhateverTheSchemesCase(t *testing.T) {
	url := startLimited(t, server.RateLimits{GameServer: 1})
	for i, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		a := send(t, "POST", url+"/graphql", "198.51.100.1", scheme+" "+serverToken, readQuery)
		if want := i >= 2; a.limited() != want {
			t.Errorf("%s, request %d at 1/s with a burst of 2: %d %s", scheme, i+1, a.status, a.body)
		}
	}
}

// A player's request takes from its address's budget before its token is
// checked: a flood of tokens from one address costs no signature checks.
func TestRateLimit_PlayerTokensAfterTheAddressBudget(t *testing.T) {
	url := startLimited(t, server.RateLimits{Public: 1})
	token, err := auth.PlayerToken([]byte(jwtSecret), "alice", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if a := send(t, "POST", url+"/graphql", "198.51.100.1", "Bearer "+token, myRankQuery); a.status != http.StatusOK || !strings.Contains(a.body, `"myRank":null`) {
			t.Fatalf("a player within the budget: %d %s", a.status, a.body)
		}
	}
	if a := send(t, "POST", url+"/graphql", "198.51.100.1", "Bearer "+token, myRankQuery); !a.limited() {
		t.Errorf("a player over its address's budget: %d %s", a.status, a.body)
	}
}

// A token longer than auth.MaxTokenBytes is refused without being parsed:
// this one is well signed, and would be accepted if it were.
func TestRateLimit_OversizedTokenRefusedUnread(t *testing.T) {
	url := startLimited(t, server.RateLimits{})
	sign := func(pad int) string {
		t.Helper()
		token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
			"sub": "alice", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(), "pad": strings.Repeat("x", pad),
		}).SignedString([]byte(jwtSecret))
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	if a := send(t, "POST", url+"/graphql", "198.51.100.1", "Bearer "+sign(1000), myRankQuery); !strings.Contains(a.body, `"myRank":null`) {
		t.Fatalf("a padded token within the bound: %d %s", a.status, a.body)
	}
	oversized := sign(auth.MaxTokenBytes)
	a := send(t, "POST", url+"/graphql", "198.51.100.1", "Bearer "+oversized, myRankQuery)
	if !strings.Contains(a.body, "UNAUTHENTICATED") || !strings.Contains(a.body, "longer than 8192 bytes") {
		t.Errorf("a well-signed token of %d bytes: %d %s", len(oversized), a.status, a.body)
	}
}

// An IPv6 client's budget is its /64's; an IPv4 address is the same client
// written as an IPv4-mapped IPv6 address.
func TestRateLimit_IPv6AddressesGroupedBy64(t *testing.T) {
	url := startLimited(t, server.RateLimits{Public: 1})
	for _, group := range [][]string{
		{"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:abcd::9"},
		{"2001:db8:1:3::1", "2001:db8:1:3::1", "2001:db8:1:3::2"},
		{"198.51.100.7", "198.51.100.7", "::ffff:198.51.100.7"},
	} {
		for i, client := range group {
			if a := send(t, "GET", url+"/healthz", client, "", ""); a.limited() != (i == 2) {
				t.Errorf("%s, request %d of its group at 1/s with a burst of 2: %d", client, i+1, a.status)
			}
		}
	}
}
