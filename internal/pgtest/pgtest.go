// Package pgtest runs a real PostgreSQL for tests: one container per test
// package, migrated once and snapshotted, restored to that snapshot before
// each test in about a tenth of a second.
//
// The image comes from LEADERBOARD_PG_IMAGE, by default the one that
// scripts/postgres-image/build.sh builds from Debian packages (`make test`
// builds it when missing); on a machine with a registry, postgres:16-alpine
// works too.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // Snapshot and Restore run SQL through database/sql
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gamebackend/leaderboard/db"
)

// DefaultImage is the image used when LEADERBOARD_PG_IMAGE is unset.
const DefaultImage = "localhost/leaderboard-postgres:15"

// Postgres is a migrated PostgreSQL in a container.
type Postgres struct {
	container *postgres.PostgresContainer
	// URL connects to the test database.
	URL string
}

// Start runs the container, migrates the database and snapshots it.
func Start(ctx context.Context) (*Postgres, error) {
	return start(ctx)
}

// StartStoppable is Start for a test of its own that stops and starts the
// database: the container is published on a fixed host port, so its URL
// stays the same across Stop and Resume. It is removed when the test ends.
func StartStoppable(tb testing.TB) *Postgres {
	tb.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := fmt.Sprint(listener.Addr().(*net.TCPAddr).Port)
	listener.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := start(ctx, testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
		hc.PortBindings = network.PortMap{network.MustParsePort("5432/tcp"): {{HostPort: port}}}
	}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(p.Terminate)
	return p
}

// readyTimeout bounds the wait for a new container's database: on a loaded
// two-core machine its initdb and first start passed the module's minute.
const readyTimeout = 150 * time.Second

// testShmSize is the /dev/shm of the test database's container.
const testShmSize = 1 << 30

func start(ctx context.Context, options ...testcontainers.ContainerCustomizer) (*Postgres, error) {
	setTestcontainersDefaults()
	image := imageName()
	container, err := postgres.Run(ctx, image, append([]testcontainers.ContainerCustomizer{
		postgres.WithDatabase("leaderboard"),
		postgres.WithUsername("leaderboard"),
		postgres.WithPassword("leaderboard"),
		postgres.WithSQLDriver("pgx"),
		testcontainers.WithWaitStrategyAndDeadline(readyTimeout,
			wait.ForLog("database system is ready to accept connections").WithOccurrence(2).WithStartupTimeout(readyTimeout),
			wait.ForListeningPort("5432/tcp").WithStartupTimeout(readyTimeout)),
		testcontainers.WithCmdArgs("-c", "jit=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"),
		// Docker's default 64 MB of /dev/shm fails a parallel vacuum or
		// index build of a ten-million-row month in a benchmark.
		testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) { hc.ShmSize = testShmSize }),
	}, options...)...)
	if err != nil {
		if container != nil {
			testcontainers.TerminateContainer(container)
		}
		return nil, fmt.Errorf("start postgres from %s (build it with scripts/postgres-image/build.sh): %w", image, err)
	}
	p := &Postgres{container: container}
	if p.URL, err = container.ConnectionString(ctx, "sslmode=disable"); err != nil {
		p.Terminate()
		return nil, err
	}
	if _, _, err := db.Migrate(p.URL, db.MigrateUp); err != nil {
		p.Terminate()
		return nil, err
	}
	if err := container.Snapshot(ctx); err != nil {
		p.Terminate()
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return p, nil
}

// setTestcontainersDefaults makes testcontainers work without a registry:
// the reaper image cannot be pulled, so containers are removed by Terminate,
// and inside a container the Docker host is reached on localhost.
func setTestcontainersDefaults() {
	if _, ok := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !ok {
		os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if _, err := os.Stat("/.dockerenv"); err == nil {
		if _, ok := os.LookupEnv("TESTCONTAINERS_HOST_OVERRIDE"); !ok {
			os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "localhost")
		}
	}
}

// Reset restores the database to the freshly migrated snapshot. Every
// connection to it must be closed first.
func (p *Postgres) Reset(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.container.Restore(ctx); err != nil {
		tb.Fatalf("restore database: %v", err)
	}
}

// Terminate removes the container.
func (p *Postgres) Terminate() {
	if err := testcontainers.TerminateContainer(p.container); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: terminate container:", err)
	}
}

// Run is a TestMain body: it starts PostgreSQL into *pg, runs the tests and
// removes the container.
func Run(m *testing.M, pg **Postgres) int {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	p, err := Start(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	defer p.Terminate()
	*pg = p
	return m.Run()
}

// Pause freezes the database's processes (docker pause): connections stay
// open and nothing answers, as with a stalled server.
func (p *Postgres) Pause(tb testing.TB) { pause(tb, p.container) }

// Stop stops the container as `docker stop` does: PostgreSQL shuts down
// fast, ending every session and rolling back what was not committed.
func (p *Postgres) Stop(tb testing.TB) {
	tb.Helper()
	timeout := 30 * time.Second
	if err := p.container.Stop(context.Background(), &timeout); err != nil {
		tb.Fatalf("stop the database: %v", err)
	}
}

// Resume starts a stopped container again and waits until the database
// takes connections; with StartStoppable its URL is unchanged.
func (p *Postgres) Resume(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.container.Start(ctx); err != nil {
		tb.Fatalf("start the database again: %v", err)
	}
	for {
		conn, err := pgx.Connect(ctx, p.URL)
		if err == nil {
			conn.Close(ctx)
			return
		}
		if ctx.Err() != nil {
			tb.Fatalf("the database takes no connections after its restart: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Unpause lets a paused database run again.
func (p *Postgres) Unpause(tb testing.TB) { docker(tb, "unpause", p.container) }

// OpenDB restores the database to its freshly migrated snapshot and returns
// a store on it, closed when the test ends.
func (p *Postgres) OpenDB(tb testing.TB, opts ...db.Option) *db.DB {
	tb.Helper()
	p.Reset(tb)
	store, err := db.Open(context.Background(), p.URL, opts...)
	if err != nil {
		tb.Fatalf("open the test database: %v", err)
	}
	tb.Cleanup(store.Close)
	return store
}

// Crash kills one of the database's server processes with SIGKILL, which
// makes PostgreSQL end every session and recover from its write-ahead log,
// as after a crash: every connection breaks, committed data stays.
func (p *Postgres) Crash(tb testing.TB) {
	tb.Helper()
	// After an earlier crash the server takes a moment to take connections.
	var (
		conn *pgx.Conn
		err  error
	)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if conn, err = pgx.Connect(context.Background(), p.URL); err == nil {
			break
		}
		if time.Now().After(deadline) {
			tb.Fatalf("connect: %v", err)
		}
	}
	var pid int
	err = conn.QueryRow(context.Background(), `SELECT pg_backend_pid()`).Scan(&pid)
	if err != nil {
		tb.Fatalf("find a server process: %v", err)
	}
	out, err := exec.Command("docker", "exec", p.container.GetContainerID(), "kill", "-KILL", fmt.Sprint(pid)).CombinedOutput()
	if err != nil {
		tb.Fatalf("kill server process %d: %v: %s", pid, err, out)
	}
	conn.Close(context.Background())
}
