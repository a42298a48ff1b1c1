package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// lockedBuffer is a log destination safe for the program's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// freeAddr returns a local address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// get answers the status and body of GET url, or 0 when nothing answers.
func get(url string) (int, string) {
	res, err := http.Get(url)
	if err != nil {
		return 0, ""
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// serveOn starts Main on the database at databaseURL in the background and
// returns it with the channel its Run's error comes on.
func serveOn(t *testing.T, databaseURL string, logs io.Writer, wait time.Duration) (*Main, string, chan error) {
	t.Helper()
	addr := freeAddr(t)
	m := &Main{Config: Config{ListenAddr: addr, DatabaseURL: databaseURL, Timezone: "UTC", DatabaseWait: wait,
		SchedulerInterval: time.Second, CloseGrace: time.Hour, RequestTimeout: 5 * time.Second, MaxConns: 4},
		Logger: slog.New(slog.NewTextHandler(logs, nil))}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	ran := make(chan error, 1)
	go func() { ran <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		m.Close()
	})
	return m, "http://" + addr, ran
}

// serve, started while its PostgreSQL is down, does not exit: it stays alive
// (/healthz 200) and not ready (/readyz 503, /graphql UNAVAILABLE), trying
// again with a logged backoff, and serves once PostgreSQL is up. A refused
// password is not waited for; LEADERBOARD_DATABASE_WAIT bounds the wait.
func TestServe_WaitsForTheDatabase(t *testing.T) {
	pg := pgtest.StartStoppable(t)

	// What no wait mends fails the start at once, with no standby.
	wrong, err := url.Parse(pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	wrong.User = url.UserPassword(wrong.User.Username(), "not-the-password")
	started := time.Now()
	_, _, ran := serveOn(t, wrong.String(), io.Discard, 0)
	if err := <-ran; err == nil || time.Since(started) > 10*time.Second {
		t.Fatalf("a refused password: %v after %s, want an error at once", err, time.Since(started))
	}

	pg.Stop(t)
	// A bounded wait ends with an error that names its setting.
	started = time.Now()
	_, _, ran = serveOn(t, pg.URL, io.Discard, time.Second)
	if err := <-ran; err == nil || !strings.Contains(err.Error(), "LEADERBOARD_DATABASE_WAIT=1s") || time.Since(started) > 8*time.Second {
		t.Fatalf("a 1 s wait ended with %v after %s", err, time.Since(started))
	}

	var logs lockedBuffer
	_, base, ran := serveOn(t, pg.URL, &logs, 0)
	deadline := time.Now().Add(15 * time.Second)
	for status, _ := get(base + "/healthz"); status != http.StatusOK; status, _ = get(base + "/healthz") {
		if time.Now().After(deadline) {
			t.Fatalf("/healthz does not answer while the database is down; log:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if status, body := get(base + "/readyz"); status != http.StatusServiceUnavailable {
		t.Errorf("/readyz while the database is down: %d %s", status, body)
	}
	res, err := http.Post(base+"/graphql", "application/json", strings.NewReader(`{"query":"{ months { month } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"code":"UNAVAILABLE"`) {
		t.Errorf("/graphql while the database is down: %d %s", res.StatusCode, body)
	}
	time.Sleep(2 * time.Second)
	select {
	case err := <-ran:
		t.Fatalf("serve ended while the database is down: %v", err)
	default:
	}
	if n := strings.Count(logs.String(), "waiting for the database"); n < 2 {
		t.Errorf("%d tries logged in 2 s, want each logged:\n%s", n, logs.String())
	}

	pg.Resume(t)
	select {
	case err := <-ran:
		if err != nil {
			t.Fatalf("serve after the database came up: %v\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve not up 30 s after the database; log:\n%s", logs.String())
	}
	if status, body := get(base + "/readyz"); status != http.StatusOK {
		t.Errorf("/readyz once the database is up: %d %s", status, body)
	}
	if !strings.Contains(logs.String(), "the database answers") {
		t.Errorf("the log does not say the database answers:\n%s", logs.String())
	}
}
