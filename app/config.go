package app

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/internal/secrets"
	"github.com/gamebackend/leaderboard/server"
	"github.com/gamebackend/leaderboard/settlement"
)

// Config is the program's configuration: environment variables first, flags
// override them.
type Config struct {
	ListenAddr string // LISTEN_ADDR
	// MetricsAddr, when set, serves /metrics there instead of on ListenAddr.
	MetricsAddr string // LEADERBOARD_METRICS_ADDR
	DatabaseURL string // DATABASE_URL
	// DataDir holds the local PostgreSQL used when DatabaseURL is empty.
	DataDir string // LEADERBOARD_DATA_DIR
	// DatabaseReadURL, when set, is a streaming replica for reads that may lag.
	DatabaseReadURL string // DATABASE_READ_URL
	Timezone        string // LEADERBOARD_TIMEZONE
	// The secrets come from the variable, or from the file its _FILE
	// variable names (LEADERBOARD_ADMIN_TOKEN_FILE and so on). Tokens are
	// comma-separated lists, so that a new one can be rolled out before the
	// old one is withdrawn.
	AdminToken  string // LEADERBOARD_ADMIN_TOKEN
	ServerToken string // LEADERBOARD_SERVER_TOKEN
	JWTSecret   string // LEADERBOARD_JWT_SECRET
	// JWTIssuer and JWTAudience, when set, must be a player token's iss and
	// aud; JWTMaxLifetime bounds exp - now (iat is optional).
	JWTIssuer      string        // LEADERBOARD_JWT_ISSUER
	JWTAudience    string        // LEADERBOARD_JWT_AUDIENCE
	JWTMaxLifetime time.Duration // LEADERBOARD_JWT_MAX_LIFETIME
	Introspection  bool          // LEADERBOARD_INTROSPECTION
	GraphiQL       bool          // LEADERBOARD_GRAPHIQL
	DemoPlayers    int           // LEADERBOARD_DEMO_PLAYERS
	// SnapshotPlayers bounds the players of closed periods held in memory
	// (about 64 bytes each); 0 serves closed periods from the database only.
	SnapshotPlayers int // LEADERBOARD_SNAPSHOT_PLAYERS
	// MaxGroup is the most player ids one groupStandings takes; 0 or less:
	// leaderboard.DefaultMaxGroup.
	MaxGroup int // LEADERBOARD_MAX_GROUP

	// CloseGrace is how long after its calendar end a month still takes
	// events; then it closes by itself when AutoClose is on.
	CloseGrace time.Duration // LEADERBOARD_CLOSE_GRACE
	AutoClose  bool          // LEADERBOARD_AUTO_CLOSE
	// CloseWait is how long closeMonth waits for the close before it
	// answers CLOSING.
	CloseWait time.Duration // LEADERBOARD_CLOSE_WAIT
	// CloseTimeout bounds each try of a close this instance runs.
	CloseTimeout time.Duration // LEADERBOARD_CLOSE_TIMEOUT
	// PeriodCloses is how many closes of periods, main's months included,
	// this instance runs at once: a storm of due periods closes a few at a time.
	// Two leave the reads of a 10M-player board within their target during
	// a storm of 10,000 closes, which four did not (docs/PERFORMANCE.md).
	PeriodCloses int // LEADERBOARD_PERIOD_CLOSES
	// SchedulerInterval is how often each instance looks for periods to
	// close or resume, and for settlement messages to deliver.
	SchedulerInterval time.Duration // LEADERBOARD_SCHEDULER_INTERVAL
	WebhookURL        string        // LEADERBOARD_WEBHOOK_URL; empty disables settlement
	WebhookSecret     string        // LEADERBOARD_WEBHOOK_SECRET or _FILE; required with WebhookURL
	WebhookTimeout    time.Duration // LEADERBOARD_WEBHOOK_TIMEOUT
	WebhookBackoff    time.Duration // LEADERBOARD_WEBHOOK_BACKOFF: first retry delay
	WebhookMaxBackoff time.Duration // LEADERBOARD_WEBHOOK_MAX_BACKOFF
	// WebhookConcurrency is how many settlement messages this instance
	// has in flight to the webhook at once, each on a kept-alive
	// connection; the messages of one month or period go one at a time.
	// 0 is settlement.DefaultConcurrency.
	WebhookConcurrency int // LEADERBOARD_WEBHOOK_CONCURRENCY
	// RetainMonths keeps the current month and this many before it; older
	// settled months are dropped. 0 keeps every month.
	RetainMonths int // LEADERBOARD_RETAIN_MONTHS
	// RetentionBatch is the most rows of a dropped period of a board that
	// retention deletes in one transaction; 0 is the default, 10,000.
	RetentionBatch int // LEADERBOARD_RETENTION_BATCH
	// OwnPartitionPlayers is the fewest players of a period, closed on its
	// own, whose final ranks get a partition of their own; 0 is the
	// default, 100,000.
	OwnPartitionPlayers int // LEADERBOARD_OWN_PARTITION_PLAYERS

	// RateLimit is the requests a second of each client address on public
	// reads (burst twice that); 0 turns it off.
	RateLimit float64 // LEADERBOARD_RATE_LIMIT
	// ServerRateLimit is that of each game-server token, PlayerRateLimit
	// that of each player.
	ServerRateLimit float64 // LEADERBOARD_SERVER_RATE_LIMIT
	PlayerRateLimit float64 // LEADERBOARD_PLAYER_RATE_LIMIT
	// AuthFailureRateLimit is the refused tokens a second of each client
	// address (burst twice that); past it the address's requests with a
	// token answer 429 until it has waited. 0 turns it off.
	AuthFailureRateLimit float64 // LEADERBOARD_AUTH_FAILURE_RATE_LIMIT
	// TrustedProxies are CIDRs whose X-Forwarded-For names the client.
	TrustedProxies string // LEADERBOARD_TRUSTED_PROXIES, comma-separated

	// RequestTimeout bounds one GraphQL request; past it, UNAVAILABLE.
	RequestTimeout time.Duration // LEADERBOARD_REQUEST_TIMEOUT
	// ShutdownTimeout is how long requests in flight may finish at a stop
	// before they are cancelled.
	ShutdownTimeout time.Duration // LEADERBOARD_SHUTDOWN_TIMEOUT
	// DatabaseWait bounds how long serve waits at its start for a database
	// that cannot be reached yet; 0 waits until it answers.
	DatabaseWait time.Duration // LEADERBOARD_DATABASE_WAIT
	// MaxConns sizes the database pool.
	MaxConns int // DATABASE_MAX_CONNS
	// ClosingReads bounds the database reads of CLOSING periods at once,
	// so that they leave the database's CPU to the close; 0: no bound. A
	// read waits at most ClosingReadWait for its turn, then reads anyway.
	ClosingReads    int           // LEADERBOARD_CLOSING_READS
	ClosingReadWait time.Duration // LEADERBOARD_CLOSING_READ_WAIT
	// StatementTimeout and LockTimeout bound each statement of a request
	// and each wait for a lock in the database.
	StatementTimeout time.Duration // LEADERBOARD_STATEMENT_TIMEOUT
	LockTimeout      time.Duration // LEADERBOARD_LOCK_TIMEOUT
	// SubmitWriters is how many transactions of submitScores calls an
	// instance runs at once; calls arriving meanwhile are written together,
	// up to SubmitMergeEvents events a transaction.
	SubmitWriters     int // LEADERBOARD_SUBMIT_WRITERS
	SubmitMergeEvents int // LEADERBOARD_SUBMIT_MERGE_EVENTS
	// ClaimWriters is how many transactions of claimReward calls an
	// instance runs at once; claims arriving meanwhile are written together.
	ClaimWriters int // LEADERBOARD_CLAIM_WRITERS

	// ErasureKey keys the hash of an erased player's id that the erasure's
	// audit row keeps; erasePlayer is refused (FORBIDDEN) without one.
	ErasureKey string // LEADERBOARD_ERASURE_KEY or _FILE
	// ErasureTimeout bounds one erasure, which goes on past the request
	// that asked for it when the request's deadline comes first.
	ErasureTimeout time.Duration // LEADERBOARD_ERASURE_TIMEOUT
	// ErasureWorkers is how many periods an erasure erases at once.
	ErasureWorkers int // LEADERBOARD_ERASURE_WORKERS
}

// ConfigFromEnv reads the configuration from the environment. A variable
// that is set but not a number, a duration or a boolean as its setting needs
// is an error that names it; the configuration is then of no use.
func ConfigFromEnv() (Config, error) {
	var env envReader
	c := Config{
		ListenAddr:      envOr("LISTEN_ADDR", ":8080"),
		MetricsAddr:     os.Getenv("LEADERBOARD_METRICS_ADDR"),
		DatabaseURL:     os.Getenv("DATABASE_URL"),
		DataDir:         os.Getenv("LEADERBOARD_DATA_DIR"),
		DatabaseReadURL: os.Getenv("DATABASE_READ_URL"),
		Timezone:        envOr("LEADERBOARD_TIMEZONE", "UTC"),
		AdminToken:      env.secret("LEADERBOARD_ADMIN_TOKEN"),
		ServerToken:     env.secret("LEADERBOARD_SERVER_TOKEN"),
		JWTSecret:       env.secret("LEADERBOARD_JWT_SECRET"),
		JWTIssuer:       os.Getenv("LEADERBOARD_JWT_ISSUER"),
		JWTAudience:     os.Getenv("LEADERBOARD_JWT_AUDIENCE"),
		JWTMaxLifetime:  env.duration("LEADERBOARD_JWT_MAX_LIFETIME", auth.DefaultMaxTokenLifetime),
		Introspection:   env.bool("LEADERBOARD_INTROSPECTION", false),
		GraphiQL:        env.bool("LEADERBOARD_GRAPHIQL", false),
		DemoPlayers:     env.int("LEADERBOARD_DEMO_PLAYERS", 0),
		// Ten million demo players take about 620 MiB.
		SnapshotPlayers:     env.int("LEADERBOARD_SNAPSHOT_PLAYERS", 12_000_000),
		MaxGroup:            env.int("LEADERBOARD_MAX_GROUP", leaderboard.DefaultMaxGroup),
		CloseGrace:          env.duration("LEADERBOARD_CLOSE_GRACE", 15*time.Minute),
		AutoClose:           env.bool("LEADERBOARD_AUTO_CLOSE", true),
		CloseWait:           env.duration("LEADERBOARD_CLOSE_WAIT", 10*time.Second),
		CloseTimeout:        env.duration("LEADERBOARD_CLOSE_TIMEOUT", 30*time.Minute),
		PeriodCloses:        env.int("LEADERBOARD_PERIOD_CLOSES", 2),
		SchedulerInterval:   env.duration("LEADERBOARD_SCHEDULER_INTERVAL", 30*time.Second),
		WebhookURL:          os.Getenv("LEADERBOARD_WEBHOOK_URL"),
		WebhookSecret:       env.secret("LEADERBOARD_WEBHOOK_SECRET"),
		WebhookTimeout:      env.duration("LEADERBOARD_WEBHOOK_TIMEOUT", 10*time.Second),
		WebhookBackoff:      env.duration("LEADERBOARD_WEBHOOK_BACKOFF", time.Second),
		WebhookMaxBackoff:   env.duration("LEADERBOARD_WEBHOOK_MAX_BACKOFF", 10*time.Minute),
		WebhookConcurrency:  env.int("LEADERBOARD_WEBHOOK_CONCURRENCY", settlement.DefaultConcurrency),
		RetainMonths:        env.int("LEADERBOARD_RETAIN_MONTHS", 0),
		RetentionBatch:      env.int("LEADERBOARD_RETENTION_BATCH", 10_000),
		OwnPartitionPlayers: env.int("LEADERBOARD_OWN_PARTITION_PLAYERS", 100_000),
		RateLimit:           env.float("LEADERBOARD_RATE_LIMIT", 20),
		ServerRateLimit:     env.float("LEADERBOARD_SERVER_RATE_LIMIT", 500),
		PlayerRateLimit:     env.float("LEADERBOARD_PLAYER_RATE_LIMIT", 20),
		TrustedProxies:      os.Getenv("LEADERBOARD_TRUSTED_PROXIES"),
		RequestTimeout:      env.duration("LEADERBOARD_REQUEST_TIMEOUT", 5*time.Second),
		ShutdownTimeout:     env.duration("LEADERBOARD_SHUTDOWN_TIMEOUT", 10*time.Second),
		DatabaseWait:        env.duration("LEADERBOARD_DATABASE_WAIT", 0),
		MaxConns:            env.int("DATABASE_MAX_CONNS", 10),
		ClosingReads:        env.int("LEADERBOARD_CLOSING_READS", 1),
		ClosingReadWait:     env.duration("LEADERBOARD_CLOSING_READ_WAIT", time.Second),
		StatementTimeout:    env.duration("LEADERBOARD_STATEMENT_TIMEOUT", 10*time.Second),
		LockTimeout:         env.duration("LEADERBOARD_LOCK_TIMEOUT", 3*time.Second),
		SubmitWriters:       env.int("LEADERBOARD_SUBMIT_WRITERS", 2),
		SubmitMergeEvents:   env.int("LEADERBOARD_SUBMIT_MERGE_EVENTS", 1000),
		ClaimWriters:        env.int("LEADERBOARD_CLAIM_WRITERS", 1),
		ErasureKey:          env.secret("LEADERBOARD_ERASURE_KEY"),
		ErasureTimeout:      env.duration("LEADERBOARD_ERASURE_TIMEOUT", 10*time.Minute),
		ErasureWorkers:      env.int("LEADERBOARD_ERASURE_WORKERS", 2),
		// A few refused tokens a second: a person mistyping is never held up,
		// a program guessing is.
		AuthFailureRateLimit: env.float("LEADERBOARD_AUTH_FAILURE_RATE_LIMIT", 2),
	}
	return c, errors.Join(env.errs...)
}

// envReader reads typed environment variables, keeping an error for each
// one that is set but does not parse.
type envReader struct{ errs []error }

func (r *envReader) lookup(name string) (string, bool) {
	v, ok := os.LookupEnv(name)
	return v, ok && v != ""
}

func (r *envReader) fail(name, v, want string) {
	r.errs = append(r.errs, fmt.Errorf("%s=%q is not %s", name, v, want))
}

// secret reads name, or the file that name_FILE names.
func (r *envReader) secret(name string) string {
	v, err := secrets.FromEnv(name)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	return v
}

func (r *envReader) int(name string, def int) int {
	return envParse(r, name, def, strconv.Atoi, "a whole number")
}

func (r *envReader) float(name string, def float64) float64 {
	return envParse(r, name, def, func(v string) (float64, error) { return strconv.ParseFloat(v, 64) }, "a number")
}

func (r *envReader) duration(name string, def time.Duration) time.Duration {
	return envParse(r, name, def, time.ParseDuration, "a duration such as 15m or 30s")
}

func (r *envReader) bool(name string, def bool) bool {
	return envParse(r, name, def, strconv.ParseBool, "true or false")
}

// envParse reads name with parse: def when unset, def and an error saying
// it should be want when it does not parse.
func envParse[T any](r *envReader, name string, def T, parse func(string) (T, error), want string) T {
	v, ok := r.lookup(name)
	if !ok {
		return def
	}
	t, err := parse(v)
	if err != nil {
		r.fail(name, v, want)
		return def
	}
	return t
}

// rateLimits returns the server's rate limits, or an error naming a bad
// trusted proxy.
func (c *Config) rateLimits() (server.RateLimits, error) {
	limits := server.RateLimits{Public: c.RateLimit, GameServer: c.ServerRateLimit, Player: c.PlayerRateLimit,
		AuthFailures: c.AuthFailureRateLimit}
	for _, cidr := range strings.Split(c.TrustedProxies, ",") {
		if cidr = strings.TrimSpace(cidr); cidr == "" {
			continue
		}
		prefix, err := netip.ParsePrefix(cidr)
		if err != nil {
			return limits, fmt.Errorf("LEADERBOARD_TRUSTED_PROXIES: %q is not a CIDR such as 10.0.0.0/8", cidr)
		}
		limits.TrustedProxies = append(limits.TrustedProxies, prefix)
	}
	return limits, nil
}

// checkWebhook refuses a webhook that is not an http(s) URL, one without a
// secret (its receiver could not tell the service's messages from forged
// ones: an empty HMAC key is no key), and a negative number of messages in
// flight. The errors never repeat the URL, which
// may hold credentials.
func (c *Config) checkWebhook() error {
	if c.WebhookURL == "" {
		return nil
	}
	if err := settlement.CheckURL(c.WebhookURL); err != nil {
		return fmt.Errorf("LEADERBOARD_WEBHOOK_URL: %w", err)
	}
	if c.WebhookSecret == "" {
		return errors.New("LEADERBOARD_WEBHOOK_URL is set but LEADERBOARD_WEBHOOK_SECRET (or _FILE) is not: " +
			"messages to the reward system must be signed")
	}
	if c.WebhookConcurrency < 0 {
		return fmt.Errorf("LEADERBOARD_WEBHOOK_CONCURRENCY=%d is not a number of messages in flight (0: the default, %d)",
			c.WebhookConcurrency, settlement.DefaultConcurrency)
	}
	return nil
}

// The shortest secrets that are not warned about: 16 characters for a
// static token or the webhook's key, 32 bytes for the HS256 key of player
// tokens (RFC 7518 asks for a key at least as long as the hash).
const (
	minSecretChars   = 16
	minJWTSecretSize = 32
)

// shortSecrets returns a warning for each configured secret shorter than
// advised, each token of the admin and game-server lists on its own. They
// name the secret and its length, never its value. A short secret still
// works: a development setup may use one.
func (c *Config) shortSecrets() []string {
	var warnings []string
	tokens := func(name, list string) {
		var set []string
		for _, t := range strings.Split(list, ",") {
			if t = strings.TrimSpace(t); t != "" {
				set = append(set, t)
			}
		}
		for i, t := range set {
			if n := utf8.RuneCountInString(t); n < minSecretChars {
				which := name
				if len(set) > 1 {
					which = fmt.Sprintf("%s (token %d of %d)", name, i+1, len(set))
				}
				warnings = append(warnings, fmt.Sprintf("%s has %d characters: use at least %d random ones", which, n, minSecretChars))
			}
		}
	}
	tokens("LEADERBOARD_ADMIN_TOKEN", c.AdminToken)
	tokens("LEADERBOARD_SERVER_TOKEN", c.ServerToken)
	if n := len(c.JWTSecret); n > 0 && n < minJWTSecretSize {
		warnings = append(warnings, fmt.Sprintf("LEADERBOARD_JWT_SECRET has %d bytes: use at least %d random ones", n, minJWTSecretSize))
	}
	if n := utf8.RuneCountInString(c.WebhookSecret); n > 0 && n < minSecretChars {
		warnings = append(warnings, fmt.Sprintf("LEADERBOARD_WEBHOOK_SECRET has %d characters: use at least %d random ones", n, minSecretChars))
	}
	if n := utf8.RuneCountInString(c.ErasureKey); n > 0 && n < minSecretChars {
		warnings = append(warnings, fmt.Sprintf("LEADERBOARD_ERASURE_KEY has %d characters: use at least %d random ones", n, minSecretChars))
	}
	return warnings
}

// envOr reads a text variable; unset or empty reads as def.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// bindDatabase adds the flags every command that reaches the database takes.
func (c *Config) bindDatabase(flags *pflag.FlagSet) {
	flags.Var(databaseURL{&c.DatabaseURL}, "database-url",
		"PostgreSQL URL or key=value string (env DATABASE_URL)")
	flags.StringVar(&c.Timezone, "timezone", c.Timezone,
		"IANA time zone that decides which month an event falls in (env LEADERBOARD_TIMEZONE)")
}

// bindServe adds the flags of the serve command.
func (c *Config) bindServe(flags *pflag.FlagSet) {
	flags.StringVar(&c.ListenAddr, "listen", c.ListenAddr, "HTTP listen address (env LISTEN_ADDR)")
	flags.Var(secret{&c.AdminToken}, "admin-token",
		"static bearer tokens of the admin role, comma-separated; empty disables it (env LEADERBOARD_ADMIN_TOKEN or _FILE)")
	flags.Var(secret{&c.ServerToken}, "server-token",
		"static bearer tokens of the game-server role, comma-separated; empty disables it (env LEADERBOARD_SERVER_TOKEN or _FILE)")
	bindJWTSecret(flags, &c.JWTSecret)
	flags.BoolVar(&c.Introspection, "introspection", c.Introspection,
		"let clients read the GraphQL schema (env LEADERBOARD_INTROSPECTION=true)")
	flags.IntVar(&c.DemoPlayers, "demo-players", c.DemoPlayers,
		"seed the current month and the month before, each when it has no scores yet, with this many demo players (env LEADERBOARD_DEMO_PLAYERS)")
	flags.IntVar(&c.SnapshotPlayers, "snapshot-players", c.SnapshotPlayers,
		"most players of closed months held in memory, about 64 bytes each; 0 reads them from the database (env LEADERBOARD_SNAPSHOT_PLAYERS)")
	flags.IntVar(&c.RetentionBatch, "retention-batch", c.RetentionBatch,
		"most rows of a dropped period of a board that retention deletes in one transaction (env LEADERBOARD_RETENTION_BATCH)")
	flags.IntVar(&c.OwnPartitionPlayers, "own-partition-players", c.OwnPartitionPlayers,
		"fewest players of a period whose final ranks get a partition of their own, indexed after its rows (env LEADERBOARD_OWN_PARTITION_PLAYERS)")
	flags.BoolVar(&c.GraphiQL, "graphiql", c.GraphiQL,
		"serve the GraphiQL explorer at /graphiql, with introspection (env LEADERBOARD_GRAPHIQL=true)")
}

// location returns the event time zone.
func (c *Config) location() (*time.Location, error) {
	loc, err := leaderboard.LoadTimeZone(c.Timezone)
	if err != nil {
		return nil, fmt.Errorf("time zone %q (LEADERBOARD_TIMEZONE, --timezone) is not an IANA time zone name such as Europe/Berlin or UTC (%s)",
			c.Timezone, leaderboard.TimeZoneData)
	}
	return loc, nil
}

// bindJWTSecret adds the --jwt-secret flag.
func bindJWTSecret(flags *pflag.FlagSet, p *string) {
	flags.Var(secret{p}, "jwt-secret", "HS256 secret of player tokens; empty disables myRank (env LEADERBOARD_JWT_SECRET)")
}

// secret is a string flag whose value --help never prints.
type secret struct{ p *string }

func (s secret) String() string     { return "" }
func (s secret) Set(v string) error { *s.p = v; return nil }
func (s secret) Type() string       { return "string" }

// databaseURL is a PostgreSQL URL flag whose value --help prints with its
// password replaced: the default comes from DATABASE_URL, which holds one.
type databaseURL struct{ p *string }

func (d databaseURL) String() string     { return redactPassword(*d.p) }
func (d databaseURL) Set(v string) error { *d.p = v; return nil }
func (d databaseURL) Type() string       { return "string" }

// redactedPassword stands for a password in redactPassword's answers.
const redactedPassword = "xxxxx"

// passwordSetting is a password=... setting of a key=value connection
// string, quoted or not.
var passwordSetting = regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)

// redactPassword returns the connection string s with its passwords (of a
// URL's user, a password= query parameter or key=value setting) replaced by
// xxxxx, or "" when s is a URL that does not parse: nothing of it is shown
// rather than a password.
func redactPassword(s string) string {
	if !strings.HasPrefix(s, "postgres://") && !strings.HasPrefix(s, "postgresql://") {
		return passwordSetting.ReplaceAllString(s, "${1}"+redactedPassword)
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), redactedPassword)
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", redactedPassword)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// authConfig is the configuration of bearer tokens.
func (c *Config) authConfig() auth.Config {
	return auth.Config{
		AdminToken:       c.AdminToken,
		ServerToken:      c.ServerToken,
		JWTSecret:        []byte(c.JWTSecret),
		Issuer:           c.JWTIssuer,
		Audience:         c.JWTAudience,
		MaxTokenLifetime: c.JWTMaxLifetime,
	}
}
