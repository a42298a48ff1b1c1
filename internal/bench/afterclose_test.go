package bench

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// Every read after a close counts, however slow; failures count apart.
func TestStatsOf_CountsEveryRead(t *testing.T) {
	now := time.Now()
	samples := []readSample{
		{now, 3 * time.Millisecond, nil},
		{now, 9 * time.Second, nil},
		{now, time.Millisecond, errors.New("boom")},
		{now, 2 * time.Millisecond, nil},
	}
	s := statsOf(64, samples, 15*time.Second)
	if s.Ops != 3 || s.Errors != 1 || s.FirstError != "boom" {
		t.Errorf("ops %d, errors %d (%q), want 3, 1 (boom)", s.Ops, s.Errors, s.FirstError)
	}
	if s.P50 != 3*time.Millisecond || s.Max != 9*time.Second || s.P99 != 9*time.Second {
		t.Errorf("p50 %s, p99 %s, max %s, want 3ms, 9s, 9s", s.P50, s.P99, s.Max)
	}
	if s.Throughput() != 3.0/15 {
		t.Errorf("throughput %g, want %g", s.Throughput(), 3.0/15)
	}
}

// The reads right after a close are judged on the median p99 of the runs
// and on the slowest read of any run, and written under their heading.
func TestAfterClose_TargetsAndReport(t *testing.T) {
	r := sampleReport()
	ms := time.Millisecond
	runs := func(p99s, maxes []time.Duration) []AfterCloseRun {
		var out []AfterCloseRun
		for i := range p99s {
			out = append(out, AfterCloseRun{Month: "2026-09", Close: 5 * time.Second,
				Reads:  RunStats{Clients: 64, Ops: 1000, Elapsed: AfterCloseWindow, P50: ms, P99: p99s[i], Max: maxes[i]},
				During: RunStats{Clients: 64, Ops: 400 + i, P99: 100 * ms, Max: time.Duration(i+1) * 300 * ms}})
		}
		return out
	}
	verdicts := func() (p99, slowest Verdict) {
		for _, v := range r.Targets() {
			switch {
			case strings.Contains(v.Target, "Right after a close") && strings.Contains(v.Target, "p99"):
				p99 = v
			case strings.Contains(v.Target, "Right after a close"):
				slowest = v
			}
		}
		return p99, slowest
	}
	if p99, slowest := verdicts(); p99.Verdict != "n/a" || slowest.Verdict != "n/a" {
		t.Errorf("not measured: %+v, %+v", p99, slowest)
	}
	r.AfterClose = runs([]time.Duration{30 * ms, 40 * ms, 900 * ms}, []time.Duration{60 * ms, 80 * ms, 1500 * ms})
	if p99, slowest := verdicts(); p99.Verdict != "met" || slowest.Verdict != "not met" || slowest.Measured != "1500.0 ms" {
		t.Errorf("median p99 40 ms, slowest 1.5 s: %+v, %+v", p99, slowest)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if doc := b.String(); !strings.Contains(doc, "## Right after a close") || !strings.Contains(doc, "| 3 | 2026-09 | 5s | 1000 | 67 |") {
		t.Errorf("report lacks the section or its third run:\n%s", doc)
	}
	const during = "while the month closed (those that started before closeMonth answered): run 1: 400 reads, p99 100.0 ms, " +
		"slowest 300.0 ms; run 2: 401 reads, p99 100.0 ms, slowest 600.0 ms; run 3: 402 reads, p99 100.0 ms, slowest 900.0 ms."
	if doc := b.String(); !strings.Contains(doc, during) {
		t.Errorf("report lacks the reads while the month closed, %q:\n%s", during, doc)
	}
}
