package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/db"
)

// recordMessages records, in one transaction, a message of each of periods
// closed periods of board "storm" (made on the first call): a
// period.closed when seq is 0, the seq-th period.corrected after; with
// delivered, already delivered. Each body is {"period":…,"seq":…}.
func recordMessages(t *testing.T, conn *pgx.Conn, periods, seq int, delivered bool) {
	t.Helper()
	ctx := context.Background()
	const board = `INSERT INTO boards (id, name, reset, sort_order, min_score, max_score, tiebreak, time_zone,
			close_grace_seconds, starts_at)
		VALUES ('storm', 'storm', 'DAY', 'DESC', 0, 100, 'NONE', 'UTC', 0, '2020-01-01 00:00:00+00') ON CONFLICT DO NOTHING`
	const closed = `INSERT INTO periods (board_id, key, status, starts_at, ends_at, closed_at, participants)
		SELECT 'storm', 'p' || i, 'CLOSED', '2020-01-01 00:00:00+00'::timestamptz + i * interval '1 day',
			'2020-01-02 00:00:00+00'::timestamptz + i * interval '1 day', now(), 0
		FROM generate_series(0, $1 - 1) i
		ON CONFLICT DO NOTHING`
	const messages = `INSERT INTO outbox (id, type, board_id, period_id, body, delivered_at, next_attempt_at)
		SELECT 'evt_' || p.key || '_' || $1::int, CASE WHEN $1 = 0 THEN 'period.closed' ELSE 'period.corrected' END,
			p.board_id, p.id, json_build_object('period', p.key, 'seq', $1)::text,
			CASE WHEN $3 THEN clock_timestamp() END, CASE WHEN NOT $3 THEN clock_timestamp() END
		FROM periods p WHERE p.board_id = 'storm' AND p.key = ANY (SELECT 'p' || i FROM generate_series(0, $2 - 1) i)`
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, board); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, closed, periods); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, messages, seq, periods, delivered)
		return err
	})
	if err != nil {
		t.Fatalf("record messages: %v", err)
	}
}

// planNode is a node of EXPLAIN (ANALYZE, FORMAT JSON).
type planNode struct {
	NodeType      string     `json:"Node Type"`
	Relation      string     `json:"Relation Name"`
	Index         string     `json:"Index Name"`
	ActualRows    float64    `json:"Actual Rows"`
	ActualLoops   float64    `json:"Actual Loops"`
	RemovedFilter float64    `json:"Rows Removed by Filter"`
	IndexCond     string     `json:"Index Cond"`
	Filter        string     `json:"Filter"`
	Plans         []planNode `json:"Plans"`
}

// outboxReads returns the rows the plan's scans of outbox read (returned or
// filtered out, in every loop) and a line per scan.
func outboxReads(n planNode) (float64, []string) {
	var (
		reads float64
		scans []string
	)
	if n.Relation == "outbox" && strings.Contains(n.NodeType, "Scan") {
		reads = (n.ActualRows + n.RemovedFilter) * n.ActualLoops
		scans = append(scans, fmt.Sprintf("%s %s (%s; %s): %.0f rows × %.0f loops, %.0f filtered out",
			n.NodeType, n.Index, n.IndexCond, n.Filter, n.ActualRows, n.ActualLoops, n.RemovedFilter))
	}
	for _, child := range n.Plans {
		r, s := outboxReads(child)
		reads += r
		scans = append(scans, s...)
	}
	return reads, scans
}

// The claim of due messages reads a few rows per message it claims, with
// thousands pending on statistics taken before they were recorded (the
// midnight storm before autoanalyze), with none ever taken, and with fresh
// ones: its plan depends on no statistics. Before, the plan made for "no
// message pending" read every pending message once per candidate.
func TestClaimMessages_ReadsFewRowsWhateverTheStatistics(t *testing.T) {
	const pending, claim = 3000, 16
	for _, c := range []struct {
		name string
		// before prepares the outbox's statistics before the storm.
		before func(t *testing.T, conn *pgx.Conn)
		// analyzeAfter analyzes the outbox once the storm is recorded.
		analyzeAfter bool
	}{
		{"AnalyzedWhenAllWereDelivered", func(t *testing.T, conn *pgx.Conn) {
			recordMessages(t, conn, pending, 0, true)
			mustExec(t, conn, `ANALYZE outbox`)
		}, false},
		{"AnalyzedWhenEmpty", func(t *testing.T, conn *pgx.Conn) { mustExec(t, conn, `ANALYZE outbox`) }, false},
		{"NeverAnalyzed", func(*testing.T, *pgx.Conn) {}, false},
		{"AnalyzedAfter", func(*testing.T, *pgx.Conn) {}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := mustOpenDB(t)
			conn := mustConn(t)
			mustExec(t, conn, `ALTER TABLE outbox SET (autovacuum_enabled = false)`)
			c.before(t, conn)
			seq := 0
			if c.name == "AnalyzedWhenAllWereDelivered" {
				seq = 1 // the storm's corrections after its delivered closes
			}
			recordMessages(t, conn, pending, seq, false)
			// Half the periods have a correction waiting behind their
			// message: the claim must pass over them without reading them.
			recordMessages(t, conn, pending/2, seq+1, false)
			if c.analyzeAfter {
				mustExec(t, conn, `ANALYZE outbox`)
			}
			raw, err := store.ExplainClaimMessages(context.Background(), claim)
			if err != nil {
				t.Fatal(err)
			}
			var plans []struct{ Plan planNode }
			if err := json.Unmarshal(raw, &plans); err != nil || len(plans) != 1 {
				t.Fatalf("plan %s: %v", raw, err)
			}
			reads, scans := outboxReads(plans[0].Plan)
			t.Logf("%.0f outbox rows read:\n%s", reads, strings.Join(scans, "\n"))
			if claimed := plans[0].Plan.ActualRows; claimed != claim {
				t.Errorf("claimed %.0f messages, want %d", claimed, claim)
			}
			if reads > 8*claim {
				t.Fatalf("the claim of %d of %d pending messages read %.0f outbox rows", claim, pending, reads)
			}
			for _, scan := range scans {
				if strings.HasPrefix(scan, "Seq Scan") {
					t.Errorf("the claim reads the whole outbox: %s", scan)
				}
			}
		})
	}
}

// Two deliverers claiming at once get each period's messages one at a time
// and in order: a period's correction only once its close is delivered,
// however many are claimed at once.
func TestClaimMessages_OnePerPeriodAtATimeInOrder(t *testing.T) {
	store := mustOpenDB(t)
	other, err := db.Open(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	conn := mustConn(t)
	const periods, perPeriod = 20, 3
	for seq := range perPeriod {
		recordMessages(t, conn, periods, seq, false)
	}
	ctx := context.Background()
	sent := map[string][]int{}
	for rounds := 0; len(sent) < periods || countSent(sent) < periods*perPeriod; rounds++ {
		if rounds > 10 {
			t.Fatalf("after %d rounds, sent %v", rounds, sent)
		}
		a, err := store.ClaimMessages(ctx, 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		b, err := other.ClaimMessages(ctx, 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		inFlight := map[string]bool{}
		for _, msg := range append(a, b...) {
			if msg.Board != "storm" || inFlight[msg.Period] {
				t.Fatalf("claimed %+v with another of its period in flight", msg)
			}
			inFlight[msg.Period] = true
			var body struct{ Seq int }
			if err := json.Unmarshal(msg.Body, &body); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]string{true: "period.closed", false: "period.corrected"}[body.Seq == 0]; msg.Type != want {
				t.Errorf("message %d of %s is a %s", body.Seq, msg.Period, msg.Type)
			}
			sent[msg.Period] = append(sent[msg.Period], body.Seq)
		}
		if rounds == 0 && len(a)+len(b) != periods {
			t.Fatalf("the first round claimed %d messages, want one of each of %d periods", len(a)+len(b), periods)
		}
		for _, msg := range append(a, b...) {
			if err := store.RecordDelivery(ctx, msg, nil, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	for period, seqs := range sent {
		if fmt.Sprint(seqs) != "[0 1 2]" {
			t.Errorf("period %s sent in the order %v", period, seqs)
		}
	}
}

func countSent(sent map[string][]int) int {
	n := 0
	for _, seqs := range sent {
		n += len(seqs)
	}
	return n
}

// A claimed message is not claimed again while its lease holds; a failure
// makes it due retryIn later, which NextMessageIn tells; a lease that
// ended without an outcome lets another deliverer take it, and the late
// failure of the first changes nothing.
func TestClaimMessages_LeaseAndRetry(t *testing.T) {
	store := mustOpenDB(t)
	conn := mustConn(t)
	ctx := context.Background()
	recordMessages(t, conn, 1, 0, false)
	if _, ok, err := store.NextMessageIn(ctx); err != nil || ok {
		t.Fatalf("with a message due now, the next is in (%t, %v), want none to come", ok, err)
	}
	first, err := store.ClaimMessages(ctx, 5, time.Minute)
	if err != nil || len(first) != 1 || first[0].Attempts != 0 || first[0].LeasedUntil.IsZero() {
		t.Fatalf("claimed %+v, %v", first, err)
	}
	if again, err := store.ClaimMessages(ctx, 5, time.Minute); err != nil || len(again) != 0 {
		t.Fatalf("claimed a leased message again: %+v, %v", again, err)
	}
	if in, ok, err := store.NextMessageIn(ctx); err != nil || !ok || in < 55*time.Second || in > time.Minute {
		t.Fatalf("during the lease, the next attempt is in %s (%t, %v), want the lease's end", in, ok, err)
	}
	if err := store.RecordDelivery(ctx, first[0], errors.New("HTTP 500"), 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if in, ok, err := store.NextMessageIn(ctx); err != nil || !ok || in > 300*time.Millisecond {
		t.Fatalf("after a failure retried in 300ms, the next attempt is in %s (%t, %v)", in, ok, err)
	}
	time.Sleep(350 * time.Millisecond)
	// A lease of nothing: its deliverer is lost at once.
	second, err := store.ClaimMessages(ctx, 5, 0)
	if err != nil || len(second) != 1 || second[0].Attempts != 1 {
		t.Fatalf("the retry claimed %+v, %v", second, err)
	}
	third, err := store.ClaimMessages(ctx, 5, time.Minute)
	if err != nil || len(third) != 1 || third[0].ID != second[0].ID {
		t.Fatalf("a lapsed lease: claimed %+v, %v", third, err)
	}
	if err := store.RecordDelivery(ctx, second[0], errors.New("timeout"), 0); err != nil {
		t.Fatal(err)
	}
	if err := store.RecordDelivery(ctx, third[0], nil, 0); err != nil {
		t.Fatal(err)
	}
	got := mustQuery(t, `SELECT attempts, delivered_at IS NOT NULL, COALESCE(last_error, '') FROM outbox`)
	if fmt.Sprint(got) != "[[2 true ]]" {
		t.Fatalf("attempts, delivered, last error: %v", got)
	}
}

// A transaction that records messages wakes the listeners when it commits,
// however many it recorded, and not before.
func TestListenOutbox_HearsRecordedMessages(t *testing.T) {
	store := mustOpenDB(t)
	conn := mustConn(t)
	heard := make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go store.ListenOutbox(ctx, func() { heard <- struct{}{} })
	select {
	case <-heard: // listening
	case <-time.After(10 * time.Second):
		t.Fatal("the listener did not say it listens within 10 s")
	}
	recordMessages(t, conn, 500, 0, false)
	select {
	case <-heard:
	case <-time.After(time.Second):
		t.Fatal("no announcement within a second of the messages' commit")
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(heard); n != 0 {
		t.Errorf("%d more announcements of one transaction", n)
	}
}

// mustExec runs q on conn.
func mustExec(t *testing.T, conn *pgx.Conn, q string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
