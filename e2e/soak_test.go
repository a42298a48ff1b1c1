package e2e_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// The soak's shape: a SEASON board whose one-minute seasons close two
// seconds after their end and of which the newest closed one is kept,
// main's open month beside it, writers and readers at a steady pace.
const (
	soakBoard       = "soak"
	soakSeason      = time.Minute
	soakCloseGrace  = 2 // seconds
	soakRetain      = 1
	soakPlayers     = 2000
	soakWriters     = 4
	soakBatch       = 10
	soakCallEvery   = 200 * time.Millisecond // per writer: 4 × 5 calls/s × 10 events = 200 events/s
	soakReaders     = 2
	soakReadEvery   = 100 * time.Millisecond // per reader: 20 reads/s
	soakRetryFor    = 45 * time.Second       // a call is sent again with the same event ids until answered, this long
	soakSampleEvery = 2 * time.Second
	soakSeasonsHead = 3 // seasons created ahead of the current one
)

// soakDuration is how long the soak runs: LEADERBOARD_SOAK_DURATION (`make
// soak` sets 30m), 3 minutes by default, in whole minutes.
func soakDuration(t *testing.T) time.Duration {
	t.Helper()
	d := 3 * time.Minute
	if v := os.Getenv("LEADERBOARD_SOAK_DURATION"); v != "" {
		var err error
		if d, err = time.ParseDuration(v); err != nil || d < 3*time.Minute || d%time.Minute != 0 {
			t.Fatalf("LEADERBOARD_SOAK_DURATION=%q: want whole minutes, at least 3m", v)
		}
	}
	return d
}

// Two real processes of the program run on one database for the soak's
// duration under steady writes and reads, with one-minute seasons closing
// every minute, the database restarted at 40 % and one instance at 60 %. Each
// minute the test records every process's memory, goroutines and database
// connections and the database's relations and rows. At the end: every
// acknowledged event is stored once and every total is the sum of the
// acknowledged events; every season that ended was closed once, with the
// digest of its scores, and its message delivered once; each process's live
// heap and goroutines (their floors over a minute) in the last third of its
// minutes are within 10 % of the first third's (after a warm-up minute), and
// the relations did not grow with the closed seasons.
func TestSoak_TwoInstancesStayFlatThroughSeasonClosesAndRestarts(t *testing.T) {
	duration := soakDuration(t)
	database := pgtest.StartStoppable(t)
	receiver := newWebhookReceiver(t, 0)
	logDir := t.TempDir()
	instances := []*soakInstance{
		startSoakInstance(t, "a", database.URL, receiver.URL, logDir),
		startSoakInstance(t, "b", database.URL, receiver.URL, logDir),
	}
	seasons := soakSeasons{start: time.Now().UTC().Truncate(time.Second)}
	seasons.createBoard(t, instances[0].srv)
	seasons.ensure(t, instances, seasons.start)

	load := newSoakLoad(instances, seasons)
	run := &soakRun{t: t, database: database, instances: instances, seasons: seasons, load: load, duration: duration}
	run.measureStart()
	run.start = time.Now()
	ctx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range soakWriters {
		wg.Go(func() { load.write(ctx, w) })
	}
	for r := range soakReaders {
		wg.Go(func() { load.read(ctx, r) })
	}
	stop := func() {
		stopLoad()
		wg.Wait()
	}
	t.Cleanup(stop) // before the instances stop, should the test fail early
	run.loop()
	stop()

	run.finish(receiver)
	run.report()
}

// soakInstance is one process of the program, started from the test binary
// (see serveAsChild) on a port of its own that it keeps across a restart.
type soakInstance struct {
	name   string
	env    []string
	logs   *os.File
	srv    *server
	cmd    *exec.Cmd
	exited chan struct{}
}

// startSoakInstance starts a process named name on databaseURL, its settlement
// messages going to webhook and its log to logDir. It is stopped when the
// test ends.
func startSoakInstance(t *testing.T, name, databaseURL, webhook, logDir string) *soakInstance {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := listener.Addr().String()
	listener.Close()
	logs, err := os.Create(filepath.Join(logDir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	i := &soakInstance{name: name, logs: logs,
		srv: &server{url: "http://" + addr, client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}}}
	// application_name tells the instances' sessions apart in
	// pg_stat_activity.
	i.env = append(os.Environ(), childEnv+"=serve", "DATABASE_URL="+databaseURL+"&application_name=soak-"+name,
		"LISTEN_ADDR="+addr, "LEADERBOARD_TIMEZONE=UTC",
		"LEADERBOARD_ADMIN_TOKEN="+adminToken, "LEADERBOARD_SERVER_TOKEN="+serverToken, "LEADERBOARD_JWT_SECRET="+jwtSecret,
		"LEADERBOARD_RATE_LIMIT=0", "LEADERBOARD_SERVER_RATE_LIMIT=0", "LEADERBOARD_SCHEDULER_INTERVAL=1s",
		"LEADERBOARD_WEBHOOK_URL="+webhook, "LEADERBOARD_WEBHOOK_SECRET="+webhookSecret, "LEADERBOARD_WEBHOOK_BACKOFF=200ms")
	t.Cleanup(func() {
		i.stop(t)
		logs.Close()
	})
	i.start(t)
	return i
}

// start runs the process and waits until /readyz answers 200.
func (i *soakInstance) start(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = i.env
	cmd.Stdout, cmd.Stderr = i.logs, i.logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start instance %s: %v", i.name, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	i.cmd, i.exited = cmd, exited
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("instance %s exited at its start: %s", i.name, i.logTail())
		default:
		}
		if status, _, err := i.srv.getStatus("/readyz"); err == nil && status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance %s is not ready a minute after its start: %s", i.name, i.logTail())
		}
	}
}

// stop sends SIGTERM and waits for the process to end, killing it after 30 s.
func (i *soakInstance) stop(t *testing.T) {
	if i.cmd == nil {
		return
	}
	i.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-i.exited:
	case <-time.After(30 * time.Second):
		t.Errorf("instance %s still runs 30 s after SIGTERM: killed", i.name)
		i.cmd.Process.Kill()
		<-i.exited
	}
	i.cmd = nil
}

// pid is the running process's id, 0 when it is not running.
func (i *soakInstance) pid() int {
	if i.cmd == nil {
		return 0
	}
	return i.cmd.Process.Pid
}

// logTail returns the last lines of the instance's log.
func (i *soakInstance) logTail() string {
	raw, _ := os.ReadFile(i.logs.Name())
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// logWarnings counts the log's WARN and ERROR lines by level and message.
func (i *soakInstance) logWarnings() map[string]int {
	raw, _ := os.ReadFile(i.logs.Name())
	out := map[string]int{}
	for _, line := range strings.Split(string(raw), "\n") {
		_, level, _ := strings.Cut(line, "level=")
		level, _, _ = strings.Cut(level, " ")
		if level != "WARN" && level != "ERROR" {
			continue
		}
		_, msg, _ := strings.Cut(line, "msg=")
		if strings.HasPrefix(msg, `"`) {
			msg, _, _ = strings.Cut(msg[1:], `"`)
		} else {
			msg, _, _ = strings.Cut(msg, " ")
		}
		out[level+" "+msg]++
	}
	return out
}

// getStatus fetches path and returns the status and body, or the error.
func (s *server) getStatus(path string) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+path, nil)
	if err != nil {
		return 0, "", err
	}
	return s.send(req)
}

// soakSeasons are the one-minute seasons of the soak's board: season i is
// [start + i min, start + (i+1) min), its key "s0000" + i.
type soakSeasons struct{ start time.Time }

func (s soakSeasons) index(at time.Time) int { return int(at.Sub(s.start) / soakSeason) }

func (s soakSeasons) key(i int) string { return fmt.Sprintf("s%04d", i) }

func (s soakSeasons) startsAt(i int) time.Time { return s.start.Add(time.Duration(i) * soakSeason) }

// closesAt is when season i stops taking events and closes.
func (s soakSeasons) closesAt(i int) time.Time {
	return s.startsAt(i + 1).Add(soakCloseGrace * time.Second)
}

// createBoard creates the soak's SEASON board.
func (s soakSeasons) createBoard(t *testing.T, srv *server) {
	t.Helper()
	srv.mustDo(t, adminToken, `mutation($id: ID!, $start: Time!, $grace: Int!, $retain: Int!) {
		createBoard(id: $id, name: "Soak seasons", reset: SEASON, maxScore: 1000000000, closeGrace: $grace,
			startsAt: $start, retainPeriods: $retain) { created } }`,
		map[string]any{"id": soakBoard, "start": s.start, "grace": soakCloseGrace, "retain": soakRetain}, nil)
}

// ensure creates, through whichever instance answers, the seasons from the
// one holding now to soakSeasonsHead after it (createSeason of an existing
// season answers CONFLICT, which is ignored).
func (s soakSeasons) ensure(t *testing.T, instances []*soakInstance, now time.Time) {
	t.Helper()
	const create = `mutation($b: ID!, $k: String!, $start: Time!, $end: Time!) {
		createSeason(board: $b, key: $k, startsAt: $start, endsAt: $end) { key } }`
	for i := s.index(now); i <= s.index(now)+soakSeasonsHead; i++ {
		vars := map[string]any{"b": soakBoard, "k": s.key(i), "start": s.startsAt(i), "end": s.startsAt(i + 1)}
		body := mustJSON(t, map[string]any{"query": create, "variables": vars})
		header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + adminToken}}
		var errs []string
		for _, inst := range instances {
			r, err := inst.srv.tryPost(t.Context(), header, body)
			if err == nil && (len(r.Errors) == 0 || r.Codes()[0] == "CONFLICT") {
				errs = nil
				break
			}
			if err == nil {
				err = fmt.Errorf("status %d: %s", r.Status, r.Body)
			}
			errs = append(errs, err.Error())
		}
		if errs != nil {
			t.Errorf("create season %s: %v", s.key(i), errs)
		}
	}
}
