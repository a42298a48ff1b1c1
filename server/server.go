// Package server is the leaderboard's HTTP front: it routes /graphql, the web
// page at /, the health and readiness probes, /metrics and, when enabled,
// /graphiql, and wraps every request with
// rate limits, authentication, per-request loaders, a body limit and metrics.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/loaders"
	"github.com/gamebackend/leaderboard/resolvers"
	"github.com/gamebackend/leaderboard/web"
)

// maxBodyBytes bounds a request body: a full batch of 1000 events is far less.
const maxBodyBytes = 4 << 20

// Config is what the server needs.
type Config struct {
	Addr string // host:port to listen on; ":0" picks a free port
	// Standings answers the standings and pages of every board's periods,
	// main's months included: the database, or the closed periods held in
	// memory in front of it.
	Standings leaderboard.StandingService
	// Groups answers groups of players' standings (groupStandings), as
	// Standings answers one.
	Groups leaderboard.GroupService
	// MaxGroup is the most ids one groupStandings takes; 0:
	// leaderboard.DefaultMaxGroup.
	MaxGroup    int
	Scores      leaderboard.ScoreService
	Ranks       leaderboard.RankService
	Closer      leaderboard.Closer
	Exporter    leaderboard.Exporter
	Corrections leaderboard.CorrectionService
	Boards      leaderboard.BoardService
	Periods     leaderboard.PeriodService
	// Rewards claims rewards of final standings and lists the unclaimed.
	Rewards leaderboard.RewardService
	// Erasures erases players (erasePlayer).
	Erasures leaderboard.ErasureService
	// Cohorts reads the cohorts of league boards.
	Cohorts       leaderboard.CohortService
	Auth          auth.Config
	Introspection bool
	// GraphiQL serves a GraphiQL-based explorer at /graphiql, its assets
	// embedded in the binary, and turns introspection on for it.
	GraphiQL bool
	Logger   *slog.Logger
	// RequestTimeout bounds the work of one GraphQL request (0: 5 s); past
	// it the request answers UNAVAILABLE.
	RequestTimeout time.Duration
	// RateLimits are the request budgets of clients of /graphql.
	RateLimits RateLimits
	// MetricsAddr, when set, moves /metrics to a listener of its own
	// (LEADERBOARD_METRICS_ADDR), off the public one.
	MetricsAddr string
	// Ping checks that the database answers, for /readyz.
	Ping func(context.Context) error
	// Ready reports whether the instance is ready for traffic besides its
	// database answering (closed months preloaded); nil means always.
	Ready func() bool
	// Registry takes the server's metrics and is served at /metrics; nil
	// means a registry of the server's own.
	Registry *prometheus.Registry
}

// Server serves the leaderboard over HTTP.
type Server struct {
	http           *http.Server
	listener       net.Listener
	cancelRequests context.CancelFunc
	// metrics serves /metrics on a listener of its own, when configured.
	metrics *http.Server
	logger  *slog.Logger
}

// New returns a Server for cfg; Open starts it.
func New(cfg Config) *Server {
	registry := cfg.Registry
	if registry == nil {
		registry = prometheus.NewRegistry()
	}
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	requests := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "leaderboard_http_request_duration_seconds",
		Help:    "Time to answer HTTP requests, by route and status code.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
	}, []string{"route", "code"})
	registry.MustRegister(requests)

	operations := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "leaderboard_graphql_operation_duration_seconds",
		Help:    "Time to answer GraphQL operations, by first root field and error code (none, or each code the answer carries).",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
	}, []string{"field", "code"})
	events := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "leaderboard_score_events_total",
		Help: "Score events submitted, by status (APPLIED, DUPLICATE, UNCHANGED, REJECTED) and, when rejected, error code.",
	}, []string{"status", "code"})
	registry.MustRegister(operations, events)
	gql := resolvers.NewHandler(&resolvers.Resolver{
		Observer: resolvers.Observer{
			Operation: func(field string, codes []string, took time.Duration) {
				if len(codes) == 0 {
					codes = []string{"none"}
				}
				for _, code := range codes {
					operations.WithLabelValues(field, code).Observe(took.Seconds())
				}
			},
			Events: func(status leaderboard.ScoreStatus, code string, n int) {
				events.WithLabelValues(string(status), code).Add(float64(n))
			},
		},
		StandingService:   cfg.Standings,
		GroupService:      cfg.Groups,
		MaxGroup:          cfg.MaxGroup,
		Closer:            cfg.Closer,
		CorrectionService: cfg.Corrections,
		ScoreService:      cfg.Scores,
		BoardService:      cfg.Boards,
		PeriodService:     cfg.Periods,
		RewardService:     cfg.Rewards,
		ErasureService:    cfg.Erasures,
		CohortService:     cfg.Cohorts,
		Logger:            cfg.Logger,
	}, resolvers.HandlerOptions{Introspection: cfg.Introspection || cfg.GraphiQL})

	withLoaders := loaders.Middleware(loaders.Sources{Ranks: cfg.Ranks, Boards: cfg.Boards, Cohorts: cfg.Cohorts})

	mux := http.NewServeMux()
	// Every route is rate limited, and authenticated within its limits,
	// before anything else is done for the request.
	limiter := newRateLimiter(cfg.RateLimits, auth.New(cfg.Auth), registry)
	route := func(pattern string, h http.Handler) {
		mux.Handle(pattern, measure(requests, pattern, limiter.middleware(h)))
	}
	route("/graphql", onlyJSONPost(limitBody(withDeadline(cfg.RequestTimeout, withLoaders(gql)))))
	route("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	}))
	route("GET /readyz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := cfg.Ping(ctx); err != nil {
			http.Error(w, "database unreachable", http.StatusServiceUnavailable)
			return
		}
		if cfg.Ready != nil && !cfg.Ready() {
			http.Error(w, "loading closed months into memory", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	}))
	route("GET /admin/months/{month}/standings.csv", exportHandler(cfg.Exporter, cfg.Logger))
	route("GET /admin/boards/{board}/periods/{key}/standings.csv", periodExportHandler(cfg.Exporter, cfg.Logger))
	metrics := promhttp.HandlerFor(registry, promhttp.HandlerOpts{})
	var metricsServer *http.Server
	if cfg.MetricsAddr == "" {
		mux.Handle("GET /metrics", limiter.middleware(metrics))
	} else {
		// Operators keep /metrics off the public listener.
		metricsMux := http.NewServeMux()
		metricsMux.Handle("GET /metrics", metrics)
		metricsServer = &http.Server{Addr: cfg.MetricsAddr, Handler: noSniff(metricsMux), ReadHeaderTimeout: 10 * time.Second}
	}
	if cfg.GraphiQL {
		routeExplorer(route)
	}
	// The page checks methods itself; a method in this catch-all pattern
	// would conflict with the method-less /graphql route.
	route("/", web.Handler())

	base, cancelRequests := context.WithCancel(context.Background())
	return &Server{
		http: &http.Server{
			Addr:              cfg.Addr,
			Handler:           noSniff(withRequestID(mux)),
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			// Closes run as jobs, not in requests; only an export streams
			// longer, and it lifts this for itself.
			WriteTimeout: 30 * time.Second,
			IdleTimeout:  120 * time.Second,
			// Every request's context ends with cancelRequests, which Close
			// calls once the drain time is over.
			BaseContext: func(net.Listener) context.Context { return base },
		},
		cancelRequests: cancelRequests,
		metrics:        metricsServer,
		logger:         cfg.Logger,
	}
}

// Open starts listening and serving in the background.
func (s *Server) Open() error {
	ln, err := net.Listen("tcp", s.http.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.http.Addr, err)
	}
	s.listener = ln
	go s.serve(s.http, ln)
	if s.metrics != nil {
		mln, err := net.Listen("tcp", s.metrics.Addr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("listen for metrics on %s: %w", s.metrics.Addr, err)
		}
		go s.serve(s.metrics, mln)
	}
	return nil
}

func (s *Server) serve(srv *http.Server, ln net.Listener) {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.logger.Error("http server stopped", "addr", srv.Addr, "err", err)
	}
}

// URL returns the base URL the server answers on, such as http://127.0.0.1:8080.
func (s *Server) URL() string {
	addr := s.listener.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(addr.Port))
}

// Close stops taking requests and waits for those in flight until ctx ends.
// Requests still running when ctx ends are cancelled: their database calls
// stop and they answer UNAVAILABLE, for up to answerTime more; then their
// connections are closed.
func (s *Server) Close(ctx context.Context) error {
	if s.metrics != nil {
		defer s.metrics.Close()
	}
	err := s.http.Shutdown(ctx)
	if err == nil {
		return nil
	}
	s.logger.Warn("requests still running after the drain time: cancelling them")
	s.cancelRequests()
	answerCtx, cancel := context.WithTimeout(context.Background(), answerTime)
	defer cancel()
	if err := s.http.Shutdown(answerCtx); err != nil {
		return errors.Join(fmt.Errorf("stop http server: %w", err), s.http.Close())
	}
	return nil
}

// answerTime is how long cancelled requests get to answer at shutdown.
const answerTime = 2 * time.Second

// noSniff tells browsers to read every answer as the type it says, never
// to guess another: GraphQL's JSON, the exports' CSV, /metrics and the
// page's files alike, errors included.
func noSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// onlyJSONPost answers what the GraphQL transport would refuse without an
// error code (other methods, bodies that are not JSON) with a coded error.
func onlyJSONPost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch {
		case r.Method == http.MethodOptions:
			w.Header().Set("Allow", "POST, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		case r.Method != http.MethodPost:
			w.Header().Set("Allow", "POST, OPTIONS")
			writeError(w, http.StatusMethodNotAllowed, "send GraphQL requests with POST")
			return
		case mediaType != "application/json":
			writeError(w, http.StatusUnsupportedMediaType, "send GraphQL requests as Content-Type: application/json")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeError answers with one GraphQL error coded BAD_USER_INPUT.
func writeError(w http.ResponseWriter, status int, message string) {
	writeErrorCode(w, status, leaderboard.EBADINPUT, message)
}

// writeErrorCode answers with one GraphQL error with the given code.
func writeErrorCode(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"errors": []any{map[string]any{
		"message":    message,
		"extensions": map[string]string{"code": code},
	}}})
}

// withDeadline gives each request timeout (0: 5 s) to be answered.
func withDeadline(timeout time.Duration, next http.Handler) http.Handler {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// limitBody refuses request bodies over maxBodyBytes.
func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = limitedBody{http.MaxBytesReader(w, r.Body, maxBodyBytes)}
		next.ServeHTTP(w, r)
	})
}

// limitedBody is a body cut at maxBodyBytes whose read past it fails with an
// error naming the limit, which the GraphQL transport puts in its answer:
// net/http's own says only "request body too large".
type limitedBody struct{ io.ReadCloser }

func (b limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		err = fmt.Errorf("the request body is over the limit of %d MiB (%d bytes): send at most %d events a submitScores call",
			tooLarge.Limit>>20, tooLarge.Limit, leaderboard.MaxBatch)
	}
	return n, err
}

// measure records each request's duration and status under route.
func measure(hist *prometheus.HistogramVec, route string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		hist.WithLabelValues(route, strconv.Itoa(rec.status)).Observe(time.Since(start).Seconds())
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}
