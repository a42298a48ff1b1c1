// Package app is the leaderboard program: its commands and Main, which starts
// the service. cmd/leaderboard runs it; the end-to-end suite starts the same
// Main, so tests run the real program.
package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/boardcache"
	"github.com/gamebackend/leaderboard/closedperiods"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
	"github.com/gamebackend/leaderboard/server"
)

// Main is the running service: its database and HTTP server.
type Main struct {
	Config Config
	Logger *slog.Logger
	DB     *db.DB
	// ClosedPeriods serves the closed periods of every board from memory,
	// in one budget; nil when disabled.
	ClosedPeriods *closedperiods.Cache
	Server        *server.Server
	// Closer closes the periods of every board, main's months among them,
	// as background jobs.
	Closer *lifecycle.PeriodCloser
	// background runs the scheduler and the settlement deliverer until
	// stopBackground; startScheduler starts the scheduler.
	background     sync.WaitGroup
	stopBackground context.CancelFunc
	startScheduler func()
	// ranks follows the versions of closed periods' final ranks.
	ranks *closedperiods.Watcher
	// standby answers probes on the listen address while the database is
	// waited for, until Server opens there.
	standby *server.Standby
	// releaseDatabase lets go of the database once the pool is closed; it
	// stops the project-local PostgreSQL when this was its last user.
	releaseDatabase func(context.Context) error
}

// Run waits for the database (awaitDatabase), migrates it, connects and
// starts serving in the background.
func (m *Main) Run(ctx context.Context) error {
	if err := m.Config.checkWebhook(); err != nil {
		return err
	}
	for _, warning := range m.Config.shortSecrets() {
		m.Logger.Warn("short secret: " + warning)
	}
	loc, err := m.Config.location()
	if err != nil {
		return err
	}
	url, release, err := m.Config.database(ctx, m.Logger, true)
	if err != nil {
		return err
	}
	m.releaseDatabase = release
	if err := m.awaitDatabase(ctx, url); err != nil {
		return err
	}
	version, _, err := db.Migrate(url, db.MigrateUp)
	if err != nil {
		return err
	}
	registry := prometheus.NewRegistry()
	closes := newCloseMetrics(registry)
	options := append(m.Config.dbOptions(loc, m.Logger), db.WithCloseProgress(closes.observer(m.Logger)))
	if m.DB, err = db.Open(ctx, url, options...); err != nil {
		return err
	}
	// Reads that may lag a little go to the replica, when there is one;
	// writes, closes, settlement and reads that must see a write just made
	// (a submitted score's rank) to the primary.
	reader := m.DB.Reader()
	var (
		standings leaderboard.StandingService = reader
		groups    leaderboard.GroupService    = reader
	)
	ready := func() bool { return true }
	if m.Config.SnapshotPlayers > 0 {
		m.ClosedPeriods = closedperiods.New(periodSource{DB: m.DB, reader: reader}, m.Config.SnapshotPlayers, m.Logger)
		standings, groups, ready = m.ClosedPeriods, m.ClosedPeriods, m.ClosedPeriods.Ready
		m.DB.HandClosedPeriods(periodHandoff(m.ClosedPeriods))
	}
	limits, err := m.Config.rateLimits()
	if err != nil {
		return err
	}
	m.startLifecycle(registry)
	m.registerStateMetrics(registry)
	m.Server = server.New(server.Config{
		Addr:           m.Config.ListenAddr,
		Scores:         m.DB,
		Ranks:          m.DB,
		Ping:           m.DB.Ping,
		Standings:      standings,
		Groups:         groups,
		MaxGroup:       m.Config.MaxGroup,
		Closer:         m.Closer,
		Exporter:       m.DB,
		Corrections:    loggedCorrections{CorrectionService: correctionsFollowed{m.DB, m.followClosedPeriods}, logger: m.Logger},
		Boards:         boardcache.New(m.DB, boardCacheTTL),
		Periods:        m.DB,
		Rewards:        m.DB,
		Erasures:       loggedErasures{ErasureService: erasuresFollowed{m.DB, m.followClosedPeriods}, logger: m.Logger, timeout: m.Config.ErasureTimeout},
		Cohorts:        m.DB,
		Registry:       registry,
		Ready:          ready,
		RateLimits:     limits,
		RequestTimeout: m.Config.RequestTimeout,
		MetricsAddr:    m.Config.MetricsAddr,
		Auth:           m.Config.authConfig(),
		Introspection:  m.Config.Introspection,
		GraphiQL:       m.Config.GraphiQL,
		Logger:         m.Logger,
	})
	m.closeStandby()
	if err := m.Server.Open(); err != nil {
		return err
	}
	m.Logger.LogAttrs(ctx, slog.LevelInfo, "roles", m.Config.authConfig().Roles()...)
	m.Logger.Info("serving", "url", m.Server.URL(), "schema_version", version, "timezone", loc.String())
	if m.Config.GraphiQL {
		m.Logger.Info("GraphQL explorer", "url", m.Server.URL()+"/graphiql")
	}
	if m.Config.DemoPlayers > 0 {
		if err := m.seedDemo(ctx, loc); err != nil {
			return err
		}
	}
	m.startScheduler()
	return nil
}

// Close stops the server, letting requests in flight finish for up to
// ShutdownTimeout and cancelling those left (they answer UNAVAILABLE), then
// stops the background jobs (a close cut short resumes at the next start)
// and closes the database. Its time is bounded whatever the database does:
// ShutdownTimeout, 2 s for cancelled requests to answer, and stopWait.
func (m *Main) Close() error {
	m.closeStandby()
	var err error
	if m.Server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(m.Config.ShutdownTimeout, 10*time.Second))
		defer cancel()
		if err = m.Server.Close(ctx); err != nil {
			err = fmt.Errorf("stop http server: %w", err)
		}
	}
	// Cancelled, the jobs and loads end at once, but a database that does
	// not answer can still hold them: pgx closes a connection whose query was
	// cancelled only after a cancel request of up to 15 s. The stop waits
	// at most stopWait for them; the sessions left die with the process.
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		m.stopLifecycle()
		if m.ClosedPeriods != nil {
			m.ClosedPeriods.Close()
		}
		if m.DB != nil {
			m.DB.Close()
		}
	}()
	select {
	case <-stopped:
	case <-time.After(stopWait):
		m.Logger.Warn("the database does not answer: stopped without waiting for the background jobs and connections to end",
			"waited", stopWait)
	}
	if m.releaseDatabase != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err = errors.Join(err, m.releaseDatabase(ctx))
	}
	return err
}

// boardCacheTTL is how long an instance answers reads with a board it read:
// an end brought forward by endBoard on another instance reaches this one's
// reads within it (events are checked against the database's board).
const boardCacheTTL = 5 * time.Second

// stopWait bounds how long a stop waits for the background jobs and the
// database connections once the requests are done.
const stopWait = 5 * time.Second
