package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/server"
)

// services stands in for every domain service; nothing is ever found but
// the board main.
type services struct {
	leaderboard.BoardService
	leaderboard.PeriodService
}

func (services) Board(_ context.Context, id string) (*leaderboard.Board, error) {
	if id != leaderboard.MainBoard {
		return nil, nil
	}
	return &leaderboard.Board{ID: id, Reset: leaderboard.ResetMonth, Order: leaderboard.OrderDesc, MaxScore: 10000}, nil
}

func (services) PeriodStanding(context.Context, *leaderboard.Board, string, string, int, int) (*leaderboard.Standing, error) {
	return nil, nil
}

func (services) PeriodLeaderboard(context.Context, *leaderboard.Board, string, int, string) (*leaderboard.Page, error) {
	return &leaderboard.Page{}, nil
}

func (services) OpenedPeriod(context.Context, *leaderboard.Board, string) (*leaderboard.Period, error) {
	return nil, nil
}

func (services) Periods(context.Context, *leaderboard.Board, int) ([]leaderboard.Period, error) {
	return nil, nil
}

func (services) SubmitScores(context.Context, []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	return nil, nil
}

func (services) LiveRanks(context.Context, []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]int, error) {
	return nil, nil
}

func (services) ExportStandings(_ context.Context, board, key string, form leaderboard.ExportForm, w io.Writer) error {
	switch {
	case form == leaderboard.MonthExport && board != leaderboard.MainBoard:
		return leaderboard.Errorf(leaderboard.EINTERNAL, "month export of board %s", board)
	case form == leaderboard.MonthExport && key == "2026-11":
		return leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is OPEN", key)
	case form == leaderboard.MonthExport:
		_, err := io.WriteString(w, "rank,player_id,player_name,score,reached_at,percentile\n")
		return err
	case board != "laps":
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", board)
	case key == "2026-11-20":
		return leaderboard.Errorf(leaderboard.ECONFLICT, "period %s is OPEN", key)
	}
	_, err := io.WriteString(w, "rank,player_id,player_name,score,reached_at,percentile,subscore,tier,claimed_at\n")
	return err
}

// start runs a server over the fake services on a free port.
func start(t *testing.T, ping func(context.Context) error, ready func() bool) string {
	t.Helper()
	s := server.New(server.Config{
		Addr: "127.0.0.1:0", Standings: services{}, Boards: services{}, Periods: services{}, Scores: services{}, Ranks: services{},
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
		{"PeriodExportNoToken", "GET", "/admin/boards/laps/periods/2026-11-19/standings.csv", "", "", "", 401, "UNAUTHENTICATED"},
		{"PeriodExportBadBoard", "GET", "/admin/boards/La%20ps/periods/2026-11-19/standings.csv", "", "admin", "", 400, "BAD_USER_INPUT"},
		{"PeriodExportUnknownBoard", "GET", "/admin/boards/nope/periods/2026-11-19/standings.csv", "", "admin", "", 404, "NOT_FOUND"},
		{"PeriodExportOpen", "GET", "/admin/boards/laps/periods/2026-11-20/standings.csv", "", "admin", "", 409, "CONFLICT"},
		{"PeriodExport", "GET", "/admin/boards/laps/periods/2026-11-19/standings.csv", "", "admin", "", 200, "subscore,tier,claimed_at"},
		{"Metrics", "GET", "/metrics", "", "", "", 200, "leaderboard_http_request_duration_seconds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, header, body := do(t, c.method, url+c.path, c.contentType, c.token, c.body)
			if status != c.status || !strings.Contains(strings.ToLower(body), strings.ToLower(c.want)) {
				t.Fatalf("%d %q, want %d with %q", status, body, c.status, c.want)
			}
			if got := header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff on every answer", got)
			}
			if (c.name == "Export" || c.name == "PeriodExport") && !strings.HasPrefix(header.Get("Content-Type"), "text/csv") {
				t.Errorf("export content type %q", header.Get("Content-Type"))
			}
			if c.name == "PeriodExport" && header.Get("Content-Disposition") != `attachment; filename="standings-laps-2026-11-19.csv"` {
				t.Errorf("export disposition %q", header.Get("Content-Disposition"))
			}
			if c.name == "Export" && header.Get("Content-Disposition") != `attachment; filename="standings-2026-10.csv"` {
				t.Errorf("export disposition %q", header.Get("Content-Disposition"))
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

func TestServer_RequestIDAndAMetricsListenerOfItsOwn(t *testing.T) {
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr := free.Addr().String()
	free.Close()
	s := server.New(server.Config{
		Addr: "127.0.0.1:0", Standings: services{}, Boards: services{}, Periods: services{}, Scores: services{}, Ranks: services{},
		Ping: func(context.Context) error { return nil }, MetricsAddr: metricsAddr, Logger: slog.New(slog.DiscardHandler),
	})
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if status, _, _ := do(t, "GET", s.URL()+"/metrics", "", "", ""); status != 404 {
		t.Errorf("/metrics on the public listener: %d", status)
	}
	if status, header, body := do(t, "GET", "http://"+metricsAddr+"/metrics", "", "", ""); status != 200 ||
		!strings.Contains(body, "go_goroutines") || header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("/metrics on its own listener: %d, %v", status, header)
	}
	req, _ := http.NewRequest("GET", s.URL()+"/healthz", nil)
	req.Header.Set("X-Request-Id", "trace-42.a_b")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); got != "trace-42.a_b" {
		t.Errorf("a sane request id came back as %q", got)
	}
	req.Header.Set("X-Request-Id", "bad id")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); len(got) != 16 || strings.Contains(got, " ") {
		t.Errorf("a bad request id was replaced by %q", got)
	}
}

func TestLogHandler_AddsTheRequestID(t *testing.T) {
	var out strings.Builder
	logger := slog.New(server.LogHandler(slog.NewTextHandler(&out, nil)))
	h := server.New(server.Config{Addr: "127.0.0.1:0", Standings: services{}, Boards: services{}, Periods: services{}, Scores: services{},
		Ranks: services{}, Ping: func(ctx context.Context) error {
			logger.InfoContext(ctx, "pinged")
			return nil
		}, Logger: logger})
	if err := h.Open(); err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	req, _ := http.NewRequest("GET", h.URL()+"/readyz", nil)
	req.Header.Set("X-Request-Id", "r-1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !strings.Contains(out.String(), "request_id=r-1") {
		t.Errorf("log: %s", out.String())
	}
}

// A body over the limit is refused with an answer that names the limit.
func TestServer_OversizedBodyNamesTheLimit(t *testing.T) {
	url := startLimited(t, server.RateLimits{})
	body := `{"query": "mutation { submitScores(events: []) { status } }", "variables": {"pad": "` +
		strings.Repeat("x", 4_500_000) + `"}}`
	for _, accept := range []string{"", "application/graphql-response+json"} {
		req, err := http.NewRequest("POST", url+"/graphql", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode >= 500 || !strings.Contains(string(raw), "the request body is over the limit of 4 MiB (4194304 bytes)") ||
			!strings.Contains(string(raw), `"BAD_USER_INPUT"`) {
			t.Errorf("Accept %q: %d %.300s", accept, res.StatusCode, raw)
		}
	}
}
