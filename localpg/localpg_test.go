package localpg

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestStart_ReusesClusterAcrossRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := testOptions(t, reachableTempDir(t))

	first := MustStart(t, opts)
	fi, err := os.Stat(first.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("data directory mode = %v, want 0700", fi.Mode().Perm())
	}
	conn := MustConnect(t, first.URL())
	var one int
	if err := conn.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE kept (name text); INSERT INTO kept VALUES ('still here')`); err != nil {
		t.Fatal(err)
	}
	cluster := systemIdentifier(t, conn)
	conn.Close(ctx)
	MustStop(t, first)
	if MustRunning(t, first) {
		t.Fatal("server still running after Stop")
	}
	MustStop(t, first) // idempotent

	second := MustStart(t, opts)
	conn = MustConnect(t, second.URL())
	if got := systemIdentifier(t, conn); got != cluster {
		t.Errorf("system identifier %d after restart, want %d: the cluster was created again", got, cluster)
	}
	var name string
	if err := conn.QueryRow(ctx, `SELECT name FROM kept`).Scan(&name); err != nil || name != "still here" {
		t.Errorf("row after restart = %q, %v", name, err)
	}
	conn.Close(ctx)
	MustStop(t, second)
}

func TestStart_SecondStartSharesRunningServer(t *testing.T) {
	t.Parallel()
	opts := testOptions(t, reachableTempDir(t))
	first := MustStart(t, opts)
	second := MustStart(t, opts)
	if first.URL() != second.URL() {
		t.Errorf("URLs differ: %q and %q", first.URL(), second.URL())
	}

	MustStop(t, second)
	if !MustRunning(t, first) {
		t.Fatal("the second Stop stopped the server the first still uses")
	}
	MustConnect(t, first.URL()).Close(context.Background())

	MustStop(t, first)
	if MustRunning(t, first) {
		t.Fatal("the last Stop left the server running")
	}
}

func TestStart_AdoptsServerLeftByCrash(t *testing.T) {
	t.Parallel()
	opts := testOptions(t, reachableTempDir(t))
	crashed := MustStart(t, opts)
	// What the kernel does when the process dies: the lock goes, the postmaster stays.
	crashed.users.Close()
	crashed.users = nil

	opts.Port = DefaultPort + 1
	adopter := MustStart(t, opts)
	if adopter.port != crashed.port || adopter.URL() != crashed.URL() {
		t.Errorf("adopter URL %q, want the running server's %q", adopter.URL(), crashed.URL())
	}
	MustConnect(t, adopter.URL()).Close(context.Background())
	MustStop(t, adopter)
	if MustRunning(t, adopter) {
		t.Fatal("Stop of the only user left the adopted server running")
	}
}

func TestStart_LongFolderUsesSocketInTempDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(reachableTempDir(t), strings.Repeat("a-folder-name-long-enough/", 4))
	if len(socketPath(filepath.Join(dir, "run"), DefaultPort)) <= maxSocketPath {
		t.Fatalf("test folder %s is too short to need the fallback", dir)
	}
	s := MustStart(t, testOptions(t, dir))
	if filepath.Dir(s.socketDir) != filepath.Clean(os.TempDir()) {
		t.Errorf("socket directory %s, want one in %s", s.socketDir, os.TempDir())
	}
	t.Cleanup(func() { os.RemoveAll(s.socketDir) })
	MustConnect(t, s.URL()).Close(context.Background())
	MustStop(t, s)
}

func TestStart_RefusesFolderWithForeignFiles(t *testing.T) {
	t.Parallel()
	dir := reachableTempDir(t)
	if err := os.MkdirAll(filepath.Join(dir, "pgdata"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pgdata", "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), testOptions(t, dir))
	if err == nil || !strings.Contains(err.Error(), "no PostgreSQL cluster") {
		t.Fatalf("Start = %v, want a refusal to touch the files", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pgdata", "notes.txt")); err != nil {
		t.Errorf("the foreign file is gone: %v", err)
	}
}

func TestCheckReachable_NamesBlockingDirectory(t *testing.T) {
	t.Parallel()
	closed := filepath.Join(reachableTempDir(t), "closed")
	if err := os.Mkdir(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	// A user that owns nothing here and is in no group of it.
	other := account{name: "nobody-here", uid: 54321, gid: 54321, groups: []uint32{54321}, switched: true}
	folder := filepath.Join(closed, "data")
	dataDir := filepath.Join(folder, "pgdata")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	err := other.checkReachable(dataDir, "LEADERBOARD_DATA_DIR")
	if err == nil {
		t.Fatal("checkReachable = nil, want a refusal")
	}
	// The message names the closed directory, the folder, the user and the
	// setting to change, and suggests folders the user can reach; the
	// folder the command was run from plays no part.
	for _, want := range []string{
		"the user nobody-here, which may not enter " + closed + " ",
		"cannot use the folder " + folder + ":",
		"set LEADERBOARD_DATA_DIR to a folder the user nobody-here can reach, such as /var/lib/leaderboard or /tmp/leaderboard",
		"chmod o+x " + closed,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("checkReachable = %v, want it to say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "run from") {
		t.Errorf("checkReachable = %v: the working directory does not matter", err)
	}
	if err := other.checkReachable(dataDir, ""); err == nil || !strings.Contains(err.Error(), ": choose a folder the user nobody-here can reach") {
		t.Errorf("checkReachable without a setting = %v, want it to ask for another folder", err)
	}
	if err := os.Chmod(closed, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := other.checkReachable(dataDir, "LEADERBOARD_DATA_DIR"); err != nil {
		t.Errorf("checkReachable after chmod o+x = %v", err)
	}
}

// With Existing, a folder without a cluster is refused before anything is
// created in it or installed.
func TestStart_ExistingRefusesFolderWithoutCluster(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "elsewhere")
	opts := testOptions(t, dir)
	opts.Existing = true
	_, err := Start(context.Background(), opts)
	if !errors.Is(err, ErrNoCluster) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Start = %v, want ErrNoCluster naming %s", err, dir)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Start made the folder it refused: %v", err)
	}
}

func TestNewestBinDir_ComparesVersionsAsNumbers(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, version := range []string{"9.6", "10", "15"} {
		fakeServer(t, filepath.Join(root, version, "bin"))
	}
	// Without the server programs (a client-only install), 16 does not count.
	if err := os.MkdirAll(filepath.Join(root, "16", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "common", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := newestBinDir(root), filepath.Join(root, "15", "bin"); got != want {
		t.Errorf("newestBinDir = %s, want %s", got, want)
	}
	if got := newestBinDir(filepath.Join(root, "missing")); got != "" {
		t.Errorf("newestBinDir of a missing root = %q, want \"\"", got)
	}
}

func TestFindBinaries_HonoursEnv(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "bin")
		fakeServer(t, dir)
		t.Setenv(EnvBinDir, dir)
		if got, err := findBinaries(); err != nil || got != dir {
			t.Errorf("findBinaries = %q, %v, want %q", got, err, dir)
		}
	})
	t.Run("ErrEmptyDir", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv(EnvBinDir, dir)
		if _, err := findBinaries(); err == nil || !strings.Contains(err.Error(), EnvBinDir) {
			t.Errorf("findBinaries = %v, want an error naming %s", err, EnvBinDir)
		}
	})
}

func TestMayInstall(t *testing.T) {
	t.Parallel()
	hasApt := func(string) (string, error) { return "/usr/bin/apt-get", nil }
	noApt := func(string) (string, error) { return "", errors.New("not found") }
	env := func(v string) func(string) string { return func(string) string { return v } }
	tests := []struct {
		name     string
		euid     int
		install  string
		lookPath func(string) (string, error)
		want     bool
	}{
		{"RootWithApt", 0, "", hasApt, true},
		{"RootWithAptInstallTrue", 0, "true", hasApt, true},
		{"RootOptedOut", 0, "false", hasApt, false},
		{"RootWithoutApt", 0, "", noApt, false},
		{"NotRoot", 1000, "", hasApt, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mayInstall(tt.euid, env(tt.install), tt.lookPath); got != tt.want {
				t.Errorf("mayInstall = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConnString_QuotesPaths(t *testing.T) {
	t.Parallel()
	dir := `/tmp/it's a dir\x`
	cfg, err := pgx.ParseConfig(connString(dir, 5433, "postgres", "leaderboard"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != dir || cfg.Port != 5433 || cfg.User != "postgres" || cfg.Database != "leaderboard" {
		t.Errorf("parsed host=%q port=%d user=%q dbname=%q", cfg.Host, cfg.Port, cfg.User, cfg.Database)
	}
}

// testOptions returns Options for a server in dir that logs to the test.
func testOptions(t *testing.T, dir string) Options {
	return Options{Dir: dir, Logger: slog.New(slog.NewTextHandler(t.Output(), nil))}
}

// reachableTempDir returns a fresh directory that the postgres user can
// reach: t.TempDir makes its directories 0700, so when the server runs as
// another user (we are root) they must let others through.
func reachableTempDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	for d := dir; d != filepath.Clean(os.TempDir()) && d != filepath.Dir(d); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// MustStart starts a server and stops it when the test ends.
func MustStart(tb testing.TB, opts Options) *Server {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Stop(context.Background()) })
	return s
}

// MustStop stops s.
func MustStop(tb testing.TB, s *Server) {
	tb.Helper()
	if err := s.Stop(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

// MustRunning reports whether a postmaster runs on s's data directory.
func MustRunning(tb testing.TB, s *Server) bool {
	tb.Helper()
	running, err := s.running(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return running
}

// MustConnect connects to url.
func MustConnect(tb testing.TB, url string) *pgx.Conn {
	tb.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		tb.Fatal(err)
	}
	return conn
}

// systemIdentifier returns the cluster's identity, which initdb draws anew.
func systemIdentifier(tb testing.TB, conn *pgx.Conn) int64 {
	tb.Helper()
	var id int64
	if err := conn.QueryRow(context.Background(), `SELECT system_identifier FROM pg_control_system()`).Scan(&id); err != nil {
		tb.Fatal(err)
	}
	return id
}

// fakeServer makes dir look like a directory of PostgreSQL server programs.
func fakeServer(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, program := range []string{"initdb", "pg_ctl", "postgres"} {
		if err := os.WriteFile(filepath.Join(dir, program), []byte("#!/bin/sh\n"), fs.FileMode(0o755)); err != nil {
			tb.Fatal(err)
		}
	}
}
