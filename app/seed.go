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
		Use:   "seed --month YYYY-MM --players N [--seed S]",
		Short: "Fill an open month that has no scores with made-up players and scores, for demos and benchmarks",
		Long: `seed creates N players, player-00000001 on (keeping those that exist), and
gives each a score in the month: about 3% exactly on the participation score
100, the rest long-tailed (lognormal around 300, 1% over 3000, few on 10000),
reached at whole minutes between the month's start and its end or now, so many
players tie exactly. It writes with COPY in one transaction, builds the
indexes and rank counts, analyzes, and swaps the rows in as the month's
partition; for those last seconds, reads and writes of scores wait.

It refuses a month that is not OPEN or already has scores. The same --seed
gives the same data; without it a random seed is drawn and printed.`,
		Args: cobra.NoArgs,
	}
	month := cmd.Flags().String("month", "", "month to seed, YYYY-MM")
	players := cmd.Flags().Int("players", 0, fmt.Sprintf("number of players, 1..%d", db.MaxSeedPlayers))
	seed := cmd.Flags().Uint64("seed", 0, "random seed (default: a random one, printed)")
	cmd.MarkFlagRequired("month")
	cmd.MarkFlagRequired("players")
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		m, err := leaderboard.ParseMonth(*month)
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
		// A month that cannot be seeded is refused before anything is
		// printed about a seed that will not run; Seed checks again, under
		// the month's lock.
		if err := seedable(ctx, store, m); err != nil {
			return err
		}
		if !cmd.Flags().Changed("seed") {
			*seed = rand.Uint64()
			fmt.Fprintf(cmd.ErrOrStderr(), "random seed %d (pass --seed %d to repeat)\n", *seed, *seed)
		}
		start := time.Now()
		progress, finish := seedProgress(cmd.ErrOrStderr(), m, *players, start)
		stats, err := store.Seed(ctx, m, *players, db.SeedOptions{RandomSeed: *seed, Progress: progress})
		finish()
		if leaderboard.ErrorCode(err) == leaderboard.EBADINPUT {
			return err
		} else if err != nil {
			return err
		}
		elapsed := time.Since(start)
		fmt.Fprintf(cmd.OutOrStdout(), "seeded %d players in %s (%d new) in %s, %.0f players/s\n",
			stats.Players, m, stats.NewPlayers, elapsed.Round(time.Millisecond), float64(stats.Players)/elapsed.Seconds())
		return nil
	}
	return cmd
}

// seedable returns Seed's EBADINPUT error when month m is not OPEN or
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

// seedProgress returns the progress callback of a seed of players into m,
// and a function to call when the seed returns. On a terminal it draws a
// progress bar with the copy's time left; elsewhere, as in logs, it prints a
// line each tenth of the way. Only the summary gives a rate, over the whole
// seed: the copy is the first part of it, indexes and rank counts the rest.
func seedProgress(w io.Writer, m leaderboard.Month, players int, start time.Time) (progress func(done int), finish func()) {
	var show func(done int)
	finish = func() {}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(players,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("copying players into "+m.String()),
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
