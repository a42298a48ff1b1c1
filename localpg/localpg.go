// Package localpg runs a project-local PostgreSQL from the machine's
// PostgreSQL binaries, so that `leaderboard serve` works without a
// DATABASE_URL: the cluster lives in a project folder (by default
// .leaderboard/pgdata), listens only on a unix socket of its own (in
// .leaderboard/run, or, when the folder is so deep that the socket path would
// pass the kernel's limit on its length, in a directory under the system
// temporary directory named after a hash of the data directory), and is
// reused from one run to the next.
//
// PostgreSQL refuses to run as root, so when the program runs as root the
// server runs as the `postgres` system user that the Debian package creates.
//
// A cluster may be shared: every Server started on the same folder, in this
// process or another, counts as a user of the one postmaster. The first Start
// starts it (or adopts one left running, say by a crash), later Starts reuse
// it, and the Stop of the last user stops it. Two advisory locks in the
// folder make this safe across processes: postgres.start.lock serialises
// starting and stopping, and every live Server holds a shared lock on
// postgres.users.lock, which the kernel releases when a process dies.
package localpg

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Options configures Start. The zero value runs the database "leaderboard"
// in .leaderboard under the working directory, on port 5433.
type Options struct {
	// Dir is the project folder that holds the data directory (pgdata), the
	// socket directory (run), postgres.log and the lock files.
	Dir string
	// Port names the unix socket (.s.PGSQL.<port>); the server opens no TCP port.
	Port int
	// Database is created when missing; URL connects to it.
	Database string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// Existing makes Start refuse a folder that holds no cluster yet
	// (ErrNoCluster) rather than create one there: for commands that must
	// use the database a server already made, not a new empty one.
	Existing bool
	// Setting names what chooses Dir (such as an environment variable);
	// an error that asks for another folder names it.
	Setting string
}

// ErrNoCluster is the error of a Start with Options.Existing on a folder
// that holds no cluster.
var ErrNoCluster = errors.New("no local PostgreSQL cluster")

// Defaults of Options.
const (
	DefaultDir      = ".leaderboard"
	DefaultPort     = 5433
	DefaultDatabase = "leaderboard"
)

func (o Options) withDefaults() Options {
	if o.Dir == "" {
		o.Dir = DefaultDir
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.Database == "" {
		o.Database = DefaultDatabase
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Server is one user of a running project-local PostgreSQL.
type Server struct {
	logger    *slog.Logger
	account   account
	binDir    string
	dataDir   string
	socketDir string // where this server's socket is (from postmaster.pid when reused)
	logFile   string
	startLock string
	setting   string // Options.Setting
	port      int
	url       string

	mu    sync.Mutex
	users *os.File // shared lock held while this Server is live; nil once stopped
}

// Start makes the project-local PostgreSQL ready and returns a Server that
// connects to opts.Database. It finds the PostgreSQL binaries (installing them
// with apt-get when running as root on Debian, unless LEADERBOARD_PG_INSTALL
// is "false"), creates the cluster if the data directory is empty, starts the
// postmaster unless one already runs on that data directory (then it reuses
// it, on the port and socket it was started with), creates the database if it
// is missing and waits until it accepts connections. When no binaries are
// found and they may not be installed, the error is ErrNotInstalled.
func Start(ctx context.Context, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("local postgres folder %s: %w", opts.Dir, err)
	}
	if opts.Existing {
		if _, err := os.Stat(filepath.Join(dir, "pgdata", "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w in %s", ErrNoCluster, dir)
		}
	}
	acct, err := serverAccount()
	if err != nil {
		return nil, err
	}
	binDir, err := ensureBinaries(ctx, opts.Logger)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("local postgres folder: %w", err)
	}
	dataDir := filepath.Join(dir, "pgdata")
	s := &Server{
		logger:    opts.Logger,
		account:   acct,
		binDir:    binDir,
		dataDir:   dataDir,
		socketDir: socketDir(dir, dataDir, opts.Port),
		logFile:   filepath.Join(dir, "postgres.log"),
		startLock: filepath.Join(dir, "postgres.start.lock"),
		setting:   opts.Setting,
		port:      opts.Port,
	}
	starting, err := lockFile(ctx, s.startLock, exclusive)
	if err != nil {
		return nil, err
	}
	defer starting.Close()
	if s.users, err = lockFile(ctx, filepath.Join(dir, "postgres.users.lock"), shared); err != nil {
		return nil, err
	}
	if err := s.open(ctx, opts.Database); err != nil {
		// Leave no postmaster behind that nobody uses; the start error is the one to report.
		_ = s.release(context.WithoutCancel(ctx))
		return nil, err
	}
	return s, nil
}

// open prepares the directories, creates the cluster if needed, starts or
// reuses the postmaster and creates the database. The start lock is held.
func (s *Server) open(ctx context.Context, database string) error {
	if err := s.prepareDirs(); err != nil {
		return err
	}
	if err := s.initIfEmpty(ctx); err != nil {
		return err
	}
	running, err := s.running(ctx)
	if err != nil {
		return err
	}
	if running {
		if err := s.adopt(); err != nil {
			return err
		}
		s.logger.Info("reusing running local PostgreSQL", "data", s.dataDir, "socket", s.socketDir)
	} else if err := s.startPostmaster(ctx); err != nil {
		return err
	}
	conn, err := connect(ctx, connString(s.socketDir, s.port, s.account.name, "postgres"))
	if err != nil && running {
		return fmt.Errorf("%w (pg_ctl takes the process named in %s/postmaster.pid for a running server; if it is not one, remove that file)", err, s.dataDir)
	}
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := createDatabase(ctx, conn, database); err != nil {
		return err
	}
	s.url = connString(s.socketDir, s.port, s.account.name, database)
	return nil
}

// URL returns a pgx connection string (keyword/value form) for the database
// over the server's unix socket, as the OS user the server runs as, whom
// local connections are trusted to be.
func (s *Server) URL() string {
	return s.url
}

// Stop ends this Server's use of the PostgreSQL and, when no other Server in
// any process still uses it, stops it with a fast shutdown: open sessions are
// ended and rolled back, committed data is kept, so close connection pools
// first. Once this Server has let go of the PostgreSQL, later calls return nil.
func (s *Server) Stop(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users == nil {
		return nil
	}
	stopping, err := lockFile(ctx, s.startLock, exclusive)
	if err != nil {
		return err
	}
	defer stopping.Close()
	return s.release(ctx)
}

// release drops this Server's shared lock and stops the postmaster if that
// was the last one. The start lock is held, so no Start can race it.
func (s *Server) release(ctx context.Context) error {
	users := s.users
	s.users = nil
	defer users.Close()
	if !tryUpgrade(users) {
		s.logger.Info("local PostgreSQL still in use elsewhere, leaving it running", "data", s.dataDir)
		return nil
	}
	running, err := s.running(ctx)
	if err != nil || !running {
		return err
	}
	if err := s.run(ctx, "pg_ctl", "-D", s.dataDir, "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
		return fmt.Errorf("stop local postgres: %w", err)
	}
	s.logger.Info("stopped local PostgreSQL", "data", s.dataDir)
	return nil
}

// initIfEmpty creates the cluster when the data directory is empty. A
// directory with files but no PG_VERSION is left alone: it is not ours.
func (s *Server) initIfEmpty(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(s.dataDir, "PG_VERSION")); err == nil {
		return nil
	}
	entries, err := os.ReadDir(s.dataDir)
	if err != nil {
		return fmt.Errorf("read data directory: %w", err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("data directory %s holds files but no PostgreSQL cluster (no PG_VERSION): move them away", s.dataDir)
	}
	s.logger.Info("creating local PostgreSQL cluster", "data", s.dataDir)
	err = s.initdb(ctx, "--locale=C.UTF-8")
	if err != nil && strings.Contains(err.Error(), "invalid locale") {
		s.logger.Info("locale C.UTF-8 unavailable, creating the cluster without a locale")
		err = s.initdb(ctx, "--no-locale")
	}
	return err
}

// initdb runs initdb with the given locale option; a failed initdb empties
// the data directory again, so it can be retried.
func (s *Server) initdb(ctx context.Context, locale string) error {
	err := s.run(ctx, "initdb", "-D", s.dataDir, "-U", s.account.name,
		"--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", locale)
	if err != nil {
		return fmt.Errorf("create cluster in %s: %w", s.dataDir, err)
	}
	return nil
}

// running reports whether a postmaster runs on the data directory.
func (s *Server) running(ctx context.Context) (bool, error) {
	err := s.run(ctx, "pg_ctl", "-D", s.dataDir, "status")
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 3: // pg_ctl: "no server running"
		return false, nil
	default:
		return false, fmt.Errorf("local postgres status: %w", err)
	}
}

// adopt points the Server at the socket and port that the running postmaster
// wrote to postmaster.pid, which may differ from the ones asked for.
func (s *Server) adopt() error {
	b, err := os.ReadFile(filepath.Join(s.dataDir, "postmaster.pid"))
	if err != nil {
		return fmt.Errorf("running local postgres: %w", err)
	}
	// Lines: pid, data dir, start time, port, first socket dir, listen address, shm key, status.
	lines := strings.Split(string(b), "\n")
	if len(lines) < 5 {
		return fmt.Errorf("running local postgres: short postmaster.pid in %s", s.dataDir)
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err != nil {
		return fmt.Errorf("running local postgres: port in postmaster.pid: %w", err)
	}
	dir := strings.TrimSpace(lines[4])
	if dir == "" {
		return fmt.Errorf("running local postgres on %s has no unix socket: stop it with pg_ctl -D %s stop", s.dataDir, s.dataDir)
	}
	s.port, s.socketDir = port, dir
	return nil
}

// startPostmaster starts the server on the socket only and waits until it
// is ready.
func (s *Server) startPostmaster(ctx context.Context) error {
	s.logger.Info("starting local PostgreSQL", "data", s.dataDir, "socket", s.socketDir, "port", s.port, "log", s.logFile)
	// pg_ctl hands -o to /bin/sh, hence the quoting.
	serverOpts := fmt.Sprintf("-k %s -p %d -c listen_addresses='' -c jit=off", shellQuote(s.socketDir), s.port)
	err := s.run(ctx, "pg_ctl", "-D", s.dataDir, "-l", s.logFile, "-w", "-t", "60", "-o", serverOpts, "start")
	if err != nil {
		log, _ := os.ReadFile(s.logFile) // best effort: the error stands without it
		return fmt.Errorf("start local postgres (log %s): %w\n%s", s.logFile, err, lastLines(log, 10))
	}
	return nil
}

// connect opens a connection, retrying while the server cannot accept it yet
// (no socket, or still starting or recovering), for at most 30 seconds.
func connect(ctx context.Context, connString string) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, connString)
		if err == nil {
			return conn, nil
		}
		if !transient(err) || ctx.Err() != nil {
			return nil, fmt.Errorf("connect to local postgres: %w", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// transient reports whether a connection error may go away by itself: one
// from the network, or the server saying it cannot accept connections yet.
func transient(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == pgerrcode.CannotConnectNow
	}
	return true
}

// createDatabase creates the database name unless it exists.
func createDatabase(ctx context.Context, conn *pgx.Conn, name string) error {
	const q = `SELECT 1 FROM pg_database WHERE datname = $1`
	var one int
	err := conn.QueryRow(ctx, q, name).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// connString returns a keyword/value connection string over a unix socket.
func connString(socketDir string, port int, user, database string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable",
		connValue(socketDir), port, connValue(user), connValue(database))
}

// connValue quotes a connection string value when it needs it.
func connValue(v string) string {
	if v != "" && !strings.ContainsAny(v, ` '\`) {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lastLines returns the last n lines of b, for error messages.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
