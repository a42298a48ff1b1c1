package e2e_test

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
)

// from returns s as a client at the loopback address addr (such as
// 127.0.0.3) sees it: its connections are made from there, so that each
// address gets budgets of its own.
func (s *server) from(t *testing.T, addr string) *server {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	transport := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(transport.CloseIdleConnections)
	return &server{url: s.url, client: &http.Client{Timeout: 30 * time.Second, Transport: transport}}
}

// Over its budget a client gets 429 with Retry-After and RATE_LIMITED; each
// client address and each token has its own budget, and a player's request
// takes from its address's as well as its own; admins have none; a
// forwarded address counts only from a trusted proxy.
func TestRateLimit_PerClientBudgets(t *testing.T) {
	s := startServer(t, func(c *app.Config) {
		c.RateLimit, c.ServerRateLimit, c.PlayerRateLimit = 1, 2, 1
		c.TrustedProxies = "127.0.0.2/32"
	})
	query := mustJSON(t, map[string]any{"query": `{ months(first: 1) { month } }`})
	send := func(s *server, header http.Header) *response {
		t.Helper()
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", "application/json")
		return s.post(t, header, query)
	}
	burst := func(s *server, header http.Header, n int) {
		t.Helper()
		for i := range n {
			if r := send(s, header.Clone()); r.Status != http.StatusOK {
				t.Fatalf("request %d of a burst of %d: %d %s", i+1, n, r.Status, r.Body)
			}
		}
	}
	refused := func(s *server, header http.Header) {
		t.Helper()
		r := send(s, header.Clone())
		if r.Status != http.StatusTooManyRequests || len(r.Codes()) != 1 || r.Codes()[0] != "RATE_LIMITED" {
			t.Fatalf("over the budget: %d %s", r.Status, r.Body)
		}
	}
	public := http.Header{}
	burst(s, public, 2) // rate 1/s, burst 2
	refused(s, public)
	// An X-Forwarded-For from an untrusted peer changes nothing.
	refused(s, http.Header{"X-Forwarded-For": {"203.0.113.9"}})

	// The game-server token has its own budget, whatever its address's.
	game := http.Header{"Authorization": {"Bearer " + serverToken}}
	burst(s, game, 4)
	refused(s, game)
	p1 := http.Header{"Authorization": {"Bearer " + playerToken(t, "p1")}}
	burst(s.from(t, "127.0.0.3"), p1, 2)
	refused(s.from(t, "127.0.0.4"), p1) // the player's budget
	burst(s.from(t, "127.0.0.5"), http.Header{"Authorization": {"Bearer " + playerToken(t, "p2")}}, 2)
	// The address's budget, taken before the token is checked.
	refused(s.from(t, "127.0.0.3"), http.Header{"Authorization": {"Bearer " + playerToken(t, "p3")}})
	burst(s, http.Header{"Authorization": {"Bearer " + adminToken}}, 10)

	status, body := s.from(t, "127.0.0.6").get(t, "/metrics") // every route takes from the address's budget
	for _, want := range []string{`leaderboard_rate_limited_total{client="public"} 3`,
		`leaderboard_rate_limited_total{client="game_server"} 1`, `leaderboard_rate_limited_total{client="player"} 1`} {
		if status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/graphql", strings.NewReader(string(query)))
	req.Header.Set("Content-Type", "application/json")
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if seconds, err := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode != http.StatusTooManyRequests || err != nil || seconds < 1 {
		t.Errorf("429 with Retry-After %q", res.Header.Get("Retry-After"))
	}
}

// The export route is rate limited like /graphql, and an address past its
// budget of refused tokens gets 429 whatever token it sends next, the right
// one included: a guess cannot be told from a miss.
func TestRateLimit_ExportRouteAndRefusedTokens(t *testing.T) {
	s := startServer(t, func(c *app.Config) {
		c.RateLimit, c.AuthFailureRateLimit = 1, 1
	})
	export := func(s *server, token string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+"/admin/months/2026-10/standings.csv", nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		body := string(raw)
		if seconds, err := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode == http.StatusTooManyRequests &&
			(err != nil || seconds < 1 || !strings.Contains(body, `"RATE_LIMITED"`)) {
			t.Errorf("429 with Retry-After %q: %s", res.Header.Get("Retry-After"), body)
		}
		return res.StatusCode, body
	}
	anonymous := s.from(t, "127.0.0.3")
	for i, want := range []int{401, 401, 429} { // rate 1/s, burst 2
		if status, body := export(anonymous, ""); status != want {
			t.Errorf("anonymous export %d: %d %s, want %d", i+1, status, body, want)
		}
	}
	guesser := s.from(t, "127.0.0.4")
	for i, token := range []string{"guess-1", "guess-2", "guess-3", serverToken, adminToken} {
		want := map[bool]int{true: 401, false: 429}[i < 2] // 1 refused token a second, burst 2
		if status, body := export(guesser, token); status != want {
			t.Errorf("token %d from the guesser: %d %s, want %d", i+1, status, body, want)
		}
	}
	if status, body := export(s.from(t, "127.0.0.5"), serverToken); status != http.StatusForbidden {
		t.Errorf("a game-server token from elsewhere: %d %s, want 403", status, body)
	}
	if status, body := export(s.from(t, "127.0.0.5"), adminToken); status == http.StatusTooManyRequests || status == http.StatusUnauthorized {
		t.Errorf("the admin token from elsewhere: %d %s", status, body)
	}
	status, body := s.get(t, "/metrics")
	for _, want := range []string{`leaderboard_rate_limited_total{client="public"} 1`, `leaderboard_rate_limited_total{client="failed_auth"} 3`} {
		if status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// Behind a trusted proxy each forwarded client has its own budget.
func TestRateLimit_TrustedProxyForwardsTheClient(t *testing.T) {
	s := startServer(t, func(c *app.Config) {
		c.RateLimit = 1
		c.TrustedProxies = "127.0.0.0/8, ::1/128"
	})
	query := mustJSON(t, map[string]any{"query": `{ months(first: 1) { month } }`})
	for _, client := range []string{"198.51.100.1", "198.51.100.2"} {
		for i := range 3 {
			header := http.Header{"Content-Type": {"application/json"}, "X-Forwarded-For": {"203.0.113.50, " + client}}
			r := s.post(t, header, query)
			if want := map[bool]int{true: 200, false: 429}[i < 2]; r.Status != want {
				t.Fatalf("client %s request %d: %d, want %d", client, i+1, r.Status, want)
			}
		}
	}
}
