package e2e_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/moby/moby/api/types/container"
	"github.com/testcontainers/testcontainers-go"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
	"github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gamebackend/leaderboard/app"
)

// pgafMonitorConf is the monitor's failover timings, as in compose.yaml's
// profile "failover".
const pgafMonitorConf = `pgautofailover.health_check_period = 2s
pgautofailover.health_check_timeout = 2s
pgautofailover.health_check_retry_delay = 1s
pgautofailover.node_considered_unhealthy_timeout = 6s
pgautofailover.primary_demote_timeout = 10s
`

// pgafNodeHBA is the nodes' extra pg_hba.conf rules, as in compose.yaml.
const pgafNodeHBA = `host replication pgautofailover_replicator samenet trust
host all pgautofailover_replicator samenet trust
host all pgautofailover_monitor samenet trust
`

// pgafImage is the pg_auto_failover image that `make pgaf-image` builds.
func pgafImage() string {
	if image := os.Getenv("LEADERBOARD_PGAF_IMAGE"); image != "" {
		return image
	}
	return "localhost/leaderboard-pg-auto-failover:15"
}

// pgafCluster is a pg_auto_failover monitor and two PostgreSQL nodes, each
// run by its keeper, on a Docker network of their own.
type pgafCluster struct {
	monitor testcontainers.Container
	nodes   map[string]testcontainers.Container
	// url names both nodes with target_session_attrs=read-write.
	url string
}

// startPGAF starts the monitor, then node1, which becomes the primary, then
// node2, which pg_auto_failover clones from node1 as its synchronous
// standby; it returns once the monitor reports node1 primary and node2
// secondary. Everything is removed when the test ends.
func startPGAF(t *testing.T) *pgafCluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	nw, err := network.New(ctx)
	if err != nil {
		t.Fatalf("create a network: %v", err)
	}
	t.Cleanup(func() { nw.Remove(context.Background()) })

	c := &pgafCluster{nodes: map[string]testcontainers.Container{}}
	c.monitor = runPGAF(ctx, t, nw, "monitor",
		testcontainers.WithCmd("create", "monitor", "--hostname", "monitor", "--auth", "trust", "--no-ssl", "--run"),
		testcontainers.WithEnv(map[string]string{"PGAF_EXTRA_CONF": pgafMonitorConf}),
		testcontainers.WithWaitStrategy(wait.ForLog("Contacting the monitor to LISTEN to its events").
			WithStartupTimeout(2*time.Minute)))

	c.nodes["node1"] = runPGAFNode(ctx, t, nw, "node1")
	c.waitForStates(ctx, t, map[string]string{"node1": "single"})
	c.nodes["node2"] = runPGAFNode(ctx, t, nw, "node2")
	c.waitForStates(ctx, t, map[string]string{"node1": "primary", "node2": "secondary"})

	hosts := make([]string, 0, 2)
	for _, name := range []string{"node1", "node2"} {
		endpoint, err := c.nodes[name].PortEndpoint(ctx, "5432/tcp", "")
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, endpoint)
	}
	c.url = "postgres://leaderboard@" + strings.Join(hosts, ",") +
		"/leaderboard?sslmode=disable&target_session_attrs=read-write&connect_timeout=5"
	return c
}

// runPGAFNode starts a PostgreSQL node registered with the monitor, as in
// compose.yaml.
func runPGAFNode(ctx context.Context, t *testing.T, nw *testcontainers.DockerNetwork, name string) testcontainers.Container {
	t.Helper()
	return runPGAF(ctx, t, nw, name,
		testcontainers.WithCmd("create", "postgres", "--name", name, "--hostname", name,
			"--monitor", "postgres://autoctl_node@monitor:5432/pg_auto_failover?sslmode=disable",
			"--username", "leaderboard", "--dbname", "leaderboard",
			"--auth", "trust", "--no-ssl", "--pg-hba-lan", "--replication-quorum", "true", "--run"),
		testcontainers.WithEnv(map[string]string{"PGAF_EXTRA_HBA": pgafNodeHBA}),
		testcontainers.WithExposedPorts("5432/tcp"))
}

// runPGAF runs the pg_auto_failover image as host name on the network.
func runPGAF(ctx context.Context, t *testing.T, nw *testcontainers.DockerNetwork, name string, options ...testcontainers.ContainerCustomizer) testcontainers.Container {
	t.Helper()
	options = append(options,
		network.WithNetwork([]string{name}, nw),
		// pg_autoctl checks that its --hostname resolves to one of its
		// own addresses.
		testcontainers.WithConfigModifier(func(config *container.Config) { config.Hostname = name }))
	ctr, err := testcontainers.Run(ctx, pgafImage(), options...)
	testcontainers.CleanupContainer(t, ctr)
	if err != nil {
		t.Fatalf("start %s (image %s: make pgaf-image builds it): %v", name, pgafImage(), err)
	}
	return ctr
}

// sql runs a statement with psql inside a container of the cluster and
// returns its unaligned output.
func (c *pgafCluster) sql(ctx context.Context, t *testing.T, name, database, statement string) string {
	t.Helper()
	out, err := c.trySQL(ctx, name, database, statement)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (c *pgafCluster) trySQL(ctx context.Context, name, database, statement string) (string, error) {
	ctr := c.monitor
	if name != "monitor" {
		ctr = c.nodes[name]
	}
	code, reader, err := ctr.Exec(ctx, []string{"psql", "-X", "-q", "-At", "-d", database, "-c", statement}, tcexec.Multiplexed())
	if err != nil {
		return "", fmt.Errorf("psql on %s: %w", name, err)
	}
	out, err := io.ReadAll(reader)
	if err != nil {
		return "", err
	}
	if code != 0 {
		return "", fmt.Errorf("psql on %s: exit %d: %s", name, code, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// states returns each node's reported and assigned state as the monitor
// has them, such as "primary/primary".
func (c *pgafCluster) states(ctx context.Context) (map[string]string, error) {
	out, err := c.trySQL(ctx, "monitor", "pg_auto_failover",
		`SELECT nodename || ' ' || reportedstate || '/' || goalstate FROM pgautofailover.node ORDER BY nodeid`)
	if err != nil {
		return nil, err
	}
	states := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if name, state, ok := strings.Cut(line, " "); ok {
			states[name] = state
		}
	}
	return states, nil
}

// waitForStates waits until the monitor reports each named node in the given
// state, both reported and assigned.
func (c *pgafCluster) waitForStates(ctx context.Context, t *testing.T, want map[string]string) {
	t.Helper()
	var got map[string]string
	var err error
	for {
		if got, err = c.states(ctx); err == nil && statesReached(got, want) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("nodes not in states %v: the monitor has %v (%v)", want, got, err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func statesReached(got, want map[string]string) bool {
	for name, state := range want {
		if got[name] != state+"/"+state {
			return false
		}
	}
	return true
}

// kill kills a node's container with SIGKILL and returns once it has
// exited, within a minute.
func (c *pgafCluster) kill(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	id := c.nodes[name].GetContainerID()
	for _, verb := range []string{"kill", "wait"} {
		if out, err := exec.CommandContext(ctx, "docker", verb, id).CombinedOutput(); err != nil {
			t.Fatalf("docker %s %s: %v: %s", verb, name, err, out)
		}
	}
}

// failoverWrites is what writers saw across a failover.
type failoverWrites struct {
	mu sync.Mutex
	// applied are the events answered APPLIED.
	applied []string
	// failed counts the calls that got no APPLIED answer.
	failed int
	// firstAfter is when the first call that started after `after` ended
	// APPLIED; zero while none has.
	after, firstAfter time.Time
}

// write sends events one a call until ctx ends, recording the answers.
func (w *failoverWrites) write(ctx context.Context, s *server, writer int) {
	for i := 0; ctx.Err() == nil; i++ {
		event := scoreEvent{EventID: fmt.Sprintf("af-w%d-%d", writer, i), PlayerID: fmt.Sprintf("af-player-%d", writer), Mode: "ADD", Value: 1}
		callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		start := time.Now()
		results, err := s.trySubmit(callCtx, event)
		cancel()
		w.record(start, event.EventID, err == nil && results[0].Status == "APPLIED")
		if err != nil {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

func (w *failoverWrites) record(start time.Time, eventID string, applied bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !applied {
		w.failed++
		return
	}
	w.applied = append(w.applied, eventID)
	if !w.after.IsZero() && start.After(w.after) && w.firstAfter.IsZero() {
		w.firstAfter = time.Now()
	}
}

// markKill starts the clock for the first write after it.
func (w *failoverWrites) markKill() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.after = time.Now()
}

// resumed returns how long after the kill the first write succeeded, and
// whether one has.
func (w *failoverWrites) resumed() (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.firstAfter.Sub(w.after), !w.firstAfter.IsZero()
}

// TestAutoFailover_PgAutoFailoverPromotesTheStandbyAndWritesResume runs the
// service on a pg_auto_failover formation (monitor, primary, synchronous
// standby) as compose.yaml's profile "failover" does, kills the primary's
// container under four writers, and checks that pg_auto_failover promotes
// the standby by itself, that the same program writes again without a
// restart, and that every event answered APPLIED is on the new primary.
func TestAutoFailover_PgAutoFailoverPromotesTheStandbyAndWritesResume(t *testing.T) {
	c := startPGAF(t)
	// The whole failover, with its two minutes to wait for a write.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if got := c.sql(ctx, t, "node1", "leaderboard", "SHOW synchronous_standby_names"); !strings.Contains(got, "pgautofailover_standby_") {
		t.Fatalf("node1's synchronous_standby_names = %q, want node2 named: the standby is not synchronous", got)
	}
	s, _ := startInstance(t, func(cfg *app.Config) { cfg.DatabaseURL = c.url })

	writes := &failoverWrites{}
	writeCtx, stopWriting := context.WithCancel(ctx)
	var writers sync.WaitGroup
	for w := range 4 {
		writers.Go(func() { writes.write(writeCtx, s, w) })
	}
	defer func() { stopWriting(); writers.Wait() }()
	time.Sleep(3 * time.Second)

	c.kill(t, "node1")
	writes.markKill()
	deadline := time.Now().Add(2 * time.Minute)
	took, ok := writes.resumed()
	for ; !ok; took, ok = writes.resumed() {
		if time.Now().After(deadline) {
			states, _ := c.states(ctx)
			t.Fatalf("no write succeeded within 2m of killing the primary; the monitor has %v", states)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
	stopWriting()
	writers.Wait()

	// The monitor may still show node2 on its way (stop_replication to
	// wait_primary) when it already takes writes: its state is waited for.
	for promoted := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		states, err := c.states(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if states["node2"] == "wait_primary/wait_primary" || states["node2"] == "primary/primary" {
			break
		}
		if time.Now().After(promoted) {
			t.Errorf("node2 is %s 30 s after the failover's first write, want the primary (wait_primary while node1 is down)", states["node2"])
			break
		}
	}
	if status, body := s.get(t, "/readyz"); status != http.StatusOK {
		t.Errorf("/readyz after the failover = %d %s, want 200", status, body)
	}
	missing := missingEvents(t, c, writes.applied)
	if missing != 0 {
		t.Errorf("%d of %d events answered APPLIED are not on the promoted standby", missing, len(writes.applied))
	}
	t.Logf("pg_auto_failover: first write %v after the primary was killed; %d events answered APPLIED, %d missing; %d calls failed meanwhile",
		took.Round(100*time.Millisecond), len(writes.applied), missing, writes.failed)
}

// missingEvents counts the events that are not in node2's board_score_events.
func missingEvents(t *testing.T, c *pgafCluster, eventIDs []string) int {
	t.Helper()
	endpoint, err := c.nodes["node2"].PortEndpoint(t.Context(), "5432/tcp", "")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), "postgres://leaderboard@"+endpoint+"/leaderboard?sslmode=disable")
	if err != nil {
		t.Fatalf("connect to node2: %v", err)
	}
	defer conn.Close(context.Background())
	var missing int
	err = conn.QueryRow(t.Context(), `SELECT count(*) FROM unnest($1::text[]) AS a(event_id)
		WHERE NOT EXISTS (SELECT 1 FROM board_score_events e WHERE e.board_id = 'main' AND e.event_id = a.event_id)`, eventIDs).Scan(&missing)
	if err != nil {
		t.Fatalf("look the events up on node2: %v", err)
	}
	return missing
}
