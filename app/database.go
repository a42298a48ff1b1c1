package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gamebackend/leaderboard/localpg"
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
