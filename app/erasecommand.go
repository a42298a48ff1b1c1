package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

func erasePlayerCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "erase-player ID --reason TEXT",
		Short: "Erase a player from every board and period, as the erasePlayer mutation does (idempotent)",
		Long: `erase-player removes player ID from every board and period, open and closed:
scores, events (their ids stay, so a retry answers DUPLICATE), name, metadata
and claims. Each CLOSED period the player is in is ranked again as a
correction: its digest changes and a month.corrected or period.corrected
message goes out. The audit keeps the time, the reason and an HMAC-SHA256 of
the id with LEADERBOARD_ERASURE_KEY (or _FILE; required, and the service's
own), never the id. A second run answers 0 periods. Cut short (an interrupt,
--timeout), it is finished by the next run or by any running service.`,
		Args: cobra.ExactArgs(1),
	}
	reason := cmd.Flags().String("reason", "", "why the player is erased, 1..500 characters, kept in the audit (required)")
	timeout := cmd.Flags().Duration("timeout", cfg.ErasureTimeout, "how long the erasure may take (env LEADERBOARD_ERASURE_TIMEOUT)")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		store, closeDB, err := openDB(ctx, cfg, logger)
		if err != nil {
			return err
		}
		defer closeDB()
		ctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		start := time.Now()
		e, err := store.ErasePlayer(ctx, args[0], *reason)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "erasure %s: removed from %d periods, %d of them closed and corrected (took %s)\n",
			e.ID, e.Periods, e.CorrectedPeriods, time.Since(start).Round(time.Millisecond))
		return nil
	}
	return cmd
}
