package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// sampleReport is a small made-up report: the service at 1 and 64 clients
// on the closed and open months, Redis, DB only, submits and a close.
func sampleReport() *Report {
	run := func(clients, ops int, p50, p99 time.Duration) RunStats {
		return RunStats{Clients: clients, Ops: ops, Elapsed: 10 * time.Second, P50: p50, P99: p99, Max: p99}
	}
	ms := time.Millisecond
	measurement := func(system, kase string, clients int, runs ...RunStats) Measurement {
		return Measurement{System: system, Case: kase, Clients: clients, PerOp: 1, Unit: "req/s", Runs: runs}
	}
	withCPU := run(64, 90000, 6*ms, 9*ms)
	withCPU.AllOps, withCPU.CPU = 100000, CPUTimes{Process: 150 * time.Second, Postgres: 50 * time.Second}
	submit := measurement(SystemHTTP, CaseSubmit, 4, run(4, 3000, 12*ms, 30*ms))
	submit.PerOp, submit.Unit = 100, "events/s"
	return &Report{
		Started:  time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 11, 22, 1, 20, 0, 0, time.UTC),
		Command:  "go run ./cmd/leaderboard-bench --players 1000", Players: 1000, Revision: "abc1234",
		ClosedFrom: "the service's in-memory snapshot",
		Warmup:     2 * time.Second, Duration: 10 * time.Second, Repeat: 3,
		Machine:    Machine{CPUModel: "Test CPU", Cores: 2, RAM: 24 << 30, GoVersion: "go1.26", PostgreSQL: "15.9", Redis: "7.0.15"},
		LoadBefore: "1.00 1.00 1.00", LoadAfter: "2.00 2.00 2.00",
		Database: "a dedicated PostgreSQL", Settings: []Setting{{"synchronous_commit", "on"}},
		ClosedMonth: "2026-10", OpenMonth: "2026-11",
		Setup: []Step{{"seed 2026-10", 3 * time.Second}},
		Measurements: []Measurement{
			measurement(SystemHTTP, CaseClosed, 1, run(1, 20000, ms, 2*ms), run(1, 30000, ms, 3*ms), run(1, 25000, ms, 2*ms)),
			measurement(SystemHTTP, CaseClosed, 64, withCPU),
			measurement(SystemHTTP, CaseOpen, 1, run(1, 10000, 2*ms, 4*ms)),
			measurement(SystemHTTP, CaseOpen, 64, run(64, 50000, 12*ms, 20*ms)),
			measurement(SystemHTTP, CaseOpenTieGroup, 64, run(64, 40000, 15*ms, 40*ms)),
			measurement(SystemDB, CaseClosed, 8, run(8, 200000, ms/4, ms)),
			measurement(SystemRedis, CaseClosed, 1, run(1, 100000, ms/10, ms/5)),
			measurement(SystemRedis, CaseClosed, 8, run(8, 150000, ms/2, ms)),
			measurement(SystemRedis, CaseClosed, 64, run(64, 120000, 5*ms, 8*ms)),
			submit,
		},
		Close:   CloseResult{Wall: 12 * time.Second, Readers: RunStats{Clients: 1, Ops: 500, P50: ms, P99: 5 * ms, Max: 80 * ms}},
		Applied: 280000, Unchanged: 20000, Stored: 300000,
		PostgresCPU: true,
		RSS:         200 << 20, PeakRSS: 300 << 20, RedisUsed: 100 << 20, RedisRSS: 120 << 20,
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, want := range []string{
		"# Performance",
		"`go run ./cmd/leaderboard-bench --players 1000`",
		"- Source: abc1234",
		"Over HTTP the closed month was served from the service's in-memory snapshot.",
		"| CPU | Test CPU |",
		"| synchronous_commit | on |",
		"1.00 1.00 1.00 at the start, 2.00 2.00 2.00 at the end",
		"this run has 1,000",
		// Three runs: 2,000, 3,000 and 2,500 req/s.
		"| closed month, players across the table | service over HTTP | 1 | 2,500 (2,000–3,000) | 1.00 (1.00–1.00) | 2.00 (2.00–3.00) | 0 |",
		// The service at 64 clients against Redis: 9,000 / 12,000 req/s.
		"| 64 | 9,000 | 12,000 | 0.75× | 6.00 | 5.00 | 9.00 | 8.00 |",
		"DB only / Redis = 1.33× in throughput",
		"| 4 | 30,000 (30,000–30,000) | 12.0 (12.0–12.0) | 30.0 (30.0–30.0) | 0 |",
		"300,000 events (280,000 APPLIED, 20,000 UNCHANGED); rows in board_score_events for them afterwards: 300,000: nothing lost.",
		"12s wall time",
		"VmRSS 200 MiB, peak VmHWM 300 MiB",
		"| seed 2026-10 | 3s |",
		// 1.5 + 0.5 ms of CPU a request on 2 cores: at most 1,000 a second.
		"| closed month, players across the table | service over HTTP | 64 | 1.500 | 0.500 | – | 1,000 |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(doc, "## Failures") {
		t.Error("a report without failures has a Failures section")
	}
	if t.Failed() {
		t.Log(doc)
	}
}

func TestTargets(t *testing.T) {
	got := map[string]Verdict{}
	for _, v := range sampleReport().Targets() {
		got[v.Target] = v
	}
	for _, want := range []Verdict{
		{"Closed month ±10 over HTTP, 64 clients: ≥ 8,000 req/s", "9,000 req/s", "met"},
		{"Closed month ±10 over HTTP, 64 clients: p99 ≤ 10 ms", "9.00 ms", "met"},
		{"Closed month, DB query alone (8 clients): p50 ≤ 0.5 ms", "0.25 ms", "met"},
		{"Open month ±10 over HTTP: p99 ≤ 10 ms at any rank",
			"worst p99 at 1 clients: 4.00 ms (players across the table); 64 clients: 40.0 ms (tie group on score 100)",
			"not met at 64 clients (met up to 1)"},
		{"closeMonth: ≤ 30s", "12s", "met"},
		{"The month stays readable while it closes", "500 reads, 0 errors, slowest 80.0 ms", "met"},
		{"submitScores, batches of 100: ≥ 20,000 events/s", "30,000 events/s (best, at 4 clients)", "met"},
		{"submitScores: nothing lost", "300,000 acknowledged, 300,000 stored", "met"},
	} {
		if got[want.Target] != want {
			t.Errorf("target %q: got %+v, want %+v", want.Target, got[want.Target], want)
		}
	}
}

func TestTargets_NoneCompletedIsNotMet(t *testing.T) {
	r := sampleReport()
	slow := r.Find(SystemDB, CaseClosed, 8)
	slow.Runs = []RunStats{{Clients: 8, Elapsed: 10 * time.Second, AllOps: 3}}
	for _, v := range r.Targets() {
		if strings.HasPrefix(v.Target, "Closed month, DB query alone") && (v.Verdict != "not met" || v.Measured != "none completed in the measured window") {
			t.Errorf("no read completed in the window: %+v, want not met", v)
		}
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if want := "| closed month, players across the table | service, DB only | 8 | 0 (0–0) | n/a (none completed) | n/a (none completed) | 0 |"; !strings.Contains(b.String(), want) {
		t.Errorf("the report lacks %q", want)
	}
}

func TestWriteMarkdown_ListsFailures(t *testing.T) {
	r := sampleReport()
	r.Stored--
	r.Failures = []string{"submitScores: 300000 events acknowledged, 299999 stored"}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Failures", "- submitScores: 300000 events acknowledged, 299999 stored", ": MISMATCH."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 1234567.6: "1,234,568", -12345: "-12,345"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

// A close that answered CLOSING is timed by polling, and the report says so
// without calling the answer lost; a lost answer says why.
func TestWriteMarkdown_ClosePolled(t *testing.T) {
	for _, c := range []struct {
		answerError, want string
	}{
		{"", "The mutation answered CLOSING once its wait"},
		{"EOF", "The mutation's answer was lost (EOF)"},
	} {
		r := sampleReport()
		r.Close.Polled, r.Close.AnswerError = true, c.answerError
		r.Close.WALBytes = 3 << 30
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		if doc := b.String(); !strings.Contains(doc, c.want) || (c.answerError == "" && strings.Contains(doc, "was lost")) {
			t.Errorf("answer error %q: the report does not say %q, or calls the answer lost", c.answerError, c.want)
		}
		if doc := b.String(); !strings.Contains(doc, "wrote 3,072 MiB of write-ahead log") {
			t.Errorf("the report does not give the close's WAL volume:\n%s", doc)
		}
	}
}

// verdictsText is the verdicts of vs, in order, separated by spaces.
func verdictsText(vs []Verdict) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Verdict
	}
	return strings.Join(out, " ")
}
