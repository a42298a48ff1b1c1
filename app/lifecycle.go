package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
	"github.com/gamebackend/leaderboard/settlement"
)

// closeMetrics shows close jobs in /metrics: the phase each month's close
// is in and the rows it has done, and how long each phase took.
type closeMetrics struct {
	phase    *prometheus.GaugeVec
	rows     *prometheus.GaugeVec
	duration *prometheus.HistogramVec
	mu       sync.Mutex
	started  map[leaderboard.Month]phaseStart
}

type phaseStart struct {
	phase leaderboard.ClosePhase
	at    time.Time
}

func newCloseMetrics(registry prometheus.Registerer) *closeMetrics {
	c := &closeMetrics{
		phase: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "leaderboard_close_phase",
			Help: "1 for the phase a month's close job run by this instance is in (done once committed).",
		}, []string{"month", "phase"}),
		rows: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "leaderboard_close_rows",
			Help: "Rows a month's close job run by this instance has done in its current phase.",
		}, []string{"month"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "leaderboard_close_phase_duration_seconds",
			Help:    "Time each phase of a close took.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 10),
		}, []string{"phase"}),
		started: map[leaderboard.Month]phaseStart{},
	}
	registry.MustRegister(c.phase, c.rows, c.duration)
	return c
}

// hooks returns close hooks that log each phase and record it in metrics.
func (c *closeMetrics) hooks(logger *slog.Logger, rank func(leaderboard.RankEntry, leaderboard.Player) error) leaderboard.CloseHooks {
	return leaderboard.CloseHooks{
		Phase: func(m leaderboard.Month, phase leaderboard.ClosePhase, rows int64) {
			logger.Info("close job progress", "month", m.String(), "phase", string(phase), "rows", rows)
			c.mu.Lock()
			defer c.mu.Unlock()
			month := m.String()
			if prev, ok := c.started[m]; ok && prev.phase != phase {
				c.duration.WithLabelValues(string(prev.phase)).Observe(time.Since(prev.at).Seconds())
				c.phase.WithLabelValues(month, string(prev.phase)).Set(0)
			}
			if prev, ok := c.started[m]; !ok || prev.phase != phase {
				c.started[m] = phaseStart{phase: phase, at: time.Now()}
			}
			if phase == leaderboard.PhaseDone {
				delete(c.started, m)
			}
			c.phase.WithLabelValues(month, string(phase)).Set(1)
			c.rows.WithLabelValues(month).Set(float64(rows))
		},
		Rank: rank,
	}
}

// startLifecycle starts the close jobs' runner, the scheduler and, with a
// webhook configured, the settlement deliverer, all stopped by stopLifecycle.
func (m *Main) startLifecycle(registry prometheus.Registerer) {
	m.ranks = &ranksWatcher{seen: map[leaderboard.Month]int{}, onChange: m.ranksChanged}
	metrics := newCloseMetrics(registry)
	m.Closer = lifecycle.NewCloser(m.DB, m.Logger, lifecycle.CloserOptions{
		MaxWait: m.Config.CloseWait,
		Hooks:   metrics.hooks(m.Logger, nil),
	})
	ctx, cancel := context.WithCancel(context.Background())
	m.stopBackground = cancel
	scheduler := &lifecycle.Scheduler{
		Store:     m.DB,
		Closer:    m.Closer,
		AutoClose: m.Config.AutoClose,
		Interval:  m.Config.SchedulerInterval,
		Tasks:     m.scheduledTasks(),
		Logger:    m.Logger,
	}
	m.background.Go(func() { scheduler.Run(ctx) })
	m.background.Go(func() { m.listenForRanks(ctx) })
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
		URL:      m.Config.WebhookURL,
		Secret:   []byte(m.Config.WebhookSecret),
		Timeout:  m.Config.WebhookTimeout,
		Backoff:  settlement.Backoff{Base: m.Config.WebhookBackoff, Max: m.Config.WebhookMaxBackoff},
		Interval: m.Config.SchedulerInterval,
	}, m.Logger, func(outcome string) { deliveries.WithLabelValues(outcome).Inc() })
	m.background.Go(func() { deliverer.Run(ctx) })
	m.Logger.Info("settlement enabled", "webhook", m.Config.WebhookURL)
}

// scheduledTasks are the scheduler's periodic duties besides closes.
func (m *Main) scheduledTasks() []lifecycle.Task {
	tasks := []lifecycle.Task{{Name: "check the versions of closed months", Run: func(ctx context.Context) error {
		versions, err := m.DB.RanksVersions(ctx)
		for month, version := range versions {
			m.ranks.changed(month, version)
		}
		return err
	}}}
	if m.Config.RetainMonths > 0 {
		tasks = append(tasks, lifecycle.Task{Name: "retention", Run: func(ctx context.Context) error {
			dropped, err := m.DB.DropOldMonths(ctx, m.Config.RetainMonths)
			for _, month := range dropped {
				m.Logger.Info("retention: dropped a month", "month", month.String(), "retain_months", m.Config.RetainMonths)
			}
			return err
		}})
	}
	return tasks
}

// stopLifecycle stops the scheduler and deliverer, then cancels running
// close jobs, which the next start resumes.
func (m *Main) stopLifecycle() {
	if m.stopBackground != nil {
		m.stopBackground()
		m.background.Wait()
	}
	if m.Closer != nil {
		m.Closer.Close()
	}
}

// dbOptions are the store's options from the configuration.
func (c *Config) dbOptions(loc *time.Location) []db.Option {
	return []db.Option{
		db.WithLocation(loc),
		db.WithCloseGrace(c.CloseGrace),
		db.WithSettlement(c.WebhookURL != ""),
	}
}

// ranksWatcher keeps this instance's memory of closed months true to the
// database: told of each month's final ranks version, by announcement or by
// the scheduler's check, it has a month whose version changed read afresh.
type ranksWatcher struct {
	mu       sync.Mutex
	seen     map[leaderboard.Month]int
	onChange func(leaderboard.Month)
}

func (w *ranksWatcher) changed(m leaderboard.Month, version int) {
	w.mu.Lock()
	known, ok := w.seen[m]
	w.seen[m] = version
	w.mu.Unlock()
	if !ok || known != version {
		w.onChange(m)
	}
}

// listenForRanks follows the announcements of closes and corrections until
// ctx ends, reconnecting after a failure.
func (m *Main) listenForRanks(ctx context.Context) {
	for ctx.Err() == nil {
		err := m.DB.ListenMonths(ctx, m.ranks.changed)
		if ctx.Err() != nil {
			return
		}
		m.Logger.Warn("lost the announcements of closed months; reconnecting", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// ranksChanged has this instance read month m's final ranks afresh.
func (m *Main) ranksChanged(month leaderboard.Month) {
	m.DB.ForgetClosedMonth(month)
}
