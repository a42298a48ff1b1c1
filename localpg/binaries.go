package localpg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Environment variables that steer how the binaries are found.
const (
	// EnvBinDir names the directory of initdb, pg_ctl and postgres, overriding the search.
	EnvBinDir = "LEADERBOARD_PG_BIN"
	// EnvInstall set to "false" forbids installing PostgreSQL with apt-get.
	EnvInstall = "LEADERBOARD_PG_INSTALL"
)

// ErrNotInstalled is returned by Start when no PostgreSQL server binaries are
// found and they may not be installed; its message says how to install them.
var ErrNotInstalled = errors.New("PostgreSQL server binaries not found: install them with `sudo apt-get install postgresql` (Debian/Ubuntu) or `brew install postgresql` (macOS), or set DATABASE_URL")

// debianRoot holds one bin directory per installed major version on Debian and Ubuntu.
const debianRoot = "/usr/lib/postgresql"

// createClusterDropIn tells Debian's postgresql-common not to create the
// system-wide "main" cluster when the package is installed.
const createClusterDropIn = "/etc/postgresql-common/createcluster.d/leaderboard.conf"

// ensureBinaries returns the directory of the PostgreSQL server programs,
// installing them first when none are found and that is allowed.
func ensureBinaries(ctx context.Context, logger *slog.Logger) (string, error) {
	dir, err := findBinaries()
	if !errors.Is(err, ErrNotInstalled) || !mayInstall(os.Geteuid(), os.Getenv, exec.LookPath) {
		return dir, err
	}
	if err := install(ctx, logger); err != nil {
		return "", fmt.Errorf("install PostgreSQL: %w", err)
	}
	return findBinaries()
}

// findBinaries looks for initdb, pg_ctl and postgres: in $LEADERBOARD_PG_BIN
// if set, else in `pg_config --bindir`, else in the newest Debian version
// directory, else next to pg_ctl on the PATH (after following symlinks).
func findBinaries() (string, error) {
	if dir := os.Getenv(EnvBinDir); dir != "" {
		if !hasServer(dir) {
			return "", fmt.Errorf("%s=%s: no initdb, pg_ctl and postgres there", EnvBinDir, dir)
		}
		return dir, nil
	}
	newestDebian := func() string { return newestBinDir(debianRoot) }
	for _, find := range []func() string{pgConfigBinDir, newestDebian, pathBinDir} {
		if dir := find(); dir != "" && hasServer(dir) {
			return dir, nil
		}
	}
	return "", ErrNotInstalled
}

// pgConfigBinDir returns what `pg_config --bindir` says, or "". On a machine
// with only the client libraries it names a directory without the server.
func pgConfigBinDir() string {
	out, err := exec.Command("pg_config", "--bindir").Output()
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}

// newestBinDir returns root/<version>/bin of the highest version (compared as
// numbers: 10 is above 9.6) that holds the server programs, or "".
func newestBinDir(root string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return ""
	}
	var best []int
	var bestDir string
	for _, e := range entries {
		version, ok := parseVersion(e.Name())
		dir := filepath.Join(root, e.Name(), "bin")
		if ok && slices.Compare(version, best) > 0 && hasServer(dir) {
			best, bestDir = version, dir
		}
	}
	return bestDir
}

// parseVersion parses a version such as "15" or "9.6".
func parseVersion(s string) ([]int, bool) {
	var version []int
	for part := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil, false
		}
		version = append(version, n)
	}
	return version, true
}

// pathBinDir returns the directory pg_ctl on the PATH really lives in (a
// /usr/local/bin/pg_ctl may link to Debian's), or "".
func pathBinDir() string {
	path, err := exec.LookPath("pg_ctl")
	if err != nil {
		return ""
	}
	if path, err = filepath.EvalSymlinks(path); err != nil {
		return ""
	}
	return filepath.Dir(path)
}

// hasServer reports whether dir holds executable initdb, pg_ctl and postgres.
func hasServer(dir string) bool {
	for _, program := range []string{"initdb", "pg_ctl", "postgres"} {
		fi, err := os.Stat(filepath.Join(dir, program))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	return true
}

// mayInstall reports whether missing binaries may be installed: as root on a
// machine with apt-get, unless LEADERBOARD_PG_INSTALL is "false".
func mayInstall(euid int, getenv func(string) string, lookPath func(string) (string, error)) bool {
	if euid != 0 || getenv(EnvInstall) == "false" {
		return false
	}
	_, err := lookPath("apt-get")
	return err == nil
}

// install installs the distribution's default PostgreSQL with apt-get,
// without the system-wide cluster the package would otherwise create and
// start: only the binaries are wanted.
func install(ctx context.Context, logger *slog.Logger) error {
	logger.Info("PostgreSQL not found, installing it with apt-get")
	if err := os.MkdirAll(filepath.Dir(createClusterDropIn), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(createClusterDropIn, []byte("create_main_cluster = false\n"), 0o644); err != nil {
		return err
	}
	installArgs := []string{"install", "-y", "--no-install-recommends", "postgresql"}
	if err := aptGet(ctx, installArgs...); err == nil {
		return nil
	}
	// The package lists may be missing or stale (a fresh container has none).
	if err := aptGet(ctx, "update"); err != nil {
		return err
	}
	return aptGet(ctx, installArgs...)
}

// aptGet runs apt-get without questions.
func aptGet(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "apt-get", args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("apt-get %s: %w: %s", strings.Join(args, " "), err, lastLines(out, 5))
	}
	return nil
}
