package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// outcome is what one call under a fault got back.
type outcome struct {
	status     int
	codes      []string
	applied    []string // event ids acknowledged APPLIED
	duplicates int      // events answered DUPLICATE
	body       string
	took       time.Duration
	err        error
}

// call sends one operation and records its outcome.
func (s *server) call(ctx context.Context, token, query string, vars map[string]any) outcome {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	header := http.Header{"Content-Type": {"application/json"}}
	if token != "" {
		header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	r, err := s.tryPost(ctx, header, body)
	o := outcome{took: time.Since(start), err: err}
	if err != nil {
		return o
	}
	o.status, o.codes, o.body = r.Status, r.Codes(), r.Body
	var data struct {
		SubmitScores []scoreResult `json:"submitScores"`
	}
	if json.Unmarshal(r.Data, &data) == nil {
		for _, res := range data.SubmitScores {
			switch res.Status {
			case "APPLIED":
				o.applied = append(o.applied, res.EventID)
			case "DUPLICATE":
				o.duplicates++
			}
		}
	}
	return o
}

// With the database frozen, every call answers UNAVAILABLE with 503 within
// its deadline, and once it runs again the service recovers by itself;
// nothing acknowledged is lost, nothing refused was written.
func TestFault_PausedDatabaseAnswersUnavailableAndRecovers(t *testing.T) {
	s := startServer(t, func(c *app.Config) { c.RequestTimeout = time.Second })
	c := currentMonth(t)
	s.submit(t, ev("seed", "p0", "SET", 1, c.at(0)))
	submit := `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status } }`
	read := `query($m: Month!) { standing(month: $m, playerId: "p0") { rank } month(month: $m) { participants } }`

	pg.Pause(t)
	paused := true
	defer func() {
		if paused {
			pg.Unpause(t)
		}
	}()
	var (
		mu       sync.Mutex
		outcomes []outcome
		wg       sync.WaitGroup
	)
	stop := time.Now().Add(6 * time.Second)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; time.Now().Before(stop); i++ {
				var o outcome
				if w%2 == 0 {
					id := fmt.Sprintf("w%d-%d", w, i)
					o = s.call(context.Background(), serverToken, submit, map[string]any{"e": []any{
						map[string]any{"eventId": id, "playerId": id, "mode": "SET", "value": 5}}})
				} else {
					o = s.call(context.Background(), "", read, map[string]any{"m": c.month})
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if status, _ := s.get(t, "/readyz"); status != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database frozen: %d", status)
	}
	pg.Unpause(t)
	paused = false

	acked := map[string]bool{}
	for _, o := range outcomes {
		if o.err != nil || o.status != http.StatusServiceUnavailable || !allUnavailable(o.codes) {
			t.Errorf("under the frozen database: status %d codes %v err %v", o.status, o.codes, o.err)
		}
		if o.took > 3*time.Second {
			t.Errorf("a call took %s with a 1 s deadline", o.took)
		}
		for _, id := range o.applied {
			acked[id] = true
		}
	}
	if len(outcomes) < 8 {
		t.Errorf("only %d calls in 6 s", len(outcomes))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		o := s.call(context.Background(), "", read, map[string]any{"m": c.month})
		if o.err == nil && o.status == http.StatusOK && len(o.codes) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery 30 s after the database came back: %+v", o)
		}
		time.Sleep(100 * time.Millisecond)
	}
	slowest := time.Duration(0)
	for _, o := range outcomes {
		slowest = max(slowest, o.took)
	}
	t.Logf("database frozen 6 s: %d calls, all answered UNAVAILABLE/503, slowest %s; %d events acknowledged under the fault",
		len(outcomes), slowest, len(acked))
	if m := s.month(t, c.month); m.Participants != 1+len(acked) {
		t.Errorf("%d participants, %d events acknowledged under the fault (+1 seed)", m.Participants, len(acked))
	}
}

// A stop while requests wait on a lock is bounded: after the drain time the
// waiting requests are cancelled and answered UNAVAILABLE (no reply lost),
// and none of them wrote anything.
func TestFault_ShutdownUnderAHeldLockIsBoundedAndAnswers(t *testing.T) {
	pg.Reset(t)
	s, m := startInstance(t, func(c *app.Config) {
		c.RequestTimeout, c.LockTimeout, c.ShutdownTimeout = time.Minute, time.Minute, 500*time.Millisecond
	})
	c := currentMonth(t)
	s.submit(t, ev("seed", "p0", "SET", 1, c.at(0)))
	conn := sqlConn(t)
	tx, err := conn.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(context.Background(), `LOCK TABLE players IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	submit := `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status } }`
	results := make(chan outcome, 4)
	for i := range 4 {
		go func() {
			id := fmt.Sprint("held-", i)
			results <- s.call(context.Background(), serverToken, submit, map[string]any{"e": []any{
				map[string]any{"eventId": id, "playerId": id, "mode": "SET", "value": 5}}})
		}()
	}
	time.Sleep(500 * time.Millisecond) // the calls are waiting on the lock
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	took := time.Since(start)
	if took > 5*time.Second {
		t.Errorf("the stop took %s", took)
	}
	t.Logf("stop with 4 calls waiting on a held lock took %s", took)
	for range 4 {
		o := <-results
		if o.err != nil || len(o.codes) != 1 || o.codes[0] != "UNAVAILABLE" || len(o.applied) > 0 {
			t.Errorf("a call cut by the stop: status %d codes %v applied %v err %v", o.status, o.codes, o.applied, o.err)
		}
	}
	tx.Rollback(context.Background())
	var events int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM board_score_events WHERE board_id = 'main' AND event_id LIKE 'held-%'`).Scan(&events); err != nil || events != 0 {
		t.Errorf("%d events of cancelled calls were written, %v", events, err)
	}
}

// allUnavailable reports whether there are codes and all are UNAVAILABLE.
func allUnavailable(codes []string) bool {
	for _, c := range codes {
		if c != "UNAVAILABLE" {
			return false
		}
	}
	return len(codes) > 0
}

// The database crashes twice under a stream of submissions: every event a
// call acknowledged is stored once, and a call that failed, sent again with
// the same event ids until it is answered, applies each of its events once.
func TestFault_DatabaseCrashUnderWritesLosesAndDoublesNothing(t *testing.T) {
	s := startServer(t, func(c *app.Config) { c.RequestTimeout = 3 * time.Second })
	writeThroughFaults(t, s, "2 crashes", func() {
		pg.Crash(t)
		time.Sleep(time.Second)
		pg.Crash(t)
	})
}

// The database's container is stopped and started again under a stream of
// submissions (docker stop: a fast shutdown, then a cold start): as with a
// crash, nothing acknowledged is lost and nothing sent again is doubled.
func TestFault_DatabaseRestartUnderWritesLosesAndDoublesNothing(t *testing.T) {
	shared := pg
	pg = pgtest.StartStoppable(t)
	t.Cleanup(func() { pg = shared })
	s, _ := startInstance(t, func(c *app.Config) { c.RequestTimeout = 3 * time.Second })
	writeThroughFaults(t, s, "1 restart", func() {
		pg.Stop(t)
		pg.Resume(t)
	})
}

// writeThroughFaults has four writers submit batches to s for 3 s, each call
// sent again with the same event ids until it is answered, while fault runs
// half a second in; then it checks every player's total against the calls
// answered.
func writeThroughFaults(t *testing.T, s *server, faults string, fault func()) {
	w := submitThroughFault(t, s, 4, 3*time.Second, fault)
	t.Logf("%d calls of %d events answered, %d failed attempts (UNAVAILABLE) sent again, %s", w.answered, perWriterCall, w.failures, faults)
	if w.failures == 0 {
		t.Errorf("no call was disturbed by the %s", faults)
	}
	checkTotals(t, s, w.calls)
}

// perWriterCall is how many events each call of submitThroughFault carries.
const perWriterCall = 20

// writes is what submitThroughFault's writers got answered.
type writes struct {
	calls              []int // calls each writer got answered
	answered, failures int   // calls answered; attempts answered UNAVAILABLE
	// answers holds when each answered call's last attempt was sent and
	// answered, in no order.
	answers []answerTimes
}

// answerTimes is when an attempt was sent and when it was answered.
type answerTimes struct{ sent, answered time.Time }

// submitThroughFault has writers submit batches of perWriterCall events to
// s for the given time, each call sent again with the same event ids until
// it is answered, while fault runs half a second in. Event e of a writer's
// call adds 1 to the writer's player e.
func submitThroughFault(t *testing.T, s *server, writers int, duration time.Duration, fault func()) writes {
	submit := `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status } }`
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		w  = writes{calls: make([]int, writers)}
	)
	stop := time.Now().Add(duration)
	for writer := range writers {
		wg.Go(func() {
			for call := 0; time.Now().Before(stop); call++ {
				events := make([]any, perWriterCall)
				for i := range events {
					events[i] = map[string]any{"eventId": fmt.Sprintf("w%d-c%d-e%d", writer, call, i),
						"playerId": fmt.Sprintf("w%d-p%d", writer, i), "mode": "ADD", "value": 1}
				}
				for attempt := 0; ; attempt++ {
					o := s.call(context.Background(), serverToken, submit, map[string]any{"e": events})
					if o.err == nil && len(o.codes) == 0 {
						mu.Lock()
						w.answered++
						w.calls[writer]++
						w.answers = append(w.answers, answerTimes{sent: time.Now().Add(-o.took), answered: time.Now()})
						mu.Unlock()
						if len(o.applied)+o.duplicates != perWriterCall {
							t.Errorf("writer %d call %d (attempt %d): %d APPLIED, %d DUPLICATE of %d events: %s",
								writer, call, attempt, len(o.applied), o.duplicates, perWriterCall, o.body)
						}
						break
					}
					mu.Lock()
					w.failures++
					mu.Unlock()
					if o.err != nil || !allUnavailable(o.codes) {
						t.Errorf("writer %d call %d: status %d codes %v err %v", writer, call, o.status, o.codes, o.err)
						return
					}
					if attempt > 400 { // 20 s
						t.Errorf("writer %d call %d never got through", writer, call)
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	fault()
	wg.Wait()
	return w
}

// checkTotals checks, through s, that each player of submitThroughFault's
// writers has as many points as its writer got calls answered.
func checkTotals(t *testing.T, s *server, calls []int) {
	t.Helper()
	c := currentMonth(t)
	for w := range calls {
		for i := range perWriterCall {
			player := fmt.Sprintf("w%d-p%d", w, i)
			var st *standing
			for range 100 { // the first reads after a fault may find broken connections
				r := s.do(t, "", `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { score } }`,
					map[string]any{"m": c.month, "p": player})
				var data struct{ Standing *standing }
				if len(r.Errors) == 0 && json.Unmarshal(r.Data, &data) == nil {
					st = data.Standing
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if st == nil || st.Score != calls[w] {
				score := -1
				if st != nil {
					score = st.Score
				}
				t.Errorf("%s: total %d after %d answered calls of +1", player, score, calls[w])
			}
		}
	}
}
