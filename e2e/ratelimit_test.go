package e2e_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard/app"
)

// Over its budget a client gets 429 with Retry-After and RATE_LIMITED; each
// client address and each token has its own budget; admins have none; a
// forwarded address counts only from a trusted proxy.
func TestRateLimit_PerClientBudgets(t *testing.T) {
	s := startServer(t, func(c *app.Config) {
		c.RateLimit, c.ServerRateLimit, c.PlayerRateLimit = 1, 2, 1
		c.TrustedProxies = "127.0.0.2/32"
	})
	query := mustJSON(t, map[string]any{"query": `{ months(first: 1) { month } }`})
	send := func(header http.Header) *response {
		t.Helper()
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", "application/json")
		return s.post(t, header, query)
	}
	burst := func(header http.Header, n int) {
		t.Helper()
		for i := range n {
			if r := send(header.Clone()); r.Status != http.StatusOK {
				t.Fatalf("request %d of a burst of %d: %d %s", i+1, n, r.Status, r.Body)
			}
		}
	}
	refused := func(header http.Header) {
		t.Helper()
		r := send(header.Clone())
		if r.Status != http.StatusTooManyRequests || len(r.Codes()) != 1 || r.Codes()[0] != "RATE_LIMITED" {
			t.Fatalf("over the budget: %d %s", r.Status, r.Body)
		}
	}
	public := http.Header{}
	burst(public, 2) // rate 1/s, burst 2
	refused(public)
	// An X-Forwarded-For from an untrusted peer changes nothing.
	refused(http.Header{"X-Forwarded-For": {"203.0.113.9"}})

	game := http.Header{"Authorization": {"Bearer " + serverToken}}
	burst(game, 4)
	refused(game)
	player := http.Header{"Authorization": {"Bearer " + playerToken(t, "p1")}}
	burst(player, 2)
	refused(player)
	burst(http.Header{"Authorization": {"Bearer " + playerToken(t, "p2")}}, 2)
	burst(http.Header{"Authorization": {"Bearer " + adminToken}}, 10)

	status, body := s.get(t, "/metrics")
	for _, want := range []string{`leaderboard_rate_limited_total{client="public"} 2`,
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
