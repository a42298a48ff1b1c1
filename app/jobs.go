package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
	"github.com/gamebackend/leaderboard/settlement"
)

// closeMetrics shows close jobs in /metrics: the phase each period's close
// is in and the rows it has done, and how long each phase took.
type closeMetrics struct {
	phase    *prometheus.GaugeVec
	rows     *prometheus.GaugeVec
	duration *prometheus.HistogramVec
	mu       sync.Mutex
	started  map[closing]phaseStart
}

// closing names a period whose close this instance runs.
type closing struct{ board, period string }

type phaseStart struct {
	phase leaderboard.ClosePhase
	at    time.Time
}

func newCloseMetrics(registry prometheus.Registerer) *closeMetrics {
	c := &closeMetrics{
		phase: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "leaderboard_close_phase",
			Help: "1 for the phase a close of a period on its own run by this instance is in, while it runs.",
		}, []string{"board", "period", "phase"}),
		rows: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "leaderboard_close_rows",
			Help: "Rows a close of a period on its own run by this instance has done in its current phase, while it runs.",
		}, []string{"board", "period"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "leaderboard_close_phase_duration_seconds",
			Help:    "Time each phase of a close of a period on its own took.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 10),
		}, []string{"phase"}),
		started: map[closing]phaseStart{},
	}
	registry.MustRegister(c.phase, c.rows, c.duration)
	return c
}

// observer returns the close progress (db.WithCloseProgress) that logs each
// phase and records it in metrics; once done, the period's series go:
// series of every period ever closed would grow without bound.
func (c *closeMetrics) observer(logger *slog.Logger) func(board, key string, phase leaderboard.ClosePhase) {
	return func(board, key string, phase leaderboard.ClosePhase) {
		logger.Info("close progress", "board", board, "period", key, "phase", string(phase))
		c.mu.Lock()
		defer c.mu.Unlock()
		p := closing{board, key}
		if prev, ok := c.started[p]; ok && prev.phase != phase {
			c.duration.WithLabelValues(string(prev.phase)).Observe(time.Since(prev.at).Seconds())
			c.phase.WithLabelValues(board, key, string(prev.phase)).Set(0)
		}
		if phase == leaderboard.PhaseDone {
			delete(c.started, p)
			c.phase.DeletePartialMatch(prometheus.Labels{"board": board, "period": key})
			c.rows.DeleteLabelValues(board, key)
			return
		}
		if prev, ok := c.started[p]; !ok || prev.phase != phase {
			c.started[p] = phaseStart{phase: phase, at: time.Now()}
		}
		c.phase.WithLabelValues(board, key, string(phase)).Set(1)
		c.rows.WithLabelValues(board, key).Set(0)
	}
}

// startLifecycle starts the closes' runner and, with a webhook configured,
// the settlement deliverer (its metrics in registry), and readies the
// scheduler for startScheduler; all are stopped by stopLifecycle.
func (m *Main) startLifecycle(registry prometheus.Registerer) {
	ctx, cancel := context.WithCancel(context.Background())
	m.stopBackground = cancel
	m.ranks = closedperiods.NewWatcher(func(board, key string, version int) { m.periodChanged(ctx, board, key, version) })
	m.Closer = lifecycle.NewPeriodCloser(m.DB, m.Logger, lifecycle.PeriodCloserOptions{
		MaxWait:     m.Config.CloseWait,
		Timeout:     m.Config.CloseTimeout,
		Concurrency: m.Config.PeriodCloses,
	})
	if m.ClosedPeriods != nil {
		m.background.Go(func() {
			if err := m.ClosedPeriods.Preload(ctx); err != nil && ctx.Err() == nil {
				m.Logger.Error("preload closed periods into memory", "err", err)
			}
		})
	}
	scheduler := &lifecycle.Scheduler{
		Closer:    m.Closer,
		AutoClose: m.Config.AutoClose,
		Interval:  m.Config.SchedulerInterval,
		Tasks:     m.scheduledTasks(),
		Logger:    m.Logger,
	}
	// The scheduler's first look is once the service serves (and has
	// seeded its demo months): a look before would find nothing to close
	// and leave the month before to the next look, an interval later.
	m.startScheduler = func() { m.background.Go(func() { scheduler.Run(ctx) }) }
	m.background.Go(func() { m.listenForRanks(ctx) })
	m.background.Go(func() { m.listenForClosingPeriods(ctx) })
	if m.Config.WebhookURL == "" {
		m.Logger.Info("settlement disabled: LEADERBOARD_WEBHOOK_URL is not set")
		return
	}
	deliveries := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "leaderboard_settlement_deliveries_total",
		Help: "Attempts to deliver settlement messages to the webhook, by outcome (delivered, failed).",
	}, []string{"outcome"})
	registry.MustRegister(deliveries)
	deliverer := settlement.New(m.DB, settlement.Config{
		URL:         m.Config.WebhookURL,
		Secret:      []byte(m.Config.WebhookSecret),
		Timeout:     m.Config.WebhookTimeout,
		Backoff:     settlement.Backoff{Base: m.Config.WebhookBackoff, Max: m.Config.WebhookMaxBackoff},
		Interval:    m.Config.SchedulerInterval,
		Concurrency: m.Config.WebhookConcurrency,
	}, m.Logger, func(outcome string) { deliveries.WithLabelValues(outcome).Inc() })
	m.background.Go(func() { deliverer.Run(ctx) })
	m.Logger.Info("settlement enabled", "webhook", settlement.RedactURL(m.Config.WebhookURL))
}

// periodDropsPerTick bounds the periods of boards other than main that
// retention drops per scheduler tick and instance.
const periodDropsPerTick = 200

// scheduledTasks are the scheduler's periodic duties besides closes.
func (m *Main) scheduledTasks() []lifecycle.Task {
	tasks := []lifecycle.Task{{Name: "check the versions of closed periods", Run: func(ctx context.Context) error {
		var boards, keys []string
		if m.ClosedPeriods != nil {
			boards, keys = m.ClosedPeriods.Held()
		}
		return m.ranks.Check(ctx, m.DB, boards, keys)
	}}}
	// Retention, one task for every board: main keeps the months
	// LEADERBOARD_RETAIN_MONTHS says (0: all), every other board what its
	// retainPeriods says. Every instance looks at each tick and drops a
	// bounded number of other boards' periods, so that a backlog of ten
	// thousand daily boards' periods drains over a few ticks without one
	// long tick. Each run, the first at start included, then purges the rows
	// of the dropped periods batch after batch until the tick ends: a purge
	// that a tick, a stop or a crash cut short goes on at the next.
	keep := db.Retention{Limit: periodDropsPerTick}
	if m.Config.RetainMonths > 0 {
		keep.MainMonths = &m.Config.RetainMonths
	}
	tasks = append(tasks, lifecycle.Task{Name: "retention", Run: func(ctx context.Context) error {
		dropped, err := m.DB.DropOldPeriods(ctx, keep)
		for _, p := range dropped {
			m.Logger.Info("retention: dropped a period", "board", p.Board, "period", p.Key)
			if m.ClosedPeriods != nil {
				m.ClosedPeriods.ForgetPeriod(p.Board, p.Key)
			}
		}
		return err
	}})
	// An erasure cut short (a stop, a crash, its deadline) is finished by
	// the first instance to look.
	tasks = append(tasks, lifecycle.Task{Name: "resume erasures", Run: func(ctx context.Context) error {
		n, err := m.DB.ResumeErasures(ctx)
		if n > 0 {
			m.Logger.Info("resumed erasures", "erasures", n)
		}
		return err
	}})
	return tasks
}

// stopLifecycle stops the scheduler and deliverer, then cancels running
// close jobs, which the next start resumes, and periods' closes, which a
// later look runs again.
func (m *Main) stopLifecycle() {
	if m.stopBackground != nil {
		m.stopBackground()
		m.background.Wait()
	}
	if m.Closer != nil {
		m.Closer.Close()
	}
}

// dbOptions are the store's options from the configuration, and its logger.
func (c *Config) dbOptions(loc *time.Location, logger *slog.Logger) []db.Option {
	return []db.Option{
		db.WithLocation(loc),
		db.WithLogger(logger),
		db.WithCloseGrace(c.CloseGrace),
		db.WithSettlement(c.WebhookURL != ""),
		db.WithReadURL(c.DatabaseReadURL),
		db.WithLimits(db.Limits{MaxConns: int32(c.MaxConns), StatementTimeout: c.StatementTimeout, LockTimeout: c.LockTimeout,
			SubmitWriters: c.SubmitWriters, SubmitMergeEvents: c.SubmitMergeEvents, ClaimWriters: c.ClaimWriters,
			RetentionBatch: c.RetentionBatch, ErasureWorkers: c.ErasureWorkers, OwnPartitionPlayers: c.OwnPartitionPlayers}),
		db.WithClosingReads(c.ClosingReads, c.ClosingReadWait),
		db.WithErasureKey([]byte(c.ErasureKey)),
		db.WithCloseProgress(func(board, key string, phase leaderboard.ClosePhase) {
			logger.Info("close progress", "board", board, "period", key, "phase", string(phase))
		}),
	}
}

// follow runs listen, which follows the announcements of what until it
// fails, again a second after each failure, until ctx ends. What a listener
// misses while it reconnects, the scheduler's looks make up for.
func (m *Main) follow(ctx context.Context, what string, listen func(context.Context) error) {
	for ctx.Err() == nil {
		err := listen(ctx)
		if ctx.Err() != nil {
			return
		}
		m.Logger.Warn("lost the announcements of "+what+"; reconnecting", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// listenForRanks follows the announcements of closes and corrections of
// every board until ctx ends.
func (m *Main) listenForRanks(ctx context.Context) {
	m.follow(ctx, "closed periods", func(ctx context.Context) error { return m.DB.ListenPeriods(ctx, m.ranks.Changed) })
}

// listenForClosingPeriods has this instance look for periods to close as
// soon as any instance accepts an early close: the look watches the close
// (PeriodCloserOptions.Poll) and takes it over should its instance die,
// rather than at the scheduler's next tick, up to an interval later.
func (m *Main) listenForClosingPeriods(ctx context.Context) {
	m.follow(ctx, "periods closing", func(ctx context.Context) error {
		return m.DB.ListenClosingPeriods(ctx, func(string, string) { m.Closer.Kick(m.Config.AutoClose) })
	})
}

// periodChanged has this instance read period key of board's final ranks
// afresh, at version (0 once it is no longer CLOSED), and load them into
// memory at once rather than at the first read. The load is waited for
// until ctx, the background's, ends: a stop does not wait for a load from a
// database that does not answer.
func (m *Main) periodChanged(ctx context.Context, board, key string, version int) {
	if m.ClosedPeriods == nil {
		return
	}
	m.background.Go(func() {
		if err := m.ClosedPeriods.Changed(ctx, board, key, version); err != nil && ctx.Err() == nil {
			m.Logger.Warn("load a changed closed period into memory", "board", board, "period", key, "err", err)
		}
	})
}

// registerStateMetrics shows the pool and the closed periods in memory in
// /metrics, read at each scrape.
func (m *Main) registerStateMetrics(registry prometheus.Registerer) {
	pool := func(name, help string, value func(db.PoolStats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help},
			func() float64 { return value(m.DB.PoolStats()) })
	}
	registry.MustRegister(
		pool("leaderboard_db_pool_max_connections", "Size of the database pool.",
			func(s db.PoolStats) float64 { return float64(s.Max) }),
		pool("leaderboard_db_pool_acquired_connections", "Database connections in use.",
			func(s db.PoolStats) float64 { return float64(s.Acquired) }),
		pool("leaderboard_db_pool_idle_connections", "Open database connections not in use.",
			func(s db.PoolStats) float64 { return float64(s.Idle) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_db_pool_acquires_total",
			Help: "Connections handed out by the pool."}, func() float64 { return float64(m.DB.PoolStats().Acquires) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_db_pool_waited_acquires_total",
			Help: "Connections handed out after waiting for one to be free."}, func() float64 { return float64(m.DB.PoolStats().Empty) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_db_pool_acquire_wait_seconds_total",
			Help: "Time spent waiting for connections."}, func() float64 { return m.DB.PoolStats().AcquireWait.Seconds() }),
	)
	if m.ClosedPeriods != nil {
		stat := func(value func(closedperiods.Stats) float64) func() float64 {
			return func() float64 { return value(m.ClosedPeriods.Stats()) }
		}
		registry.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "leaderboard_closed_months_players",
				Help: "Players of the closed periods held in memory, on every board (main's months among them), staged ones included."},
				stat(func(s closedperiods.Stats) float64 { return float64(s.Players) })),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "leaderboard_closed_months_bytes",
				Help: "Memory held by the tables of the closed periods in memory, on every board."},
				stat(func(s closedperiods.Stats) float64 { return float64(s.Bytes) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_closed_month_loads_total",
				Help: "Loads of closed periods, on every board, from the database into memory that ended (a close hands its period over without one)."},
				stat(func(s closedperiods.Stats) float64 { return float64(s.Loads) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_closed_month_load_failures_total",
				Help: "Loads of closed periods that failed; a later read tries again."},
				stat(func(s closedperiods.Stats) float64 { return float64(s.FailedLoads) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "leaderboard_closed_month_load_seconds_total",
				Help: "Time spent loading closed periods into memory."},
				stat(func(s closedperiods.Stats) float64 { return s.LoadTime.Seconds() })),
		)
	}
}
