// Command leaderboard runs the monthly event leaderboard service; see
// `leaderboard --help`.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	_ "time/tzdata" // LEADERBOARD_TIMEZONE works where the system has no zoneinfo

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/server"
)

func main() {
	logger := slog.New(server.LogHandler(slog.NewTextHandler(os.Stderr, nil)))
	if err := app.NewCommand(logger).ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "leaderboard:", err)
		os.Exit(1)
	}
}
