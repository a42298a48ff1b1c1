package pgtest

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gamebackend/leaderboard/db"
)

// allowReplication lets the standby connect for replication; the image's
// pg_hba.conf admits ordinary connections only.
const allowReplication = `echo "host replication all all scram-sha-256" >>"$PGDATA/pg_hba.conf"` + "\n"

// standbyName is the standby's application_name, by which the primary's
// synchronous_standby_names names it.
const standbyName = "standby"

// cloneAndFollow is the standby's entrypoint: a base backup of the primary
// that writes the standby's recovery settings (-R), its application_name in
// their primary_conninfo, then the server, which streams the primary's WAL
// from there on.
const cloneAndFollow = `set -e
pg_basebackup --dbname="application_name=` + standbyName + `" --host=primary --username=leaderboard --pgdata="$PGDATA" --write-recovery-conf --wal-method=stream --checkpoint=fast
exec postgres -c jit=off
`

// Pair is a primary and a streaming standby of it.
type Pair struct {
	// PrimaryURL connects to the migrated primary.
	PrimaryURL string
	// StandbyURL connects to the standby, which is read-only and follows the
	// primary until Promote.
	StandbyURL string
	// FailoverURL names both, the primary first, in libpq's multi-host form
	// with target_session_attrs=read-write: it connects to whichever of the
	// two takes writes, spending at most 5 s on each.
	FailoverURL string

	primary, standby testcontainers.Container
}

// PairOption configures StartPair.
type PairOption func(*pairConfig)

type pairConfig struct{ synchronous bool }

// Synchronous makes the primary wait for the standby's flush of each commit
// (synchronous_standby_names names the standby; the service's sessions run
// with synchronous_commit=on): a commit the primary acknowledged is on the
// standby.
func Synchronous() PairOption { return func(c *pairConfig) { c.synchronous = true } }

// StartPair runs a primary and a standby cloned from it with pg_basebackup
// -R, on a Docker network of their own, and migrates the primary. The
// standby is asynchronous unless Synchronous is given. Both are removed when
// the test ends.
func StartPair(tb testing.TB, options ...PairOption) *Pair {
	tb.Helper()
	var cfg pairConfig
	for _, option := range options {
		option(&cfg)
	}
	setTestcontainersDefaults()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nw, err := network.New(ctx)
	if err != nil {
		tb.Fatalf("create a network: %v", err)
	}
	tb.Cleanup(func() { nw.Remove(context.Background()) })

	script := filepath.Join(tb.TempDir(), "allow-replication.sh")
	if err := os.WriteFile(script, []byte(allowReplication), 0o755); err != nil {
		tb.Fatal(err)
	}
	primary, err := postgres.Run(ctx, imageName(),
		postgres.WithDatabase("leaderboard"),
		postgres.WithUsername("leaderboard"),
		postgres.WithPassword("leaderboard"),
		postgres.WithInitScripts(script),
		postgres.BasicWaitStrategies(),
		network.WithNetwork([]string{"primary"}, nw),
		testcontainers.WithCmdArgs("-c", "jit=off"),
	)
	terminateAtEnd(tb, primary)
	if err != nil {
		tb.Fatalf("start the primary: %v", err)
	}
	pair := &Pair{primary: primary}
	if pair.PrimaryURL, err = primary.ConnectionString(ctx, "sslmode=disable"); err != nil {
		tb.Fatal(err)
	}
	if _, _, err := db.Migrate(pair.PrimaryURL, db.MigrateUp); err != nil {
		tb.Fatalf("migrate the primary: %v", err)
	}

	standby, err := testcontainers.Run(ctx, imageName(),
		testcontainers.WithEntrypoint("/bin/sh", "-c", cloneAndFollow),
		testcontainers.WithCmd(),
		testcontainers.WithEnv(map[string]string{"PGPASSWORD": "leaderboard"}),
		testcontainers.WithExposedPorts("5432/tcp"),
		network.WithNetwork([]string{"standby"}, nw),
		testcontainers.WithWaitStrategy(
			wait.ForLog("database system is ready to accept read-only connections"),
			wait.ForListeningPort("5432/tcp")),
	)
	terminateAtEnd(tb, standby)
	if err != nil {
		tb.Fatalf("start the standby: %v", err)
	}
	pair.standby = standby
	primaryAt, err := primary.PortEndpoint(ctx, "5432/tcp", "")
	if err != nil {
		tb.Fatal(err)
	}
	standbyAt, err := standby.PortEndpoint(ctx, "5432/tcp", "")
	if err != nil {
		tb.Fatal(err)
	}
	pair.StandbyURL = "postgres://leaderboard:leaderboard@" + standbyAt + "/leaderboard?sslmode=disable"
	// One address a host, as for servers on machines of their own: localhost
	// would be tried as ::1 and 127.0.0.1, each with its own connect timeout.
	pair.FailoverURL = "postgres://leaderboard:leaderboard@" + ipv4(primaryAt) + "," + ipv4(standbyAt) +
		"/leaderboard?sslmode=disable&target_session_attrs=read-write&connect_timeout=5"
	if cfg.synchronous {
		pair.makeSynchronous(ctx, tb)
	}
	return pair
}

// ipv4 returns endpoint, a host:port, with localhost as 127.0.0.1.
func ipv4(endpoint string) string {
	host, port, err := net.SplitHostPort(endpoint)
	if err != nil || host != "localhost" {
		return endpoint
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// makeSynchronous names the standby in the primary's
// synchronous_standby_names and waits until the primary reports it
// synchronous. It is set once the standby streams: before, every commit of
// the migrations would wait for a standby that does not exist yet.
func (p *Pair) makeSynchronous(ctx context.Context, tb testing.TB) {
	tb.Helper()
	conn, err := pgx.Connect(ctx, p.PrimaryURL)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `ALTER SYSTEM SET synchronous_standby_names = '`+standbyName+`'`); err != nil {
		tb.Fatalf("name the synchronous standby: %v", err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_reload_conf()`); err != nil {
		tb.Fatal(err)
	}
	for {
		var state string
		err := conn.QueryRow(ctx, `SELECT sync_state FROM pg_stat_replication WHERE application_name = $1`, standbyName).Scan(&state)
		if err == nil && state == "sync" {
			return
		}
		if ctx.Err() != nil {
			tb.Fatalf("the standby did not become synchronous: state %q, %v", state, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// KillPrimary kills the primary's container with SIGKILL (docker kill): the
// primary's server dies at once, with whatever it had not sent the standby.
func (p *Pair) KillPrimary(tb testing.TB) {
	tb.Helper()
	docker(tb, "kill", p.primary)
}

// FreezePrimary freezes the primary's processes (docker pause): its
// connections stay open and its port takes new ones, but nothing answers, as
// with a primary whose host hangs or is cut off without a reset. It is let
// go only when the test ends, after which the pair is removed.
func (p *Pair) FreezePrimary(tb testing.TB) {
	tb.Helper()
	pause(tb, p.primary)
	tb.Cleanup(func() { docker(tb, "unpause", p.primary) })
}

// FreezeStandby freezes the standby (docker pause) until ThawStandby: it
// receives no WAL meanwhile, as a standby that falls behind. A synchronous
// primary's commits wait for it; an asynchronous one's do not.
func (p *Pair) FreezeStandby(tb testing.TB) {
	tb.Helper()
	pause(tb, p.standby)
	// A test that ends before ThawStandby must not leave a paused container,
	// which cannot be removed; unpausing a running one only fails.
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), dockerTimeout)
		defer cancel()
		exec.CommandContext(ctx, "docker", "unpause", p.standby.GetContainerID()).Run()
	})
}

// ThawStandby lets a frozen standby run again.
func (p *Pair) ThawStandby(tb testing.TB) { docker(tb, "unpause", p.standby) }

// dockerTimeout bounds one docker command: a daemon that does not answer
// fails the test instead of hanging it.
const dockerTimeout = time.Minute

// docker runs `docker verb` on container c, failing the test when it fails.
func docker(tb testing.TB, verb string, c testcontainers.Container) {
	tb.Helper()
	if out, err := runDocker(verb, c); err != nil {
		tb.Fatalf("docker %s: %v: %s", verb, err, out)
	}
}

// pauseAttempts bounds how often pause asks the runtime to freeze.
const pauseAttempts = 5

// pause freezes container c (docker pause). Under load the runtime may give
// up, thawing the container again, when its processes do not all stop in
// time ("unable to freeze", moby/moby#48205; it failed a CI run once): the
// freeze is asked for again a few times before the test fails.
func pause(tb testing.TB, c testcontainers.Container) {
	tb.Helper()
	var (
		out string
		err error
	)
	for attempt := 1; attempt <= pauseAttempts; attempt++ {
		if out, err = runDocker("pause", c); err == nil {
			return
		}
		if !strings.Contains(out, "unable to freeze") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	tb.Fatalf("docker pause: %v: %s", err, out)
}

// runDocker runs `docker verb` on container c within dockerTimeout and
// returns what it printed.
func runDocker(verb string, c testcontainers.Container) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), dockerTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", verb, c.GetContainerID()).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// Promote makes the standby a primary (pg_promote()) and returns once it
// takes writes. A standby still replaying may cancel the call (a conflict
// with recovery): it is asked again.
func (p *Pair) Promote(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		err := promote(ctx, p.StandbyURL)
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			tb.Fatalf("promote the standby: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func promote(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var recovering bool
	if err := conn.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil || !recovering {
		return err // an earlier call cancelled while it waited may have promoted it
	}
	var promoted bool
	if err := conn.QueryRow(ctx, `SELECT pg_promote(wait => true, wait_seconds => 60)`).Scan(&promoted); err != nil {
		return err
	}
	if !promoted {
		return errors.New("pg_promote() answered false: not promoted within 60 s")
	}
	return nil
}

// terminateAtEnd removes c, if it was created, when the test ends.
func terminateAtEnd(tb testing.TB, c testcontainers.Container) {
	tb.Cleanup(func() {
		if err := testcontainers.TerminateContainer(c); err != nil {
			tb.Logf("remove container: %v", err)
		}
	})
}

// imageName is the PostgreSQL image of the tests.
func imageName() string {
	if image := os.Getenv("LEADERBOARD_PG_IMAGE"); image != "" {
		return image
	}
	return DefaultImage
}
