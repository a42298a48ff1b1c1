package settlement_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
	"github.com/gamebackend/leaderboard/settlement"
)

var pg *pgtest.Postgres

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, &pg)) }

// hour is an Interval that no test waits for: whatever they see delivered
// was woken by an announcement, an attempt's end or a retry falling due.
const hour = time.Hour

// attempt is a request the receiver got.
type attempt struct {
	id, period string
	seq        int
	at         time.Time
}

// receiver is a webhook that answers each request with answer's status
// (after hold), recording the attempts and the most requests it had at
// once.
type receiver struct {
	*httptest.Server
	mu          sync.Mutex
	attempts    []attempt
	inFlight    int
	maxInFlight int
	connections int
	hold        func() time.Duration
	answer      func(n int) int // n: the attempts so far, this one included
}

func newReceiver(t *testing.T, hold func() time.Duration, answer func(n int) int) *receiver {
	r := &receiver{hold: hold, answer: answer}
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	r.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			r.mu.Lock()
			r.connections++
			r.mu.Unlock()
		}
	}
	r.Start()
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	var body struct {
		Period string
		Seq    int
	}
	json.NewDecoder(req.Body).Decode(&body)
	r.mu.Lock()
	r.attempts = append(r.attempts, attempt{req.Header.Get(settlement.HeaderEventID), body.Period, body.Seq, time.Now()})
	n := len(r.attempts)
	r.inFlight++
	r.maxInFlight = max(r.maxInFlight, r.inFlight)
	r.mu.Unlock()
	time.Sleep(r.hold())
	r.mu.Lock()
	r.inFlight--
	r.mu.Unlock()
	w.WriteHeader(r.answer(n))
}

// waitFor waits up to within for n attempts and returns them.
func (r *receiver) waitFor(t *testing.T, n int, within time.Duration) []attempt {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		r.mu.Lock()
		got := append([]attempt(nil), r.attempts...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d attempts within %s, want %d", len(got), within, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func noHold() time.Duration { return 0 }
func ok(int) int            { return http.StatusNoContent }

// openStore opens a store on the test database as it is, with settlement
// on and its clock late in November 2026.
func openStore(t *testing.T) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), pg.URL, db.WithSettlement(true),
		db.WithClock(func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return store
}

// run runs a deliverer of outbox to hook until the test ends.
func run(t *testing.T, outbox settlement.Outbox, hook string, cfg settlement.Config) {
	cfg.URL, cfg.Secret = hook, []byte("secret")
	d := settlement.New(outbox, cfg, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the deliverer did not stop within 10 s")
		}
	})
}

// recordMessages records, in one transaction, a message of each of periods
// closed periods of board "storm": a period.closed when seq is 0, the
// seq-th period.corrected after. Each body is {"period":…,"seq":…}.
func recordMessages(t *testing.T, periods, seq int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const board = `INSERT INTO boards (id, name, reset, sort_order, min_score, max_score, tiebreak, time_zone,
			close_grace_seconds, starts_at)
		VALUES ('storm', 'storm', 'DAY', 'DESC', 0, 100, 'NONE', 'UTC', 0, '2020-01-01 00:00:00+00') ON CONFLICT DO NOTHING`
	const closed = `INSERT INTO periods (board_id, key, status, starts_at, ends_at, closed_at, participants)
		SELECT 'storm', 'p' || i, 'CLOSED', '2020-01-01 00:00:00+00'::timestamptz + i * interval '1 day',
			'2020-01-02 00:00:00+00'::timestamptz + i * interval '1 day', now(), 0
		FROM generate_series(0, $1 - 1) i
		ON CONFLICT DO NOTHING`
	const messages = `INSERT INTO outbox (id, type, board_id, period_id, body)
		SELECT 'evt_' || p.key || '_' || $1::int, CASE WHEN $1 = 0 THEN 'period.closed' ELSE 'period.corrected' END,
			p.board_id, p.id, json_build_object('period', p.key, 'seq', $1)::text
		FROM periods p WHERE p.board_id = 'storm' AND p.key = ANY (SELECT 'p' || i FROM generate_series(0, $2 - 1) i)`
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		for _, q := range []struct {
			sql  string
			args []any
		}{{board, nil}, {closed, []any{periods}}, {messages, []any{seq, periods}}} {
			if _, err := tx.Exec(ctx, q.sql, q.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("record messages: %v", err)
	}
}

// A month's close wakes the deliverers at once, on the instance that
// closed it and on another, with the outbox's next look an hour away.
func TestRun_DeliversAClosedMonthAtOnce(t *testing.T) {
	for _, where := range []string{"SameInstance", "OtherInstance"} {
		t.Run(where, func(t *testing.T) {
			pg.Reset(t)
			closer := openStore(t)
			deliverer := closer
			if where == "OtherInstance" {
				deliverer = openStore(t)
			}
			hook := newReceiver(t, noHold, ok)
			run(t, deliverer, hook.URL, settlement.Config{Interval: hour})
			// The deliverer's first look has found nothing; it listens.
			time.Sleep(500 * time.Millisecond)
			november, _ := leaderboard.NewMonth(2026, time.November)
			occurred := time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC)
			if _, err := closer.SubmitScores(context.Background(), []leaderboard.ScoreEvent{
				{EventID: "e1", PlayerID: "ann", Mode: leaderboard.ModeSet, Value: 5, OccurredAt: &occurred}}); err != nil {
				t.Fatal(err)
			}
			if _, err := closer.ClosePeriod(context.Background(), leaderboard.MainBoard, november.String()); err != nil {
				t.Fatalf("close: %v", err)
			}
			closed := time.Now()
			got := hook.waitFor(t, 1, 5*time.Second)
			took := got[0].at.Sub(closed)
			t.Logf("delivered %s after the close committed", took.Round(time.Millisecond))
			if took > time.Second {
				t.Errorf("delivered %s after the close, want within a second", took)
			}
		})
	}
}

// A failing message is tried again on the configured backoff, each wait
// between half and all of the base doubling per attempt, not at the
// outbox's next look.
func TestRun_RetriesOnTheConfiguredBackoff(t *testing.T) {
	pg.Reset(t)
	hook := newReceiver(t, noHold, func(n int) int {
		return map[bool]int{true: http.StatusInternalServerError, false: http.StatusOK}[n < 3]
	})
	const base = 400 * time.Millisecond
	run(t, openStore(t), hook.URL, settlement.Config{Interval: hour,
		Backoff: settlement.Backoff{Base: base, Max: time.Second}})
	time.Sleep(300 * time.Millisecond)
	recordMessages(t, 1, 0)
	got := hook.waitFor(t, 3, 10*time.Second)
	// Besides the wait, an attempt's record and the next claim.
	const slack = 250 * time.Millisecond
	for i, ceiling := range []time.Duration{base, 2 * base} {
		gap := got[i+1].at.Sub(got[i].at)
		t.Logf("attempt %d came %s after attempt %d", i+2, gap.Round(time.Millisecond), i+1)
		if gap < ceiling/2 || gap > ceiling+slack {
			t.Errorf("attempt %d came %s after attempt %d, want %s to %s", i+2, gap, i+1, ceiling/2, ceiling)
		}
		if got[i+1].id != got[0].id {
			t.Errorf("attempt %d is of %s, want %s", i+2, got[i+1].id, got[0].id)
		}
	}
	time.Sleep(2 * base)
	if n := len(hook.waitFor(t, 3, 0)); n != 3 {
		t.Errorf("%d attempts of a message delivered at the third", n)
	}
}

// Many periods' messages go out several at once, each period's in order:
// its close, then its corrections in the order they were made.
func TestRun_KeepsEachPeriodInOrderUnderConcurrency(t *testing.T) {
	pg.Reset(t)
	const periods, perPeriod = 30, 3
	for seq := range perPeriod {
		recordMessages(t, periods, seq)
	}
	hook := newReceiver(t, func() time.Duration { return time.Duration(rand.N(15)) * time.Millisecond }, ok)
	run(t, openStore(t), hook.URL, settlement.Config{Interval: hour, Concurrency: 8})
	got := hook.waitFor(t, periods*perPeriod, 30*time.Second)
	seqs := map[string][]int{}
	for _, a := range got {
		seqs[a.period] = append(seqs[a.period], a.seq)
	}
	for period, s := range seqs {
		if fmt.Sprint(s) != "[0 1 2]" {
			t.Errorf("period %s's messages arrived in the order %v", period, s)
		}
	}
	if len(seqs) != periods || len(got) != periods*perPeriod {
		t.Errorf("%d attempts of %d periods, want %d of %d", len(got), len(seqs), periods*perPeriod, periods)
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if hook.maxInFlight < 2 || hook.maxInFlight > 8 {
		t.Errorf("%d messages in flight at most, want 2 to 8", hook.maxInFlight)
	}
}

// A deliverer never has more than its Concurrency in flight, keeps that
// many busy, and reuses its connections to the webhook.
func TestRun_KeepsToItsConcurrency(t *testing.T) {
	pg.Reset(t)
	const messages, concurrency = 40, 4
	recordMessages(t, messages, 0)
	hook := newReceiver(t, func() time.Duration { return 50 * time.Millisecond }, ok)
	start := time.Now()
	run(t, openStore(t), hook.URL, settlement.Config{Interval: hour, Concurrency: concurrency})
	hook.waitFor(t, messages, 30*time.Second)
	t.Logf("%d messages held 50 ms each delivered in %s", messages, time.Since(start).Round(time.Millisecond))
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if hook.maxInFlight != concurrency {
		t.Errorf("%d messages in flight at most, want %d", hook.maxInFlight, concurrency)
	}
	if hook.connections > concurrency {
		t.Errorf("%d connections to the webhook for %d messages, %d at once", hook.connections, messages, concurrency)
	}
}

// A stop cuts the attempts in flight short and leaves their messages due at
// once, for the next start or another instance, not at their lease's end.
func TestRun_StopLeavesTheMessagesInFlightDue(t *testing.T) {
	pg.Reset(t)
	recordMessages(t, 1, 0)
	hook := newReceiver(t, func() time.Duration { return 5 * time.Second }, ok)
	store := openStore(t)
	d := settlement.New(store, settlement.Config{URL: hook.URL, Secret: []byte("secret"), Interval: hour},
		slog.New(slog.DiscardHandler), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	hook.waitFor(t, 1, 5*time.Second)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the deliverer did not stop within 5 s")
	}
	msgs, err := store.ClaimMessages(context.Background(), 5, time.Minute)
	if err != nil || len(msgs) != 1 || msgs[0].Attempts != 1 {
		t.Fatalf("after the stop, claimed %+v, %v; want the message, due, its cut attempt counted", msgs, err)
	}
}
