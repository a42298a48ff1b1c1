package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/server"
)

// services stands in for every domain service; nothing is ever found.
type services struct{}

func (services) Standing(context.Context, leaderboard.Month, string, int, int) (*leaderboard.Standing, error) {
	return nil, nil
}

func (services) Leaderboard(context.Context, leaderboard.Month, int, string) (*leaderboard.Page, error) {
	return &leaderboard.Page{}, nil
}

func (services) Month(context.Context, leaderboard.Month) (*leaderboard.MonthInfo, error) {
	return nil, nil
}

func (services) Months(context.Context, int) ([]leaderboard.MonthInfo, error) { return nil, nil }

func (services) SubmitScores(context.Context, []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	return nil, nil
}

func (services) LiveRanks(context.Context, []leaderboard.PlayerMonth) (map[leaderboard.PlayerMonth]int, error) {
	return nil, nil
}

func (services) Players(context.Context, []string) (map[string]leaderboard.Player, error) {
	return nil, nil
}

func (services) ExportStandings(_ context.Context, m leaderboard.Month, w io.Writer) error {
	if m.Month() == 11 {
		return leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is OPEN", m)
	}
	_, err := io.WriteString(w, "rank,player_id,player_name,score,reached_at,percentile\n")
	return err
}

// start runs a server over the fake services on a free port.
func start(t *testing.T, ping func(context.Context) error, ready func() bool) string {
	t.Helper()
	s := server.New(server.Config{
		Addr: "127.0.0.1:0", Standings: services{}, Months: services{}, Scores: services{}, Players: services{}, Ranks: services{},
		Exporter: services{}, Auth: auth.Config{AdminToken: "admin"}, Ping: ping, Ready: ready,
		Logger: slog.New(slog.DiscardHandler),
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

func do(t *testing.T, method, url, contentType, token, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(raw)
}

func TestServer_RoutesStatusesAndContentTypes(t *testing.T) {
	url := start(t, func(context.Context) error { return nil }, func() bool { return true })
	const query = `{"query": "{ months { month } }"}`
	for _, c := range []struct {
		name, method, path, contentType, token, body string
		status                                       int
		want                                         string
	}{
		{"GraphQL", "POST", "/graphql", "application/json", "", query, 200, `"months":[]`},
		{"GraphQLCharset", "POST", "/graphql", "application/json; charset=utf-8", "", query, 200, `"months":[]`},
		{"GraphQLGet", "GET", "/graphql", "", "", "", 405, "BAD_USER_INPUT"},
		{"GraphQLForm", "POST", "/graphql", "application/x-www-form-urlencoded", "", "q=1", 415, "BAD_USER_INPUT"},
		{"GraphQLNotJSON", "POST", "/graphql", "application/json", "", "{", 400, ""},
		{"Health", "GET", "/healthz", "", "", "", 200, "ok"},
		{"Ready", "GET", "/readyz", "", "", "", 200, "ready"},
		{"Page", "GET", "/", "", "", "", 200, "<!doctype html>"},
		{"Unknown", "GET", "/nope", "", "", "", 404, ""},
		{"ExportNoToken", "GET", "/admin/months/2026-10/standings.csv", "", "", "", 401, "UNAUTHENTICATED"},
		{"ExportBadToken", "GET", "/admin/months/2026-10/standings.csv", "", "wrong", "", 401, "UNAUTHENTICATED"},
		{"ExportBadMonth", "GET", "/admin/months/2026-13/standings.csv", "", "admin", "", 400, "BAD_USER_INPUT"},
		{"ExportOpenMonth", "GET", "/admin/months/2026-11/standings.csv", "", "admin", "", 409, "CONFLICT"},
		{"Export", "GET", "/admin/months/2026-10/standings.csv", "", "admin", "", 200, "rank,player_id"},
		{"Metrics", "GET", "/metrics", "", "", "", 200, "leaderboard_http_request_duration_seconds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, header, body := do(t, c.method, url+c.path, c.contentType, c.token, c.body)
			if status != c.status || !strings.Contains(strings.ToLower(body), strings.ToLower(c.want)) {
				t.Fatalf("%d %q, want %d with %q", status, body, c.status, c.want)
			}
			if c.name == "Export" && !strings.HasPrefix(header.Get("Content-Type"), "text/csv") {
				t.Errorf("export content type %q", header.Get("Content-Type"))
			}
		})
	}
}

func TestServer_ReadyzFailsOnlyWhenNotReady(t *testing.T) {
	down := start(t, func(context.Context) error { return errors.New("connection refused") }, func() bool { return true })
	if status, _, body := do(t, "GET", down+"/readyz", "", "", ""); status != 503 || !strings.Contains(body, "database") {
		t.Errorf("database down: %d %s", status, body)
	}
	loading := start(t, func(context.Context) error { return nil }, func() bool { return false })
	if status, _, body := do(t, "GET", loading+"/readyz", "", "", ""); status != 503 || !strings.Contains(body, "loading") {
		t.Errorf("closed months loading: %d %s", status, body)
	}
	if status, _, _ := do(t, "GET", loading+"/healthz", "", "", ""); status != 200 {
		t.Errorf("healthz while loading: %d", status)
	}
}
