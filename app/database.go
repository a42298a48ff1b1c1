package app

import (
	"context"
	"log/slog"

	"github.com/gamebackend/leaderboard/localpg"
)

// database returns the URL of the database to use and a function that lets
// go of it: DATABASE_URL when set; otherwise the project-local PostgreSQL in
// .leaderboard, started from the machine's PostgreSQL binaries or shared with
// a program already running on it, and stopped by its last user.
func (c *Config) database(ctx context.Context, logger *slog.Logger) (url string, release func(context.Context) error, err error) {
	if c.DatabaseURL != "" {
		return c.DatabaseURL, func(context.Context) error { return nil }, nil
	}
	logger.Info("DATABASE_URL is not set: using the project-local PostgreSQL", "dir", localpg.DefaultDir)
	server, err := localpg.Start(ctx, localpg.Options{Logger: logger})
	if err != nil {
		return "", nil, err
	}
	return server.URL(), server.Stop, nil
}
