package pgtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gamebackend/leaderboard/db"
)

// allowReplication lets the standby connect for replication; the image's
// pg_hba.conf admits ordinary connections only.
const allowReplication = `echo "host replication all all scram-sha-256" >>"$PGDATA/pg_hba.conf"` + "\n"

// cloneAndFollow is the standby's entrypoint: a base backup of the primary
// that writes the standby's recovery settings (-R), then the server, which
// streams the primary's WAL from there on.
const cloneAndFollow = `set -e
pg_basebackup --host=primary --username=leaderboard --pgdata="$PGDATA" --write-recovery-conf --wal-method=stream --checkpoint=fast
exec postgres -c jit=off
`

// Pair is a primary and a streaming standby of it.
type Pair struct {
	// PrimaryURL connects to the migrated primary.
	PrimaryURL string
	// StandbyURL connects to the standby, which is read-only and follows the
	// primary.
	StandbyURL string
}

// StartPair runs a primary and a standby cloned from it with pg_basebackup
// -R, on a Docker network of their own, and migrates the primary. Both are
// removed when the test ends.
func StartPair(tb testing.TB) Pair {
	tb.Helper()
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
	var pair Pair
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
	endpoint, err := standby.PortEndpoint(ctx, "5432/tcp", "")
	if err != nil {
		tb.Fatal(err)
	}
	pair.StandbyURL = "postgres://leaderboard:leaderboard@" + endpoint + "/leaderboard?sslmode=disable"
	return pair
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
