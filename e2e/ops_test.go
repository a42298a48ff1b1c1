package e2e_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestOps_HealthReadinessAndMetrics(t *testing.T) {
	s := startServer(t)
	s.waitReady(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if status, body := s.get(t, path); status != http.StatusOK {
			t.Errorf("GET %s: %d %s, want 200", path, status, body)
		}
	}
	s.months(t, 1) // one GraphQL request to be measured too
	c := currentMonth(t)
	s.submit(t, ev("m1", "p1", "SET", 5, c.at(1)), ev("m2", "p1", "SET", 20000, c.at(2)))

	status, body := s.get(t, "/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d, want 200", status)
	}
	for _, want := range []string{
		"leaderboard_http_request_duration_seconds_bucket",
		`route="GET /healthz"`,
		`route="/graphql"`,
		"go_goroutines",
		`leaderboard_score_events_total{code="",status="APPLIED"} 1`,
		`leaderboard_score_events_total{code="BAD_USER_INPUT",status="REJECTED"} 1`,
		`leaderboard_graphql_operation_duration_seconds_count{code="none",field="submitScores"} 1`,
		`leaderboard_graphql_operation_duration_seconds_count{code="none",field="months"} 1`,
		"leaderboard_db_pool_max_connections 10",
		"leaderboard_closed_months_players 0",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /metrics does not contain %s", want)
		}
	}
}

// waitReady waits until /readyz answers 200: the closed months are loaded.
func (s *server) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, body := s.get(t, "/readyz")
		if status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 30 s: %d %s", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
