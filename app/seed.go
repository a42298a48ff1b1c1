package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func seedCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "seed (--month YYYY-MM | --board BOARD --period KEY) --players N [--seed S]",
		Short: "Fill an open month or board period that has no scores with made-up players and scores, for demos and benchmarks",
		Long: `seed creates N players, player-00000001 on (keeping those that exist), and
gives each a score in the month: about 3% exactly on the participation score
100, the rest long-tailed (lognormal around 300, 1% over 3000, few on 10000),
reached at whole minutes between the month's start and its end or now, so many
players tie exactly.

With --board and --period it fills period KEY of a board other than main
instead (a day 2026-11-25, a week 2026-W48, a month 2026-11, a season's key,
or "all"): the same players and scores, kept within the board's bounds,
reached between the period's start and its end or now.

Either way the rows go with COPY into the scores every board shares, in one
transaction that then builds the period's rank counts and analyzes; the
period's events and its close wait for it, and a seed that fails leaves no
scores.

It refuses a month or period that is not OPEN or already has scores, and
main's periods with --board (use --month). The same --seed gives the same
data; without it a random seed is drawn and printed.`,
		Args: cobra.NoArgs,
	}
	month := cmd.Flags().String("month", "", "month of main to seed, YYYY-MM")
	board := cmd.Flags().String("board", "", "board whose period to seed (not main: use --month)")
	period := cmd.Flags().String("period", "", "key of the board's period to seed")
	players := cmd.Flags().Int("players", 0, fmt.Sprintf("number of players, 1..%d", db.MaxSeedPlayers))
	seed := cmd.Flags().Uint64("seed", 0, "random seed (default: a random one, printed)")
	cmd.MarkFlagsMutuallyExclusive("month", "board")
	cmd.MarkFlagsMutuallyExclusive("month", "period")
	cmd.MarkFlagsRequiredTogether("board", "period")
	cmd.MarkFlagsOneRequired("month", "board")
	cmd.MarkFlagRequired("players")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		target, err := seedTargetOf(*month, *board, *period)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		store, closeDB, err := openDB(ctx, cfg, logger)
		if err != nil {
			return err
		}
		defer closeDB()
		// What cannot be seeded is refused before anything is printed about
		// a seed that will not run; the seed checks again, under its lock.
		if err := target.seedable(ctx, store); err != nil {
			return err
		}
		if !cmd.Flags().Changed("seed") {
			*seed = rand.Uint64()
			fmt.Fprintf(cmd.ErrOrStderr(), "random seed %d (pass --seed %d to repeat)\n", *seed, *seed)
		}
		start := time.Now()
		progress, finish := seedProgress(cmd.ErrOrStderr(), target, *players, start)
		stats, err := store.SeedPeriod(ctx, target.board, target.key, *players, db.SeedOptions{RandomSeed: *seed, Progress: progress})
		finish()
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		fmt.Fprintf(cmd.OutOrStdout(), "seeded %d players in %s (%d new) in %s, %.0f players/s\n",
			stats.Players, target, stats.NewPlayers, elapsed.Round(time.Millisecond), float64(stats.Players)/elapsed.Seconds())
		// The seed is committed: a vacuum that fails leaves its work to
		// autovacuum, and the command still succeeds.
		start = time.Now()
		if err := store.VacuumSeeded(ctx); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "the seed stands, but %v (autovacuum will do it)\n", err)
			return nil
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "vacuumed and analyzed the seeded tables in %s\n", time.Since(start).Round(time.Millisecond))
		return nil
	}
	return cmd
}

// seedTarget is what a seed fills: period key of board, main's month given
// by --month, or a period of another board.
type seedTarget struct {
	board, key string
	month      leaderboard.Month // main's month, when board is main
}

// seedTargetOf reads the seed command's flags: a month, or a board and a
// period. EBADINPUT for a malformed month or board id, and for main named by
// --board.
func seedTargetOf(month, board, period string) (seedTarget, error) {
	if board == "" {
		m, err := leaderboard.ParseMonth(month)
		return seedTarget{board: leaderboard.MainBoard, key: m.String(), month: m}, err
	}
	if err := leaderboard.CheckBoardID(board); err != nil {
		return seedTarget{}, err
	}
	if board == leaderboard.MainBoard {
		return seedTarget{}, leaderboard.Errorf(leaderboard.EBADINPUT, "main's periods are its months: seed them with --month")
	}
	return seedTarget{board: board, key: period}, nil
}

// String names the target as the command's output does.
func (t seedTarget) String() string {
	if t.board == leaderboard.MainBoard {
		return t.month.String()
	}
	return "period " + t.key + " of " + t.board
}

// seedable returns the seed's error for a month or period that cannot be
// seeded, as far as can be told before it runs.
func (t seedTarget) seedable(ctx context.Context, store *db.DB) error {
	if t.board == leaderboard.MainBoard {
		return seedable(ctx, store, t.month)
	}
	p, err := store.Period(ctx, t.board, t.key)
	switch {
	case err != nil:
		return err
	case p == nil:
		return leaderboard.Errorf(leaderboard.ENOTFOUND, "board %s has no period %s", t.board, t.key)
	case p.Status != leaderboard.PeriodOpen:
		return leaderboard.Errorf(leaderboard.EBADINPUT, "period %s of %s is %s: only an open period can be seeded",
			t.key, t.board, p.Status)
	case p.Participants > 0:
		return leaderboard.Errorf(leaderboard.EBADINPUT,
			"period %s of %s already has scores: only a period without scores can be seeded", t.key, t.board)
	}
	return nil
}

// seedable returns SeedPeriod's EBADINPUT error when month m is not OPEN or
// already has scores; a month that never opened can be seeded.
func seedable(ctx context.Context, store *db.DB, m leaderboard.Month) error {
	info, err := store.Month(ctx, m)
	switch {
	case err != nil:
		return err
	case info == nil:
		return nil
	case info.Status != leaderboard.MonthOpen:
		return leaderboard.Errorf(leaderboard.EBADINPUT, "month %s is %s: only an open month can be seeded", m, info.Status)
	case info.Participants > 0:
		return leaderboard.Errorf(leaderboard.EBADINPUT, "month %s already has scores: only a month without scores can be seeded", m)
	}
	return nil
}

// seedProgress returns the progress callback of a seed of players into target,
// and a function to call when the seed returns. On a terminal it draws a
// progress bar with the copy's time left; elsewhere, as in logs, it prints a
// line each tenth of the way. Only the summary gives a rate, over the whole
// seed: the copy is the first part of it, indexes and rank counts the rest.
func seedProgress(w io.Writer, target seedTarget, players int, start time.Time) (progress func(done int), finish func()) {
	var show func(done int)
	finish = func() {}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(players,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("copying players into "+target.String()),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		show = func(done int) { bar.Set(done) }
		finish = func() {
			if !bar.IsFinished() {
				bar.Exit()
			}
		}
	} else {
		next := 1 // the next tenth to report
		show = func(done int) {
			if done*10 < next*players {
				return
			}
			for done*10 >= next*players {
				next++
			}
			elapsed := time.Since(start)
			left := time.Duration(float64(elapsed) * float64(players-done) / float64(done))
			fmt.Fprintf(w, "copied %d/%d players (%d%%), copy done in %s\n", done, players, done*100/players, left.Round(time.Second))
		}
	}
	return func(done int) {
		show(done)
		if done == players {
			fmt.Fprintln(w, "building the rank counts and analyzing")
		}
	}, finish
}
