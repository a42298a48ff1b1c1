package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/internal/pgtest"
	httpserver "github.com/gamebackend/leaderboard/server"
)

// logBuffer keeps an instance's log lines for the test to read, and copies
// them to the test's output while the test runs.
type logBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	t     *testing.T
	ended bool // the test ended: goroutines left behind log into buf only
}

// newLogBuffer returns a logBuffer for t.
func newLogBuffer(t *testing.T) *logBuffer {
	b := &logBuffer{t: t}
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.ended = true
	})
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.ended {
		b.t.Output().Write(p)
	}
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// loggedInstance is an instance of the real program whose every log line,
// INFO included, the test reads, and whose stop the test times.
type loggedInstance struct {
	*server
	main *app.Main
	log  *logBuffer
	once sync.Once
}

// startLogged starts one more instance against the test database as it is,
// as startInstance does, logging at INFO into a buffer (with the request ids
// the program's own handler adds). It is stopped when the test ends, unless
// the test stopped it.
func startLogged(t *testing.T, options ...func(*app.Config)) *loggedInstance {
	t.Helper()
	i := &loggedInstance{log: newLogBuffer(t)}
	i.main = &app.Main{
		Config: app.Config{
			ListenAddr: "127.0.0.1:0", DatabaseURL: pg.URL, Timezone: "UTC",
			AdminToken: adminToken, ServerToken: serverToken, JWTSecret: jwtSecret,
			SnapshotPlayers: 1_000_000, CloseGrace: 45 * 24 * time.Hour, SchedulerInterval: 100 * time.Millisecond,
		},
		Logger: slog.New(httpserver.LogHandler(slog.NewTextHandler(i.log, nil))),
	}
	for _, option := range options {
		option(&i.main.Config)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := i.main.Run(ctx); err != nil {
		i.main.Close()
		t.Fatalf("start the program: %v", err)
	}
	i.server = &server{url: i.main.Server.URL(), client: &http.Client{Timeout: 30 * time.Second}}
	t.Cleanup(func() { i.stop(t) })
	return i
}

// stop stops the instance, as a SIGTERM does, and returns how long it took.
func (i *loggedInstance) stop(t *testing.T) time.Duration {
	var took time.Duration
	i.once.Do(func() {
		i.client.CloseIdleConnections()
		start := time.Now()
		if err := i.main.Close(); err != nil {
			t.Errorf("stop the program: %v", err)
		}
		took = time.Since(start)
	})
	return took
}

// freeze freezes the database (docker pause) and returns what thaws it,
// which may be called more than once; it is thawed when the test ends.
func freeze(t *testing.T) (thaw func()) {
	t.Helper()
	pg.Pause(t)
	var once sync.Once
	thaw = func() { once.Do(func() { pg.Unpause(t) }) }
	t.Cleanup(thaw)
	return thaw
}

// stopWithin stops the instance while the database is frozen, and fails
// the test unless the stop ends within bound; past it the database is
// thawed, so that a stop that hangs on it can end.
func (i *loggedInstance) stopWithin(t *testing.T, bound time.Duration, thaw func()) time.Duration {
	t.Helper()
	stopped := make(chan time.Duration, 1)
	go func() { stopped <- i.stop(t) }()
	select {
	case took := <-stopped:
		return took
	case <-time.After(bound):
		thaw()
		t.Fatalf("the stop took %s with the database frozen; it must end within %s", <-stopped, bound)
		return 0
	}
}

// The stop message of a stop that had to leave its jobs behind: none of
// the stops below may need it, the jobs themselves end in time.
const leftBehind = "stopped without waiting for the background jobs"

// A stop while a closed month loads into memory from a frozen database
// ends within the shutdown timeout plus a few seconds: the load, started
// by the announcement of the month's new ranks, is cancelled by the stop
// instead of holding it for as long as the database stays frozen.
func TestStop_BoundedWhileAClosedMonthLoadsFromAFrozenDatabase(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 20000)
	const shutdown = time.Second
	i := startLogged(t, func(c *app.Config) { c.ShutdownTimeout = shutdown })
	if info := i.closeMonth(t, month); info.Status != "CLOSED" {
		t.Fatalf("close: %+v", info)
	}
	i.waitReady(t)

	// The load must still run when the database freezes: a lock on the
	// scores it reads holds its read until then.
	conn := sqlConn(t)
	tx, err := conn.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(context.Background(), `LOCK TABLE board_scores IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	// A new version of the month's ranks announced: the instance reads them
	// afresh, at once.
	if _, err := sqlConn(t).Exec(context.Background(), `SELECT pg_notify('leaderboard_periods', $1)`, "main "+month+" 2"); err != nil {
		t.Fatal(err)
	}
	waitForQuery(t, sqlConn(t), closeReadFragment)

	thaw := freeze(t)
	defer thaw()
	bound := shutdown + 6*time.Second
	took := i.stopWithin(t, bound, thaw)
	t.Logf("stop with the database frozen during a closed month's load: %s (shutdown timeout %s)", took.Round(10*time.Millisecond), shutdown)
	if strings.Contains(i.log.String(), leftBehind) {
		t.Errorf("the stop had to leave its jobs or connections behind")
	}
}

// A stop while requests wait on a frozen database ends within the
// shutdown timeout plus a few seconds: the requests are cancelled at the
// timeout, and closing the pool does not wait the 15 s pgx gives a cancel
// request to the frozen server for each of their connections.
func TestStop_BoundedWithRequestsOnAFrozenDatabase(t *testing.T) {
	pg.Reset(t)
	const shutdown = time.Second
	i := startLogged(t, func(c *app.Config) { c.ShutdownTimeout, c.RequestTimeout = shutdown, time.Minute })
	c := currentMonth(t)
	i.submit(t, ev("e1", "p1", "SET", 10, c.at(0)))

	thaw := freeze(t)
	defer thaw()
	var wg sync.WaitGroup
	for n := range 4 {
		wg.Go(func() {
			i.call(context.Background(), "", `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { rank } }`,
				map[string]any{"m": c.month, "p": fmt.Sprintf("p%d", n)})
		})
	}
	time.Sleep(300 * time.Millisecond) // the reads wait on the frozen database
	bound := shutdown + 2*time.Second + 4*time.Second
	took := i.stopWithin(t, bound, thaw)
	wg.Wait()
	t.Logf("stop with 4 reads waiting on the frozen database: %s (shutdown timeout %s)", took.Round(10*time.Millisecond), shutdown)
	if strings.Contains(i.log.String(), leftBehind) {
		t.Errorf("the stop had to leave its jobs or connections behind")
	}
}

// A close cut off by its database stopping is tried again by the closer's own retry
// within seconds of the database's return, not at the scheduler's next
// look (an hour away here).
func TestStop_CloseCutOffByALostDatabaseResumesWithinSeconds(t *testing.T) {
	shared := pg
	pg = pgtest.StartStoppable(t) // the helpers below use this database
	t.Cleanup(func() { pg = shared })
	month := seedPastMonth(t, 60000)
	i := startLogged(t, func(c *app.Config) {
		c.CloseGrace, c.AutoClose, c.SchedulerInterval = 0, true, time.Hour
	})
	waitForQuery(t, sqlConn(t), closeReadFragment)
	pg.Stop(t)
	pg.Resume(t)
	back := time.Now()
	info := waitForMonth(t, i.server, month, closed)
	took := time.Since(back)
	t.Logf("closed %s after the database was back", took.Round(10*time.Millisecond))
	if info.Participants != 60000 {
		t.Errorf("closed with %d participants", info.Participants)
	}
	if took > 20*time.Second {
		t.Errorf("closed %s after the database was back", took)
	}
	log := i.log.String()
	retry := strings.Index(log, `msg="period closes are tried again soon"`)
	if retry < 0 || !strings.Contains(log[retry:], `msg="period close started" board=main period=`+month+` why=due`) {
		t.Errorf("the close did not resume by the closer's own retry")
	}
}
