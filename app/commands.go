package app

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
)

// NewCommand returns the leaderboard command line: serve, migrate,
// close-month, close-period, export and player-token, among others.
func NewCommand(logger *slog.Logger) *cobra.Command {
	cfg, envErr := ConfigFromEnv()
	root := &cobra.Command{
		Use:   "leaderboard",
		Short: "Leaderboard service for online games: many boards, each with its own reset, order and score range",
		Long: `leaderboard runs any number of leaderboards ("boards") for online games over
GraphQL at /graphql. Each board has its own rules, fixed at its creation: how it
resets (NONE: one everlasting period; DAY, WEEK, MONTH in the board's time zone;
SEASON: periods you make), its order (DESC: higher first; ASC: lower first, as
lap times), its score range, its tie-break and its reward tiers. Game servers
submit scores; players ask for their rank with the players just above and
below; when a period ends its final standings are frozen, exported and
announced by webhook, and each reward is claimed once.

The board "main" exists from the start: the monthly event, totals 0..10000,
ties to whoever reached the score first. Create more with create-board or the
createBoard mutation.

Configuration comes from environment variables; each has a flag that overrides it.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// A variable that does not parse stops every command that uses
		// the configuration, rather than being quietly replaced.
		PersistentPreRunE: func(*cobra.Command, []string) error { return envErr },
	}
	root.AddCommand(serveCommand(&cfg, logger), migrateCommand(&cfg, logger), closeMonthCommand(&cfg, logger),
		closePeriodCommand(&cfg, logger), exportCommand(&cfg, logger), seedCommand(&cfg, logger), boardsCommand(&cfg, logger), createBoardCommand(&cfg, logger),
		playerTokenCommand(&cfg), erasePlayerCommand(&cfg, logger), versionCommand())
	root.Version = Version()
	return root
}

func serveCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Migrate the database and serve GraphQL, /healthz, /readyz and /metrics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			m := &Main{Config: *cfg, Logger: logger}
			if err := m.Run(ctx); err != nil {
				m.Close()
				return err
			}
			<-ctx.Done()
			logger.Info("shutting down")
			return m.Close()
		},
	}
	cfg.bindDatabase(cmd.Flags())
	cfg.bindServe(cmd.Flags())
	return cmd
}

func migrateCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate up|down|version",
		Short: "Apply (up), revert (down) or show (version) the database schema migrations",
		Long: `migrate up applies every pending migration; migrate down reverts the newest
one (with --all, every one, which drops all data); migrate version prints the
schema version and whether a migration failed halfway (dirty). Without
DATABASE_URL, only migrate up (and serve) makes a new local database.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"up", "down", "version"},
	}
	all := cmd.Flags().Bool("all", false, "with down: revert every migration, dropping all data")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		// Only up may make a new local database (as serve does).
		url, release, err := cfg.database(cmd.Context(), logger, args[0] == "up")
		if err != nil {
			return err
		}
		defer release(context.WithoutCancel(cmd.Context()))
		var (
			version uint
			dirty   bool
		)
		switch args[0] {
		case "up":
			version, dirty, err = db.Migrate(url, db.MigrateUp)
		case "down":
			dir := db.MigrateDownOne
			if *all {
				dir = db.MigrateDownAll
			}
			version, dirty, err = db.Migrate(url, dir)
		case "version":
			version, dirty, err = db.SchemaVersion(url)
		default:
			return fmt.Errorf("unknown migrate action %q: use up, down or version", args[0])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "schema version %d (dirty: %t)\n", version, dirty)
		return nil
	}
	return cmd
}

func closeMonthCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "close-month YYYY-MM",
		Short: "Close a month and freeze its final standings (idempotent), as the closeMonth mutation does",
		Long: `close-month starts the month's close job, or joins the one a running service
runs, and waits for it up to --wait (0: until the month is CLOSED). A close cut
short by the end of the wait stays CLOSING and is resumed by any running
service.`,
		Args: cobra.ExactArgs(1),
	}
	wait := cmd.Flags().Duration("wait", 0, "how long to wait for the close; 0 waits until the month is CLOSED")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		month, err := leaderboard.ParseMonth(args[0])
		if err != nil {
			return err
		}
		ctx, store, maxWait, done, err := openForClose(cmd, cfg, logger, *wait)
		if err != nil {
			return err
		}
		defer done()
		closer := lifecycle.NewPeriodCloser(store, logger, lifecycle.PeriodCloserOptions{MaxWait: maxWait,
			Timeout: cfg.CloseTimeout})
		defer closer.Close()
		start := time.Now()
		p, err := closer.ClosePeriod(ctx, leaderboard.MainBoard, month.String())
		if err != nil {
			return err
		}
		info, err := p.MonthInfo()
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "month %s is %s with %d participants, digest %s (took %s)\n",
			info.Month, info.Status, info.Participants, info.Digest, time.Since(start).Round(time.Millisecond))
		return nil
	}
	return cmd
}

// openForClose opens the store for a close command, with a context that an
// interrupt or SIGTERM ends and how long to wait for the close (a wait of 0:
// until it is CLOSED); done releases them.
func openForClose(cmd *cobra.Command, cfg *Config, logger *slog.Logger, wait time.Duration) (
	ctx context.Context, store *db.DB, maxWait time.Duration, done func(), err error) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	store, closeDB, err := openDB(ctx, cfg, logger)
	if err != nil {
		stop()
		return nil, nil, 0, nil, err
	}
	if maxWait = wait; maxWait == 0 {
		maxWait = 365 * 24 * time.Hour
	}
	return ctx, store, maxWait, func() { closeDB(); stop() }, nil
}

func closePeriodCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "close-period BOARD KEY",
		Short: "Close a board's period and freeze its final standings (idempotent), as the closePeriod mutation does",
		Long: `close-period closes period KEY of board BOARD (a day 2026-11-25, a week
2026-W48, a month 2026-11, a season's key, or "all"), waiting for a close of it
that a running service runs, for up to --wait (0: until it is CLOSED). An OPEN
period closed before its end ends early: the close is accepted once the period is
CLOSING, and later events for it are refused. A close cut short after that (by the
end of the wait, an interrupt or a lost database) stays CLOSING and is finished by
any running service. main's periods are its months, closed as close-month closes
them.`,
		Args: cobra.ExactArgs(2),
	}
	wait := cmd.Flags().Duration("wait", 0, "how long to wait for the close; 0 waits until the period is CLOSED")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := leaderboard.CheckBoardID(args[0]); err != nil {
			return err
		}
		ctx, store, maxWait, done, err := openForClose(cmd, cfg, logger, *wait)
		if err != nil {
			return err
		}
		defer done()
		closer := lifecycle.NewPeriodCloser(store, logger, lifecycle.PeriodCloserOptions{MaxWait: maxWait,
			Timeout: cfg.CloseTimeout})
		defer closer.Close()
		start := time.Now()
		p, err := closer.ClosePeriod(ctx, args[0], args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "period %s of %s is %s with %d participants, digest %s (took %s)\n",
			p.Key, p.Board, p.Status, p.Participants, p.Digest, time.Since(start).Round(time.Millisecond))
		return nil
	}
	return cmd
}

func exportCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export YYYY-MM | export --board BOARD KEY",
		Short: "Write a closed month's (or a board's closed period's) final standings as CSV to standard output",
		Long: `export writes the final standings of a CLOSED month in rank order, as
GET /admin/months/YYYY-MM/standings.csv does, under the header
rank,player_id,player_name,score,reached_at,percentile. Text cells a
spreadsheet would run as formulas carry a leading quote; with that quote taken
off player_id, its rank,player_id,score columns hash to the month's digest
(docs/api.md, Export).

With --board, it writes CLOSED period KEY of that board, as
GET /admin/boards/BOARD/periods/KEY/standings.csv does: the same columns, then
subscore,tier,claimed_at.`,
		Args: cobra.ExactArgs(1),
	}
	board := cmd.Flags().String("board", "", "the board whose period KEY to export (default: main's month YYYY-MM)")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var month leaderboard.Month
		if *board == "" {
			var err error
			if month, err = leaderboard.ParseMonth(args[0]); err != nil {
				return err
			}
		} else if err := leaderboard.CheckBoardID(*board); err != nil {
			return err
		}
		store, closeDB, err := openDB(cmd.Context(), cfg, logger)
		if err != nil {
			return err
		}
		defer closeDB()
		out := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
		if *board == "" {
			err = store.ExportStandings(cmd.Context(), leaderboard.MainBoard, month.String(), leaderboard.MonthExport, out)
		} else {
			err = store.ExportStandings(cmd.Context(), *board, args[0], leaderboard.PeriodExport, out)
		}
		if err != nil {
			return err
		}
		return out.Flush()
	}
	return cmd
}

func playerTokenCommand(cfg *Config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "player-token PLAYER_ID",
		Short: "Print a player JWT signed with LEADERBOARD_JWT_SECRET, for trying myRank",
		Args:  cobra.ExactArgs(1),
	}
	ttl := cmd.Flags().Duration("ttl", time.Hour, "how long the token is valid")
	bindJWTSecret(cmd.Flags(), &cfg.JWTSecret)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if cfg.JWTSecret == "" {
			return fmt.Errorf("no secret: set LEADERBOARD_JWT_SECRET or --jwt-secret")
		}
		token, err := cfg.authConfig().SignPlayerToken(args[0], time.Now().Add(*ttl))
		if err != nil {
			return err
		}
		fmt.Fprintln(cmd.OutOrStdout(), token)
		return nil
	}
	return cmd
}

// openDB migrates and opens the configured database for a one-off command,
// refusing a local data folder with no database in it (the server's may be
// elsewhere); closeDB closes it and lets go of the project-local PostgreSQL,
// if used.
func openDB(ctx context.Context, cfg *Config, logger *slog.Logger) (store *db.DB, closeDB func(), err error) {
	loc, err := cfg.location()
	if err != nil {
		return nil, nil, err
	}
	url, release, err := cfg.database(ctx, logger, false)
	if err != nil {
		return nil, nil, err
	}
	closeDB = func() {
		if store != nil {
			store.Close()
		}
		if err := release(context.WithoutCancel(ctx)); err != nil {
			logger.Error("stop the project-local PostgreSQL", "err", err)
		}
	}
	if _, _, err = db.Migrate(url, db.MigrateUp); err == nil {
		store, err = db.Open(ctx, url, cfg.dbOptions(loc, logger)...)
	}
	if err != nil {
		closeDB()
		return nil, nil, err
	}
	return store, closeDB, nil
}
