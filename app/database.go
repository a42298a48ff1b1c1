package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/backoff"
	"github.com/gamebackend/leaderboard/localpg"
	"github.com/gamebackend/leaderboard/server"
)

// database returns the URL of the database to use and a function that lets
// go of it: DATABASE_URL when set; otherwise the local PostgreSQL in the data
// folder (dataDir), started from the machine's PostgreSQL binaries or shared
// with a program already running on it, and stopped by its last user. Only
// with create does it make a new cluster in a folder that has none: a
// one-off command pointed at another folder than the server's is refused
// rather than given a new, empty database.
func (c *Config) database(ctx context.Context, logger *slog.Logger, create bool) (url string, release func(context.Context) error, err error) {
	if c.DatabaseURL != "" {
		return c.DatabaseURL, func(context.Context) error { return nil }, nil
	}
	dir, err := c.dataDir()
	if err != nil {
		return "", nil, err
	}
	logger.Info("DATABASE_URL is not set: using the local PostgreSQL (LEADERBOARD_DATA_DIR to move it)", "dir", dir)
	server, err := localpg.Start(ctx, localpg.Options{Dir: dir, Logger: logger, Existing: !create, Setting: "LEADERBOARD_DATA_DIR"})
	if errors.Is(err, localpg.ErrNoCluster) {
		return "", nil, fmt.Errorf("no database at %s: start the server with `make run` first, or set LEADERBOARD_DATA_DIR / DATABASE_URL to the server's", dir)
	}
	if err != nil {
		return "", nil, err
	}
	return server.URL(), server.Stop, nil
}

// dataDir is where the local PostgreSQL keeps its data: LEADERBOARD_DATA_DIR,
// or one place per user whatever the working directory, so that a command
// run from elsewhere (a cron job's close-month) finds the same database.
// For root that is /var/lib/leaderboard: PostgreSQL runs as the postgres
// user, which may not enter /root. For anyone else $XDG_DATA_HOME/leaderboard
// or ~/.local/share/leaderboard.
func (c *Config) dataDir() (string, error) {
	if c.DataDir != "" {
		return filepath.Abs(c.DataDir)
	}
	if os.Geteuid() == 0 {
		return "/var/lib/leaderboard", nil
	}
	if xdg := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "leaderboard"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no data folder for the local PostgreSQL: set LEADERBOARD_DATA_DIR or DATABASE_URL (%w)", err)
	}
	return filepath.Join(home, ".local", "share", "leaderboard"), nil
}

// The tries of awaitDatabase: each bounded by databaseTryTimeout (a frozen
// server accepts the connection and never answers), spaced by a backoff
// from databaseFirstBackoff doubling up to databaseMaxBackoff, each drawn
// from the upper half of that so that instances started together do not
// try in step.
const (
	databaseTryTimeout   = 5 * time.Second
	databaseFirstBackoff = 500 * time.Millisecond
	databaseMaxBackoff   = 10 * time.Second
)

// awaitDatabase returns once the database at url answers. While it cannot
// be reached, the listen address answers as server.Standby says (/healthz
// alive, /readyz and the rest 503), until closeStandby, and each try is
// logged; an orchestrator
// keeps the instance and sends it no traffic, and without one it comes up by
// itself when the database does. It returns an error at once for what no
// wait mends (a refused password, an unknown database), at the end of
// DatabaseWait (0: none) and when ctx ends.
func (m *Main) awaitDatabase(ctx context.Context, url string) error {
	err := tryDatabase(ctx, url)
	if leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
		return err
	}
	standby, serr := server.OpenStandby(m.Config.ListenAddr, m.Logger)
	if serr != nil {
		return serr
	}
	// It answers until the service's own server opens (or Close): through
	// the migrations and loads after the wait too.
	m.standby = standby
	// With port 0 the service keeps the port the standby was given.
	if host, port, perr := net.SplitHostPort(m.Config.ListenAddr); perr == nil && port == "0" {
		m.Config.ListenAddr = net.JoinHostPort(host, fmt.Sprint(standby.Addr().(*net.TCPAddr).Port))
	}
	start := time.Now()
	for attempt := 1; ; attempt++ {
		if limit := m.Config.DatabaseWait; limit > 0 && time.Since(start) >= limit {
			return fmt.Errorf("the database did not answer within LEADERBOARD_DATABASE_WAIT=%s: %w", limit, err)
		}
		wait := backoff.Jittered(databaseFirstBackoff, databaseMaxBackoff, attempt)
		if limit := m.Config.DatabaseWait; limit > 0 {
			wait = min(wait, limit-time.Since(start))
		}
		m.Logger.Warn("waiting for the database: /readyz answers 503 until it answers", "attempt", attempt,
			"retry_in", wait.Round(time.Millisecond), "waited", time.Since(start).Round(time.Millisecond), "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped while waiting for the database: %w", ctx.Err())
		case <-time.After(wait):
		}
		if err = tryDatabase(ctx, url); leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE {
			if err == nil {
				m.Logger.Info("the database answers", "attempts", attempt+1, "waited", time.Since(start).Round(time.Millisecond))
			}
			return err
		}
	}
}

// tryDatabase is one try of awaitDatabase.
func tryDatabase(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, databaseTryTimeout)
	defer cancel()
	return db.Reachable(ctx, url)
}

// closeStandby closes the listener awaitDatabase opened, if any, so that
// the service's server can open on its address.
func (m *Main) closeStandby() {
	if m.standby == nil {
		return
	}
	if err := m.standby.Close(); err != nil {
		m.Logger.Warn("close the standby listener", "err", err)
	}
	m.standby = nil
}
