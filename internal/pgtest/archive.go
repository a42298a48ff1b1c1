package pgtest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/moby/moby/api/types/container"
	"github.com/testcontainers/testcontainers-go"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gamebackend/leaderboard/db"
)

// archiveMount is where the host's archive directory appears inside the
// containers: WAL segments in wal/, base backups in their own folders.
const archiveMount = "/archive"

// archiveCommand copies a finished WAL segment into the archive, never over
// an archived one (one archived with the same bytes counts as done: a crash
// between the copy and its record is retried), through a temporary name so
// that a half-copied file is never taken for a segment (docs/OPERATIONS.md
// has it with /backup).
const archiveCommand = `if test -f /archive/wal/%f; then cmp -s %p /archive/wal/%f; else cp %p /archive/wal/%f.tmp && mv /archive/wal/%f.tmp /archive/wal/%f; fi`

// restoreScript is the restored server's entrypoint: it unpacks the base
// backup into an empty data directory, asks for recovery from the archive up
// to the target, then promotion, and starts the server. %s: the backup's
// folder, then the recovery target's settings.
const restoreScript = `set -e
mkdir -p "$PGDATA"
chmod 700 "$PGDATA"
tar -xf /archive/%s/base.tar -C "$PGDATA"
cat >>"$PGDATA/postgresql.auto.conf" <<'EOF'
restore_command = 'cp /archive/wal/%%f %%p'
%s
recovery_target_action = 'promote'
EOF
touch "$PGDATA/recovery.signal"
exec postgres -c jit=off
`

// Archived is a migrated PostgreSQL that archives every finished WAL
// segment into a directory of the host, where its base backups go too.
type Archived struct {
	// URL connects to the leaderboard database.
	URL string
	// Dir is the host directory of the archive.
	Dir       string
	container *postgres.PostgresContainer
}

// Backup is a base backup in the archive, in tar format.
type Backup struct {
	// Name is its folder in the archive.
	Name string
}

// RestoreTarget says where recovery stops: at the restore point Name (made
// by CreateRestorePoint), or else just before the first transaction that
// committed after Time.
type RestoreTarget struct {
	Name string
	Time time.Time
}

// StartArchived runs a PostgreSQL with archive_mode on whose archive_command
// copies WAL into a fresh host directory, and migrates it. It is removed
// when the test ends.
func StartArchived(tb testing.TB) *Archived {
	tb.Helper()
	setTestcontainersDefaults()
	dir := archiveDir(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := postgres.Run(ctx, imageName(),
		postgres.WithDatabase("leaderboard"),
		postgres.WithUsername("leaderboard"),
		postgres.WithPassword("leaderboard"),
		postgres.BasicWaitStrategies(),
		bindArchive(dir),
		testcontainers.WithCmdArgs("-c", "jit=off", "-c", "archive_mode=on", "-c", "archive_command="+archiveCommand),
	)
	terminateAtEnd(tb, c)
	if err != nil {
		tb.Fatalf("start the archived primary from %s: %v", imageName(), err)
	}
	a := &Archived{Dir: dir, container: c}
	if a.URL, err = c.ConnectionString(ctx, "sslmode=disable"); err != nil {
		tb.Fatal(err)
	}
	if _, _, err := db.Migrate(a.URL, db.MigrateUp); err != nil {
		tb.Fatalf("migrate the archived primary: %v", err)
	}
	return a
}

// archiveDir makes the test's archive directory with wal/ in it, writable
// by the containers' postgres user (uid 999).
func archiveDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	for _, d := range []string{dir, filepath.Join(dir, "wal")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			tb.Fatal(err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// bindArchive mounts the host directory dir at archiveMount.
func bindArchive(dir string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
		hc.Binds = append(hc.Binds, dir+":"+archiveMount)
	})
}

// BaseBackup takes a base backup with pg_basebackup (tar format, fast
// checkpoint, no WAL of its own: recovery reads it from the archive) into a
// new folder of the archive. pg_basebackup returns once the WAL the backup
// needs is archived.
func (a *Archived) BaseBackup(tb testing.TB, name string) Backup {
	tb.Helper()
	folder := filepath.Join(a.Dir, name)
	if err := os.Mkdir(folder, 0o777); err != nil {
		tb.Fatal(err)
	}
	if err := os.Chmod(folder, 0o777); err != nil {
		tb.Fatal(err)
	}
	a.exec(tb, "pg_basebackup", "--username=leaderboard", "--no-password", "--pgdata="+archiveMount+"/"+name,
		"--format=tar", "--wal-method=none", "--checkpoint=fast")
	return Backup{Name: name}
}

// exec runs cmd in the container, failing the test when it exits non-zero.
func (a *Archived) exec(tb testing.TB, cmd ...string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code, out, err := a.container.Exec(ctx, cmd, tcexec.Multiplexed())
	if err != nil {
		tb.Fatalf("%s: %v", cmd[0], err)
	}
	if code != 0 {
		output, _ := io.ReadAll(out)
		tb.Fatalf("%s exited with %d: %s", cmd[0], code, output)
	}
}

// CreateRestorePoint records a named restore point in the WAL, a target for
// Restore, and returns the server's clock just after it: restoring to that
// time gives the same database as restoring to the name, unless another
// session committed in between.
func (a *Archived) CreateRestorePoint(tb testing.TB, name string) time.Time {
	tb.Helper()
	var at time.Time
	a.query(tb, `SELECT clock_timestamp() FROM pg_create_restore_point($1)`, []any{name}, &at)
	return at
}

// ArchiveCurrentWAL ends the WAL segment being written and waits, for up to
// 30 seconds, until archive_command has copied it: everything committed so
// far is then in the archive. It fails the test on an archive failure.
func (a *Archived) ArchiveCurrentWAL(tb testing.TB) {
	tb.Helper()
	var segment string
	a.query(tb, `SELECT pg_walfile_name(pg_switch_wal())`, nil, &segment)
	deadline := time.Now().Add(30 * time.Second)
	for {
		// The archive's own file, not pg_stat_archiver.last_archived_wal,
		// which may name a backup history file archived after the segment.
		if _, err := os.Stat(filepath.Join(a.Dir, "wal", segment)); err == nil {
			return
		}
		var failures int64
		a.query(tb, `SELECT failed_count FROM pg_stat_archiver`, nil, &failures)
		if failures > 0 {
			tb.Fatalf("archive_command failed %d times (pg_stat_archiver)", failures)
		}
		if time.Now().After(deadline) {
			tb.Fatalf("WAL segment %s was not archived within 30 s", segment)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// query runs one single-row query on the archived server into dest.
func (a *Archived) query(tb testing.TB, sql string, args []any, dest ...any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, a.URL)
	if err != nil {
		tb.Fatalf("connect to the archived primary: %v", err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(ctx, sql, args...).Scan(dest...); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}

// Restore starts a new PostgreSQL from backup, recovers it from the archive
// up to target and promotes it, and returns the URL of its leaderboard
// database once it takes writes. The archived server goes on unaffected; the
// restored one archives nothing. It is removed when the test ends.
func (a *Archived) Restore(tb testing.TB, backup Backup, target RestoreTarget) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := testcontainers.Run(ctx, imageName(),
		testcontainers.WithEntrypoint("/bin/sh", "-c", fmt.Sprintf(restoreScript, backup.Name, target.settings())),
		testcontainers.WithCmd(),
		testcontainers.WithExposedPorts("5432/tcp"),
		bindArchive(a.Dir),
		testcontainers.WithWaitStrategy(
			wait.ForLog("database system is ready to accept connections").WithStartupTimeout(90*time.Second),
			wait.ForListeningPort("5432/tcp")),
	)
	terminateAtEnd(tb, c)
	if err != nil {
		tb.Fatalf("restore %s to %+v: %v", backup.Name, target, err)
	}
	endpoint, err := c.PortEndpoint(ctx, "5432/tcp", "")
	if err != nil {
		tb.Fatal(err)
	}
	return "postgres://leaderboard:leaderboard@" + endpoint + "/leaderboard?sslmode=disable"
}

// settings are the recovery_target_* lines of the restored server.
func (t RestoreTarget) settings() string {
	if t.Name != "" {
		return "recovery_target_name = " + quoteSetting(t.Name)
	}
	return "recovery_target_time = " + quoteSetting(t.Time.UTC().Format("2006-01-02 15:04:05.999999")+"+00")
}

// quoteSetting quotes s as a string value of postgresql.conf.
func quoteSetting(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
