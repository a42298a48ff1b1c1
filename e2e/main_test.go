// Package e2e_test drives the real leaderboard program end to end: each test
// restores a migrated PostgreSQL (in a container, through testcontainers-go),
// starts app.Main on a free port and talks to it only over HTTP.
package e2e_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// The secrets the service under test is started with.
const (
	adminToken  = "e2e-admin-token"
	serverToken = "e2e-game-server-token"
	jwtSecret   = "e2e-jwt-secret-of-enough-length-0123456789"
)

var pg *pgtest.Postgres

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "serve" {
		os.Exit(serveAsChild())
	}
	os.Exit(pgtest.Run(m, &pg))
}

// childEnv makes the test binary run `leaderboard serve` instead of the
// tests: a real process of the program, for tests that kill it.
const childEnv = "LEADERBOARD_E2E_CHILD"

// serveAsChild runs the program's command line as cmd/leaderboard does.
func serveAsChild() int {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cmd := app.NewCommand(logger)
	cmd.SetArgs([]string{"serve"})
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "leaderboard:", err)
		return 1
	}
	return 0
}

// server is a running leaderboard program and an HTTP client for it.
type server struct {
	url    string
	client *http.Client
}

// startServer restores the database to its freshly migrated state and starts
// the real program against it on a free port, its configuration changed by
// the options given. The program is closed when the test ends, before the
// next test restores the database again.
func startServer(t *testing.T, options ...func(*app.Config)) *server {
	t.Helper()
	pg.Reset(t)
	s, _ := startInstance(t, options...)
	return s
}

// startInstance starts one more instance of the real program against the
// test database as it is, and returns it with its Main. It is closed when the
// test ends.
func startInstance(t *testing.T, options ...func(*app.Config)) (*server, *app.Main) {
	t.Helper()
	// Warnings and errors only: an INTERNAL answer shows its cause in the
	// failing test's output.
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	m := &app.Main{
		Config: app.Config{
			ListenAddr:  "127.0.0.1:0",
			DatabaseURL: pg.URL,
			Timezone:    "UTC",
			AdminToken:  adminToken,
			ServerToken: serverToken,
			JWTSecret:   jwtSecret,
			// As in production: closed months are served from memory once
			// loaded, so reads cover both paths.
			SnapshotPlayers: 1_000_000,
			// The tests send events to the previous month as well: it stays
			// open, and nothing closes it unasked.
			CloseGrace:        45 * 24 * time.Hour,
			SchedulerInterval: 100 * time.Millisecond,
		},
		Logger: logger,
	}
	for _, option := range options {
		option(&m.Config)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Run(ctx); err != nil {
		m.Close()
		t.Fatalf("start the program: %v", err)
	}
	s := &server{url: m.Server.URL(), client: &http.Client{Timeout: 30 * time.Second}}
	t.Cleanup(func() {
		s.client.CloseIdleConnections()
		if err := m.Close(); err != nil {
			t.Errorf("close the program: %v", err)
		}
	})
	return s, m
}

// playerToken returns a player JWT for playerID, valid for an hour.
func playerToken(t *testing.T, playerID string) string {
	t.Helper()
	token, err := auth.PlayerToken([]byte(jwtSecret), playerID, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatalf("sign player token: %v", err)
	}
	return token
}

// clock hands out instants of one month for occurredAt: at(0) < at(1) < ...
// < at(maxTicks-1), all inside the month and in the past.
type clock struct {
	month  string // YYYY-MM
	base   time.Time
	step   time.Duration
	endsAt time.Time // first instant after the month
}

// maxTicks is how many distinct instants a clock hands out.
const maxTicks = 1024

// at returns the i-th instant of the clock.
func (c clock) at(i int) *time.Time {
	if i < 0 || i >= maxTicks {
		panic(fmt.Sprintf("clock tick %d outside 0..%d", i, maxTicks-1))
	}
	t := c.base.Add(time.Duration(i) * c.step)
	return &t
}

// monthStart returns the first instant of t's month in UTC.
func monthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// currentMonth returns a clock in the current month (UTC, the service's event
// time zone) whose instants all lie between the month's start and now. Ticks
// are a second apart unless the month began less than about 35 minutes ago.
func currentMonth(t *testing.T) clock {
	t.Helper()
	now := time.Now().UTC()
	start := monthStart(now)
	step := time.Second
	if span := now.Sub(start); span < 2*maxTicks*step {
		step = (span / (2 * maxTicks)).Truncate(time.Microsecond)
		if step <= 0 {
			t.Fatalf("the month began %s ago: too early to place events in it", span)
		}
	}
	base := now.Add(-time.Duration(maxTicks) * step).Truncate(time.Microsecond)
	return clock{month: start.Format("2006-01"), base: base, step: step, endsAt: start.AddDate(0, 1, 0)}
}

// previousMonth returns a clock in the month before the current one, starting
// a day into it with ticks a second apart.
func previousMonth(t *testing.T) clock {
	t.Helper()
	end := monthStart(time.Now())
	start := end.AddDate(0, -1, 0)
	return clock{month: start.Format("2006-01"), base: start.Add(24 * time.Hour), step: time.Second, endsAt: end}
}

// ev returns a score event without a player name.
func ev(eventID, playerID, mode string, value int, at *time.Time) scoreEvent {
	return scoreEvent{EventID: eventID, PlayerID: playerID, Mode: mode, Value: value, OccurredAt: at}
}

// named returns e carrying the display name name.
func named(e scoreEvent, name string) scoreEvent {
	e.PlayerName = &name
	return e
}
