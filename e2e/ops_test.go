package e2e_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestOps_HealthReadinessAndMetrics(t *testing.T) {
	s := startServer(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if status, body := s.get(t, path); status != http.StatusOK {
			t.Errorf("GET %s: %d %s, want 200", path, status, body)
		}
	}
	s.months(t, 1) // one GraphQL request to be measured too

	status, body := s.get(t, "/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d, want 200", status)
	}
	for _, want := range []string{
		"leaderboard_http_request_duration_seconds_bucket",
		`route="GET /healthz"`,
		`route="/graphql"`,
		"go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /metrics does not contain %s", want)
		}
	}
}
