// Command leaderboard runs the monthly event leaderboard service; see
// `leaderboard --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/server"
)

func main() {
	logger := slog.New(server.LogHandler(slog.NewTextHandler(os.Stderr, nil)))
	if err := app.NewCommand(logger).ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "leaderboard:", message(err))
		os.Exit(1)
	}
}

// message is err as a sentence for the command line: a domain error's own
// message (month 2026-12 has no scores), anything else as it is.
func message(err error) string {
	var domainErr *leaderboard.Error
	if errors.As(err, &domainErr) {
		return domainErr.Message
	}
	return err.Error()
}
