package app

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The local PostgreSQL keeps its data in one place whatever the working
// directory, and for root that place is one the postgres user can reach,
// even when the working directory is a 0700 folder such as /root.
func TestDataDir_SamePlaceFromAnyFolderAndReachable(t *testing.T) {
	t.Setenv("LEADERBOARD_DATA_DIR", "")
	var dirs []string
	for _, wd := range []string{t.TempDir(), "/"} { // t.TempDir is 0700
		t.Chdir(wd)
		dir, err := (&Config{}).dataDir()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(dir, wd+"/") && wd != "/" {
			t.Errorf("from %s the data is kept under the working directory: %s", wd, dir)
		}
		dirs = append(dirs, dir)
	}
	if dirs[0] != dirs[1] {
		t.Errorf("data in %s from one folder and %s from another", dirs[0], dirs[1])
	}
	if os.Geteuid() != 0 {
		return
	}
	// PostgreSQL runs as postgres: every existing parent must let others through.
	for d := filepath.Dir(dirs[0]); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			t.Errorf("%s (mode %v) keeps the postgres user out of %s", d, fi.Mode().Perm(), dirs[0])
		}
		if d == "/" {
			break
		}
	}
}

// Run from a 0700 folder, the commands use the local PostgreSQL in the data
// folder, and a command run from another folder finds the same database.
func TestEmbeddedDefault_FromA0700FolderAndFromElsewhere(t *testing.T) {
	dataDir := t.TempDir()
	if os.Geteuid() == 0 {
		// As root the server runs as postgres, which must reach the data
		// folder (the default, /var/lib/leaderboard, is reachable).
		dataDir = filepath.Join(reachableDir(t), "data")
	}
	t.Setenv("DATABASE_URL", "")
	t.Setenv("LEADERBOARD_DATA_DIR", dataDir)

	run := func(wd string, args ...string) string {
		t.Helper()
		t.Chdir(wd)
		cmd := NewCommand(slog.New(slog.NewTextHandler(t.Output(), nil)))
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v from %s: %v\n%s", args, wd, err, out.String())
		}
		return out.String()
	}
	private := t.TempDir() // 0700, like /root
	run(private, "migrate", "up")
	if entries, _ := os.ReadDir(private); len(entries) != 0 {
		t.Errorf("the command left files in its working directory: %v", entries)
	}
	if out := run("/", "migrate", "version"); !strings.HasPrefix(out, "schema version ") || strings.HasPrefix(out, "schema version 0 ") {
		t.Errorf("migrate version from / after migrate up elsewhere: %q", out)
	}
}

// reachableDir returns a fresh directory whose parents let other users
// through, as the postgres user needs.
func reachableDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	for d := dir; d != filepath.Clean(os.TempDir()) && d != filepath.Dir(d); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// A one-off command pointed at a data folder with no database (not the
// server's) is refused, naming the folder, and leaves nothing there; migrate
// up may make one, after which the commands find it.
func TestOneOffCommands_RefuseANewDataFolder(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "not-the-servers")
	if os.Geteuid() == 0 {
		dataDir = filepath.Join(reachableDir(t), "not-the-servers")
	}
	t.Setenv("DATABASE_URL", "")
	t.Setenv("LEADERBOARD_DATA_DIR", dataDir)
	run := func(args ...string) (string, error) {
		cmd := NewCommand(slog.New(slog.NewTextHandler(t.Output(), nil)))
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return out.String(), err
	}
	want := "no database at " + dataDir + ": start the server with `make run` first, or set LEADERBOARD_DATA_DIR / DATABASE_URL to the server's"
	for _, args := range [][]string{{"boards"}, {"export", "2026-10"}, {"migrate", "version"}, {"seed", "--month", "2026-10", "--players", "10"}} {
		if _, err := run(args...); err == nil || err.Error() != want {
			t.Errorf("%v = %v, want %q", args, err, want)
		}
	}
	if _, err := os.Stat(dataDir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused command made the data folder: %v", err)
	}
	if out, err := run("migrate", "up"); err != nil {
		t.Fatalf("migrate up: %v\n%s", err, out)
	}
	if out, err := run("boards"); err != nil || !strings.Contains(out, "main") {
		t.Errorf("boards after migrate up = %q, %v", out, err)
	}
	if out, err := run("seed", "--month", "2026-10", "--players", "10"); err != nil {
		t.Fatalf("seed: %v\n%s", err, out)
	}
	if out, err := run("close-month", "2026-10"); err != nil || !strings.HasPrefix(out, "month 2026-10 is CLOSED with 10 participants, digest ") {
		t.Errorf("close-month = %q, %v", out, err)
	}
	if out, err := run("export", "2026-10"); err != nil || !strings.HasPrefix(out, "rank,player_id,player_name,score,reached_at,percentile\n1,") {
		t.Errorf("export = %q, %v", out, err)
	}
}
