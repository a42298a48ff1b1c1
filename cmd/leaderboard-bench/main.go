// Command leaderboard-bench measures the leaderboard service against the
// Redis design on this machine and writes its report (bench-report.md,
// or --out), whose figures docs/PERFORMANCE.md gathers; `make bench` runs
// it. See package bench.
package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/gamebackend/leaderboard/internal/bench"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "leaderboard-bench:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := bench.Config{ReadClients: []int{1, 8, 64}, SubmitClients: []int{1, 4, 8}, BatchSize: 100}
	flags := pflag.NewFlagSet("leaderboard-bench", pflag.ContinueOnError)
	flags.IntVar(&cfg.Players, "players", 1_000_000, "players seeded into each of the two months (10000000 for the 10M targets)")
	flags.DurationVar(&cfg.Duration, "duration", 10*time.Second, "measured time of each run")
	flags.DurationVar(&cfg.Warmup, "warmup", 2*time.Second, "unmeasured warm-up before each run")
	flags.IntVar(&cfg.Repeat, "repeat", 3, "runs of each measurement; the report gives their median and range")
	out := flags.String("out", "bench-report.md", "where to write the report (docs/PERFORMANCE.md gathers its figures by hand, with their history)")
	flags.StringVar(&cfg.Dir, "dir", ".leaderboard/bench", "the benchmark's own folder, emptied first: its PostgreSQL and Redis")
	flags.IntVar(&cfg.Port, "port", 5434, "port (unix socket name) of the benchmark's PostgreSQL")
	flags.IntVar(&cfg.CreateBoards, "create-boards", 1000, "boards suite: new boards per run of createBoard")
	flags.IntVar(&cfg.BoardClients, "board-clients", 16, "boards suite: createBoard callers, half on each of two instances")
	flags.IntVar(&cfg.CatalogueBoards, "catalogue-boards", 10_000, "boards suite: boards created for the catalogue's count of relations")
	flags.IntVar(&cfg.CataloguePeriods, "catalogue-periods", 30, "boards suite: closed DAY periods inserted for each catalogue board")
	flags.IntVar(&cfg.StormBoards, "storm-boards", 10_000, "boards suite: DAY boards due at once in each midnight storm (0: no storm)")
	flags.IntVar(&cfg.StormPlayers, "storm-players", 100, "boards suite: players of each storm board, and of the small board read")
	flags.DurationVar(&cfg.StormLead, "storm-lead", 15*time.Second, "boards suite: how long after its seed a storm's periods are due")
	flags.DurationVar(&cfg.StormInterval, "storm-interval", time.Second, "boards suite: LEADERBOARD_SCHEDULER_INTERVAL of the two instances that close the storm")
	flags.IntVar(&cfg.StormReaders, "storm-readers", 8, "boards suite: clients reading main's open month during a storm")
	flags.IntVar(&cfg.WriteBoards, "write-boards", 10_000, "boards suite: boards the events of the writes are spread over (0: no writes)")
	flags.IntVar(&cfg.WriteClients, "write-clients", 8, "boards suite: clients sending batches of events for random boards")
	flags.IntVar(&cfg.SmallClients, "small-clients", 64, "boards suite: clients reading a small board, open and closed (0: no reads)")
	flags.IntVar(&cfg.RewardPlayers, "reward-players", 1_000_000, "rewards suite: players of the closed period the claims are made on")
	flags.IntVar(&cfg.Claims, "claims", 50_000, "rewards suite: claims of distinct players per run of claimReward")
	flags.IntVar(&cfg.ClaimClients, "claim-clients", 8, "rewards suite: game servers claiming at once")
	flags.IntVar(&cfg.HistoryPeriods, "history-periods", 1000, "rewards suite: closed periods of the players unclaimedRewards reads")
	flags.IntVar(&cfg.HistoryPlayers, "history-players", 1000, "rewards suite: players of each of those periods (10000 for 10M standings)")
	flags.IntVar(&cfg.ErasurePlayers, "erasure-players", 2000, "erasure suite: players of each period, every one in all of them")
	flags.IntVar(&cfg.ErasureClosed, "erasure-closed", 1000, "erasure suite: closed periods (days of one board) of the erased players")
	flags.IntVar(&cfg.ErasureOpen, "erasure-open", 10, "erasure suite: open periods (today's of as many boards) of the erased players")
	flags.IntVar(&cfg.ErasureReaders, "erasure-readers", 8, "erasure suite: clients reading standings in those periods meanwhile")
	flags.StringSliceVar(&cfg.Suites, "suites", bench.AllSuites, "measurements to run, of "+
		strings.Join(bench.AllSuites, ",")+"; opt-in, named only: "+strings.Join(bench.OptInSuites, ","))
	cpuProfile := flags.String("cpuprofile", "", "write a CPU profile of the whole run (service, load generator and all) to this file, for go tool pprof")
	if err := flags.Parse(os.Args[1:]); err != nil {
		return err
	}
	if cfg.Players < 1 || cfg.Repeat < 1 || cfg.Duration <= 0 || cfg.Warmup < 0 {
		return fmt.Errorf("--players, --repeat and --duration must be positive, --warmup not negative")
	}
	if cfg.CreateBoards < 1 || cfg.BoardClients < 1 || cfg.CatalogueBoards < 0 || cfg.CataloguePeriods < 0 {
		return fmt.Errorf("--create-boards and --board-clients must be positive, --catalogue-boards and --catalogue-periods not negative")
	}
	if cfg.StormBoards < 0 || cfg.StormPlayers < 1 || cfg.StormReaders < 1 || cfg.StormLead <= 0 || cfg.StormInterval <= 0 ||
		cfg.WriteBoards < 0 || cfg.WriteClients < 1 || cfg.SmallClients < 0 {
		return fmt.Errorf("--storm-players, --storm-readers, --storm-lead, --storm-interval and --write-clients must be positive, " +
			"--storm-boards, --write-boards and --small-clients not negative")
	}
	if cfg.RewardPlayers < 1 || cfg.Claims < 1 || cfg.ClaimClients < 1 || cfg.HistoryPeriods < 0 || cfg.HistoryPlayers < 1 {
		return fmt.Errorf("--reward-players, --claims, --claim-clients and --history-players must be positive, --history-periods not negative")
	}
	if cfg.ErasurePlayers < 1 || cfg.ErasureClosed < 1 || cfg.ErasureOpen < 1 || cfg.ErasureReaders < 1 {
		return fmt.Errorf("--erasure-players, --erasure-closed, --erasure-open and --erasure-readers must be positive")
	}
	cfg.DatabaseURL = os.Getenv("BENCH_DATABASE_URL")
	cfg.Command = strings.Join(append([]string{"go run ./cmd/leaderboard-bench"}, os.Args[1:]...), " ")
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg.ServiceLogger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	report, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	var doc bytes.Buffer
	if err := report.WriteMarkdown(&doc); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(*out, doc.Bytes(), 0o644); err != nil {
		return err
	}
	if err := report.WriteTable(os.Stdout); err != nil {
		return err
	}
	fmt.Printf("\nwrote %s\n", *out)
	if len(report.Failures) > 0 {
		return fmt.Errorf("%d failures (see %s): %s", len(report.Failures), *out, strings.Join(report.Failures, "; "))
	}
	return nil
}
