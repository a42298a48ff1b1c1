package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard/localpg"
)

// Setting is one PostgreSQL server setting.
type Setting struct {
	Name, Value string
}

// Tuning returns the server settings the benchmark's own PostgreSQL runs
// with on a machine with ram bytes of memory: shared_buffers a quarter of
// the memory, at most 4 GB, room for the seed's and the close's sorts and
// index builds, and checkpoints far enough apart that none lands in every
// measurement. synchronous_commit stays on: an acknowledged event is on disk.
func Tuning(ram uint64) []Setting {
	const mb = 1 << 20
	sharedBuffers := min(ram/4, 4<<30)
	return []Setting{
		{"shared_buffers", strconv.FormatUint(sharedBuffers/mb, 10) + "MB"},
		{"effective_cache_size", strconv.FormatUint(ram/2/mb, 10) + "MB"},
		{"work_mem", "64MB"},
		{"maintenance_work_mem", "1GB"},
		{"max_wal_size", "8GB"},
		{"checkpoint_timeout", "30min"},
		{"synchronous_commit", "on"},
		// Slow statements and every autovacuum land in postgres.log, for a
		// look afterwards: an autovacuum during a measurement takes a core.
		{"log_min_duration_statement", "250ms"},
		{"log_autovacuum_min_duration", "0"},
	}
}

// ReportedSettings are the settings the report shows, read back from the
// server, whichever server it is.
var ReportedSettings = []string{
	"shared_buffers", "effective_cache_size", "work_mem", "maintenance_work_mem", "max_wal_size",
	"checkpoint_timeout", "synchronous_commit", "fsync", "full_page_writes", "jit", "max_connections",
	"random_page_cost",
}

// Postgres is the database the benchmark runs against.
type Postgres struct {
	URL string
	// Where says which server it is, for the report.
	Where string
	// DataDir is the server's data directory.
	DataDir string
	server  *localpg.Server
}

// StartPostgres starts a PostgreSQL of the benchmark's own in a fresh
// folder dir (anything there is removed first, and a server left running
// on it by an earlier run is stopped), on the unix socket port, tuned with
// settings: it creates the cluster, writes them with ALTER SYSTEM and
// restarts it, since shared_buffers only changes at a start.
func StartPostgres(ctx context.Context, dir string, port int, settings []Setting, logger *slog.Logger) (*Postgres, error) {
	opts := localpg.Options{Dir: dir, Port: port, Database: "leaderboard_bench", Logger: logger}
	if err := removeCluster(ctx, opts); err != nil {
		return nil, err
	}
	server, err := localpg.Start(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := AlterSystem(ctx, server.URL(), settings); err != nil {
		return nil, errors.Join(err, server.Stop(ctx))
	}
	if err := server.Stop(ctx); err != nil {
		return nil, err
	}
	if server, err = localpg.Start(ctx, opts); err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(dir)
	return &Postgres{URL: server.URL(), Where: "a dedicated PostgreSQL in " + abs, DataDir: filepath.Join(abs, "pgdata"), server: server}, nil
}

// Stop stops the benchmark's own PostgreSQL; the data stays in its folder
// until the next run. Close connection pools first.
func (p *Postgres) Stop(ctx context.Context) error {
	if p.server == nil {
		return nil
	}
	return p.server.Stop(ctx)
}

// removeCluster stops a server an earlier run may have left on the folder,
// by adopting and releasing it, then removes the folder.
func removeCluster(ctx context.Context, opts localpg.Options) error {
	if _, err := os.Stat(filepath.Join(opts.Dir, "pgdata", "postmaster.pid")); err == nil {
		opts.Logger.Info("stopping the PostgreSQL an earlier benchmark left running", "dir", opts.Dir)
		server, err := localpg.Start(ctx, opts)
		if err != nil {
			return fmt.Errorf("stop the earlier benchmark's PostgreSQL in %s: %w", opts.Dir, err)
		}
		if err := server.Stop(ctx); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(opts.Dir); err != nil {
		return fmt.Errorf("remove %s: %w", opts.Dir, err)
	}
	return nil
}

// AlterSystem writes settings to the cluster's postgresql.auto.conf.
func AlterSystem(ctx context.Context, url string, settings []Setting) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("tune postgres: %w", err)
	}
	defer conn.Close(ctx)
	for _, s := range settings {
		// ALTER SYSTEM takes no parameters; the values are ours, and quoted.
		q := fmt.Sprintf(`ALTER SYSTEM SET %s = '%s'`, pgx.Identifier{s.Name}.Sanitize(), s.Value)
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("tune postgres: %s: %w", s.Name, err)
		}
	}
	return nil
}

// ReadSettings returns the server's version and the values of names, as
// the server reports them.
func ReadSettings(ctx context.Context, pool *pgxpool.Pool, names []string) (version string, settings []Setting, err error) {
	if err := pool.QueryRow(ctx, `SHOW server_version`).Scan(&version); err != nil {
		return "", nil, fmt.Errorf("read postgres version: %w", err)
	}
	for _, name := range names {
		var value string
		if err := pool.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&value); err != nil {
			return "", nil, fmt.Errorf("read setting %s: %w", name, err)
		}
		settings = append(settings, Setting{name, value})
	}
	return version, settings, nil
}
