package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
)

// Config configures a benchmark run.
type Config struct {
	// Players are seeded into each month, and into each period of the
	// big-boards suite.
	Players          int
	Warmup, Duration time.Duration
	Repeat           int // runs per figure
	ReadClients      []int
	SubmitClients    []int
	BatchSize        int
	// The boards suite: CreateBoards new boards per run of createBoard by
	// BoardClients callers over two instances, and CatalogueBoards boards
	// with CataloguePeriods closed DAY periods each for the catalogue.
	CreateBoards, BoardClients        int
	CatalogueBoards, CataloguePeriods int
	// The boards' scores: Repeat storms of StormBoards DAY boards of
	// StormPlayers players each, due StormLead after their seed, closed by
	// two instances that look for due periods every StormInterval while
	// StormReaders clients read main's open month; WriteClients sending
	// events for random boards among WriteBoards; SmallClients reading a
	// board of StormPlayers players. Zero boards or clients skip a part.
	StormBoards, StormPlayers, StormReaders int
	StormLead, StormInterval                time.Duration
	WriteBoards, WriteClients, SmallClients int
	// The rewards suite: Claims claims per run by ClaimClients game
	// servers on a closed period of RewardPlayers players, then
	// unclaimedRewards for the first HistoryPlayers of them, with
	// standings in HistoryPeriods closed periods besides.
	RewardPlayers, Claims, ClaimClients int
	HistoryPeriods, HistoryPlayers      int
	// The erasure suite: erasePlayer, Repeat times, of a player present in
	// ErasureClosed closed periods and ErasureOpen open ones of
	// ErasurePlayers players each, while ErasureReaders clients read them.
	ErasurePlayers, ErasureClosed, ErasureOpen, ErasureReaders int
	// Suites are the measurements to run, of AllSuites; all when empty.
	Suites []string
	// Dir is the benchmark's own folder: its PostgreSQL lives in
	// postgres/, which is emptied at the start, its Redis in redis/.
	Dir  string
	Port int // names the PostgreSQL's unix socket
	// DatabaseURL, when set, is an empty database to run against instead
	// of a PostgreSQL of the benchmark's own.
	DatabaseURL string
	Command     string // how the run was started, for the report
	// Logger reports progress; ServiceLogger is the program's own log.
	Logger, ServiceLogger *slog.Logger
}

// The suites of measurements a run can pick.
const (
	SuiteReads      = "reads"       // standings, closed and open months, over HTTP and DB only
	SuiteSubmits    = "submits"     // submitScores
	SuiteRedis      = "redis"       // the Redis design
	SuiteAfterClose = "after-close" // standings read right after a month closes
	SuiteBigBoards  = "big-boards"  // a WEEK and a DAY board of Players players: read open, closed, read closed
	SuiteBoards     = "boards"      // createBoard, the catalogue, the midnight storm, writes and reads on boards
	SuiteRewards    = "rewards"     // claimReward and unclaimedRewards
	SuiteGroups     = "groups"      // groupStandings on main's open month and a WEEK board, open and closed
	SuiteLeagues    = "leagues"     // a league board's writes, cohort reads and close with promotion
	SuiteErasure    = "erasure"     // erasePlayer of a player in many closed and open periods, with reads meanwhile
)

// AllSuites are the suites of a whole run, in the order they run.
var AllSuites = []string{SuiteReads, SuiteSubmits, SuiteRedis, SuiteAfterClose, SuiteBigBoards, SuiteBoards, SuiteRewards}

// OptInSuites run only when Suites names them: each seeds and fills
// periods of its own, which would make the default run much longer.
var OptInSuites = []string{SuiteGroups, SuiteLeagues, SuiteErasure}

// runs reports whether the configuration asks for suite: every suite of
// AllSuites when Suites is empty.
func (cfg Config) runs(suite string) bool {
	if len(cfg.Suites) == 0 {
		return slices.Contains(AllSuites, suite)
	}
	return slices.Contains(cfg.Suites, suite)
}

// measuresMonths reports whether any suite asked for measures the seeded
// months, which a run then seeds and closes first; the boards suite alone
// closes none and seeds only the open month, beside which its storms run,
// and the big-boards and rewards suites seed boards' periods of their own.
func (cfg Config) measuresMonths() bool {
	return slices.ContainsFunc(AllSuites, func(s string) bool {
		return s != SuiteBoards && s != SuiteBigBoards && s != SuiteRewards && cfg.runs(s)
	})
}

// eventTimeZone is the service's event time zone in the benchmark.
var eventTimeZone = time.UTC

// Run runs the whole benchmark and returns its report. Operations that fail
// do not stop it: they are counted and listed in the report's Failures. It
// returns an error when it cannot set up or ctx ends.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	r := &runner{cfg: cfg, log: cfg.Logger, report: &Report{
		Started: time.Now(), Command: cfg.Command, Players: cfg.Players,
		Warmup: cfg.Warmup, Duration: cfg.Duration, Repeat: cfg.Repeat,
		Machine: ReadMachine(), LoadBefore: LoadAverage(), Revision: Revision(),
	}}
	r.closed, r.open = Months(r.report.Started, eventTimeZone)
	r.report.ClosedMonth, r.report.OpenMonth = r.closed.String(), r.open.String()
	err := r.run(ctx)
	r.report.LoadAfter, r.report.Finished = LoadAverage(), time.Now()
	return r.report, err
}

// runner is one run of the benchmark.
type runner struct {
	cfg    Config
	log    *slog.Logger
	report *Report
	runs   int // runs of any measurement so far, which numbers them
	meter  CPUMeter

	pool                    *pgxpool.Pool
	service                 *app.Main
	gql                     *GraphQL
	closed, open            leaderboard.Month
	adminToken, serverToken string
	// openSeeded is true once main's open month holds its players.
	openSeeded bool
}

func (r *runner) run(ctx context.Context) (err error) {
	unlock, err := lockDir(r.cfg.Dir)
	if err != nil {
		return err
	}
	defer unlock()
	url, stop, err := r.startPostgres(ctx)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stop(context.WithoutCancel(ctx))) }()
	if err := r.startService(ctx, url); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.service.Close()) }()
	if r.pool, err = pgxpool.New(ctx, url); err != nil {
		return fmt.Errorf("connect to postgres: %w", err)
	}
	defer r.pool.Close()
	if r.report.Machine.PostgreSQL, r.report.Settings, err = ReadSettings(ctx, r.pool, ReportedSettings); err != nil {
		return err
	}
	r.gql = NewGraphQL(r.service.Server.URL(), 2*slices.Max(r.cfg.ReadClients))
	defer r.gql.Close()

	if r.cfg.measuresMonths() {
		if err := r.months(ctx); err != nil {
			return err
		}
	} else {
		r.report.NoMonths = true
	}
	for _, suite := range []struct {
		name string
		run  func(context.Context) error
	}{
		{SuiteReads, r.reads},
		{SuiteSubmits, r.submits},
		{SuiteRedis, r.redis},
		{SuiteAfterClose, r.afterClose},
		{SuiteBigBoards, r.bigBoards},
		{SuiteBoards, r.boards},
		{SuiteRewards, r.rewards},
		{SuiteGroups, r.groups},
		{SuiteLeagues, r.leagues},
		{SuiteErasure, r.erasure},
	} {
		if !r.cfg.runs(suite.name) {
			continue
		}
		if err := suite.run(ctx); err != nil {
			return err
		}
	}
	return nil
}

// months seeds the closed and the open month, closes the first, has the
// service hold it in memory and settles the database.
func (r *runner) months(ctx context.Context) error {
	if err := r.seed(ctx); err != nil {
		return err
	}
	if err := r.closeMonth(ctx); err != nil {
		return err
	}
	if err := r.loadSnapshot(ctx); err != nil {
		return err
	}
	return r.settle(ctx)
}

// lockDir takes an exclusive lock on the benchmark's folder for the run: a
// second run on the same folder would remove the first one's database under
// it. The kernel releases the lock when the process ends.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("benchmark folder: %w", err)
	}
	path := filepath.Join(dir, "bench.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("benchmark folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another benchmark is running in %s: wait for it, or pass another --dir and --port", dir)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// startPostgres starts the benchmark's own tuned PostgreSQL, or takes the
// one at DatabaseURL, and returns its URL and how to let go of it.
func (r *runner) startPostgres(ctx context.Context) (string, func(context.Context) error, error) {
	if r.cfg.DatabaseURL != "" {
		r.report.Database = "the database at BENCH_DATABASE_URL"
		return r.cfg.DatabaseURL, func(context.Context) error { return nil }, nil
	}
	took := r.step("start a tuned PostgreSQL")
	pg, err := StartPostgres(ctx, filepath.Join(r.cfg.Dir, "postgres"), r.cfg.Port, Tuning(r.report.Machine.RAM), r.log)
	if err != nil {
		return "", nil, err
	}
	took()
	r.report.Database = pg.Where
	r.meter.Postmaster = PostmasterPID(pg.DataDir)
	r.report.PostgresCPU = r.meter.Postmaster != 0
	return pg.URL, pg.Stop, nil
}

// startService starts the real program on a free port of 127.0.0.1, as
// configured for production (the environment's settings and the defaults,
// such as the closed-month snapshot's budget), on the benchmark's database,
// without a demo month and with fresh tokens.
func (r *runner) startService(ctx context.Context, url string) error {
	r.adminToken, r.serverToken = randomToken(), randomToken()
	config, err := app.ConfigFromEnv()
	if err != nil {
		return err
	}
	config.ListenAddr, config.DatabaseURL, config.Timezone = "127.0.0.1:0", url, eventTimeZone.String()
	config.AdminToken, config.ServerToken, config.JWTSecret = r.adminToken, r.serverToken, randomToken()
	if config.ErasureKey == "" {
		config.ErasureKey = randomToken() // erasePlayer is off without one
	}
	config.DemoPlayers = 0
	// The benchmark measures the service, not its limits, and closes its
	// months itself, to time the close.
	config.RateLimit, config.ServerRateLimit, config.PlayerRateLimit = 0, 0, 0
	config.AutoClose = false
	r.service = &app.Main{Config: config, Logger: r.cfg.ServiceLogger}
	if err := r.service.Run(ctx); err != nil {
		return errors.Join(fmt.Errorf("start the service: %w", err), r.service.Close())
	}
	r.log.Info("service running", "url", r.service.Server.URL())
	return nil
}

// seed fills the closed month, then the open one, with the same players.
func (r *runner) seed(ctx context.Context) error {
	for _, m := range []leaderboard.Month{r.closed, r.open} {
		took := r.step(fmt.Sprintf("seed %s with %s players (db.SeedPeriod, COPY)", m, thousands(float64(r.cfg.Players))))
		next := r.cfg.Players / 10
		progress := func(done int) {
			if done >= next {
				r.log.Info("seeding", "month", m.String(), "players", done)
				next += r.cfg.Players / 10
			}
		}
		if _, err := r.service.DB.SeedPeriod(ctx, leaderboard.MainBoard, m.String(), r.cfg.Players,
			db.SeedOptions{RandomSeed: 1, Progress: progress}); err != nil {
			return err
		}
		took()
	}
	r.openSeeded = true
	// A month fills over weeks, flushed by checkpoints as it goes; the seed
	// writes two in minutes. Flushed now, they are not flushed during the
	// close, which is measured next.
	took := r.step("CHECKPOINT after the seed")
	if _, err := r.pool.Exec(ctx, `CHECKPOINT`); err != nil {
		return fmt.Errorf("checkpoint after the seed: %w", err)
	}
	took()
	return nil
}

// seedOpenMonth seeds main's open month with Players players, then
// analyzes, unless it holds them already; it reports whether it seeded.
func (r *runner) seedOpenMonth(ctx context.Context, why string) (bool, error) {
	if r.openSeeded {
		return false, nil
	}
	took := r.step(fmt.Sprintf("seed %s with %s players %s (db.SeedPeriod, COPY), then ANALYZE", r.open, thousands(float64(r.cfg.Players)), why))
	if _, err := r.service.DB.SeedPeriod(ctx, leaderboard.MainBoard, r.open.String(), r.cfg.Players,
		db.SeedOptions{RandomSeed: 1}); err != nil {
		return false, err
	}
	if _, err := r.pool.Exec(ctx, `ANALYZE`); err != nil {
		return false, fmt.Errorf("analyze after the seed: %w", err)
	}
	took()
	r.openSeeded = true
	return true, nil
}

// closeMonth closes the closed month, timed, with one client reading it,
// and measures the write-ahead log it wrote.
func (r *runner) closeMonth(ctx context.Context) error {
	r.log.Info("closing", "month", r.closed.String())
	var walBefore string
	if err := r.pool.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&walBefore); err != nil {
		return fmt.Errorf("read the WAL position: %w", err)
	}
	res, err := CloseMonth(ctx, r.gql, r.adminToken, r.closed, r.cfg.Players, AnySeeded(r.cfg.Players), 1)
	if err == nil {
		const written = `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint`
		if err = r.pool.QueryRow(ctx, written, walBefore).Scan(&res.WALBytes); err != nil {
			err = fmt.Errorf("read the WAL written by the close: %w", err)
		}
	}
	r.report.Close = res
	if err != nil {
		return err
	}
	r.report.Setup = append(r.report.Setup, Step{"closeMonth " + r.closed.String() + " (over HTTP)", res.Wall})
	r.log.Info("closed", "month", r.closed.String(), "took", res.Wall, "reads_meanwhile", res.Readers.Ops, "read_errors", res.Readers.Errors)
	if res.Readers.Errors > 0 {
		r.fail("reads while closing %s: %d errors, first: %s", r.closed, res.Readers.Errors, res.Readers.FirstError)
	}
	return nil
}

// snapshotWait bounds the wait for the service to load the closed month
// into memory.
const snapshotWait = 15 * time.Minute

// loadSnapshot has the service load the closed month into its in-memory
// snapshot, as its first read does, and waits for it, so that the closed
// month is measured as it is served once warm. The report says where the
// closed month's reads were served from.
func (r *runner) loadSnapshot(ctx context.Context) error {
	budget := r.service.Config.SnapshotPlayers
	switch {
	case r.service.ClosedPeriods == nil:
		r.report.ClosedFrom = "PostgreSQL (the service's in-memory snapshot of closed months is off)"
		return nil
	case budget < r.cfg.Players:
		r.report.ClosedFrom = fmt.Sprintf("PostgreSQL (%s players are over the snapshot budget of %s)",
			thousands(float64(r.cfg.Players)), thousands(float64(budget)))
		return nil
	}
	took := r.step("first read of the closed month, then wait for the service to load it into memory")
	read := HTTPStanding(r.gql, r.closed, AnySeeded(r.cfg.Players), ExpectFinal)(0, 0)
	if err := read(ctx); err != nil {
		return fmt.Errorf("first read of %s: %w", r.closed, err)
	}
	deadline := time.Now().Add(snapshotWait)
	for r.service.ClosedPeriods.Stats().Players < r.cfg.Players {
		if time.Now().After(deadline) {
			return fmt.Errorf("the service did not load %s into memory within %s", r.closed, snapshotWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	took()
	r.report.ClosedFrom = fmt.Sprintf("the service's in-memory snapshot (%s players loaded, budget %s)",
		thousands(float64(r.service.ClosedPeriods.Stats().Players)), thousands(float64(budget)))
	return nil
}

// settle vacuums and analyzes what the seed and the close wrote, as
// autovacuum would have long before anyone asks at this scale, and takes a
// checkpoint, so that neither lands in a measurement.
func (r *runner) settle(ctx context.Context) error {
	took := r.step("VACUUM (ANALYZE) and CHECKPOINT")
	for _, q := range []string{`VACUUM (ANALYZE)`, `CHECKPOINT`} {
		if _, err := r.pool.Exec(ctx, q); err != nil {
			return fmt.Errorf("settle the database: %s: %w", q, err)
		}
	}
	took()
	return nil
}

// measure runs a workload Repeat times at clients and adds the measurement.
func (r *runner) measure(ctx context.Context, system, kase string, clients, perOp int, unit string, w Workload) error {
	m := Measurement{System: system, Case: kase, Clients: clients, PerOp: perOp, Unit: unit}
	load := Load{Clients: clients, Warmup: r.cfg.Warmup, Duration: r.cfg.Duration}
	for range r.cfg.Repeat {
		r.runs++
		run := r.runs
		before := r.meter.Read()
		stats := load.Run(ctx, func(client int) Op { return w(run, client) })
		stats.CPU = r.meter.Read().Sub(before)
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Runs = append(m.Runs, stats)
		r.log.Info("measured", "system", system, "case", kase, "clients", clients,
			"rate", fmt.Sprintf("%.0f %s", stats.Throughput()*float64(perOp), unit),
			"p50", stats.P50, "p99", stats.P99, "errors", stats.Errors)
	}
	if n := m.Errors(); n > 0 {
		r.fail("%s, %s, %d clients: %d errors, first: %s", system, kase, clients, n, m.FirstError())
	}
	r.report.Measurements = append(r.report.Measurements, m)
	return nil
}

// step starts timing a setup step; calling what it returns records it.
func (r *runner) step(name string) func() {
	r.log.Info(name)
	start := time.Now()
	return func() { r.report.Setup = append(r.report.Setup, Step{name, time.Since(start)}) }
}

func (r *runner) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.log.Error("failure", "what", msg)
	r.report.Failures = append(r.report.Failures, msg)
}

// randomToken returns a fresh secret for the service's tokens.
func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on Linux
	return hex.EncodeToString(b)
}

// eventPrefix returns the prefix of this run's event ids, unique to it.
func eventPrefix(started time.Time) string {
	return "bench-" + strconv.FormatInt(started.UnixMilli(), 36) + "-"
}
