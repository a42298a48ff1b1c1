package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// erasureReport is a report of the erasure suite alone at closed and open
// periods: erasures of the given wall times, the reads meanwhile at p99,
// each erasure complete.
func erasureReport(closed, open int, p99 time.Duration, walls ...time.Duration) *Report {
	e := &ErasureResult{Players: 2000, Board: "bench-er.c000000", ClosedPeriods: closed, OpenBoards: open,
		Seed: 40 * time.Second, Close: time.Minute, Held: closed, Readers: 8,
		Baseline: &Measurement{System: SystemHTTP, Case: "standing of those periods, no erasure", Clients: 8, PerOp: 1, Unit: "req/s",
			Runs: []RunStats{{Clients: 8, Ops: 20_000, Elapsed: 10 * time.Second, P50: time.Millisecond, P99: 5 * time.Millisecond}}}}
	for i, wall := range walls {
		e.Runs = append(e.Runs, ErasureRun{Player: "player-0000000" + string(rune('1'+i)), Wall: wall, Polled: wall > 5*time.Second,
			Held: closed + open, Closed: closed, Periods: closed + open, Corrected: closed,
			Reads: RunStats{Clients: 8, Ops: 1000, Elapsed: wall, P50: p99 / 4, P99: p99, Max: 2 * p99}})
	}
	return &Report{NoMonths: true, Repeat: len(walls), Warmup: 2 * time.Second, Erasure: e}
}

func TestErasureTargets(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *Report
		want string
	}{
		{"Met", erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second, 25*time.Second, 31*time.Second), "met met"},
		{"SlowErasure", erasureReport(1000, 10, 40*time.Millisecond, 29*time.Second, 31*time.Second, 32*time.Second), "not met met"},
		{"SlowReads", erasureReport(1000, 10, 60*time.Millisecond, 20*time.Second, 20*time.Second, 20*time.Second), "met not met"},
		{"NotRun", &Report{Erasure: &ErasureResult{ClosedPeriods: 1000, OpenBoards: 10}}, "n/a n/a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := verdictsText(c.r.erasureTargets()); got != c.want {
				t.Fatalf("verdicts %q, want %q", got, c.want)
			}
		})
	}
	missed := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second)
	missed.Erasure.Runs[0].Left = 1
	if v := missed.erasureTargets(); v[0].Verdict != "not met" || !strings.Contains(v[0].Measured, "NOT every period erased") {
		t.Errorf("an erasure that left a score meets the target: %+v", v[0])
	}
	short := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second)
	short.Erasure.Runs[0].Held, short.Erasure.Runs[0].Periods = 1009, 1009
	if v := short.erasureTargets(); v[0].Verdict != "not met" {
		t.Errorf("a player missing from a period meets the target: %+v", v[0])
	}
	months := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second)
	months.Erasure.Runs[0].Held, months.Erasure.Runs[0].Periods = 1012, 1012
	if v := months.erasureTargets(); v[0].Verdict != "met" {
		t.Errorf("an erasure that also took the player out of two months misses the target: %+v", v[0])
	}
	failed := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second)
	failed.Erasure.Runs[0].Reads.Errors = 1
	if v := failed.erasureTargets(); v[1].Verdict != "not met" {
		t.Errorf("a failed read meets the reads' target: %+v", v[1])
	}
	small := erasureReport(20, 3, 40*time.Millisecond, time.Second)
	if v := small.erasureTargets(); !strings.Contains(v[0].Measured, "(at 20 closed + 3 open periods; 1,000 + 10 not measured)") {
		t.Errorf("a smaller shape not said: %+v", v[0])
	}
	if v := (&Report{}).erasureTargets(); v != nil {
		t.Errorf("targets without the suite: %+v", v)
	}
}

func TestWriteMarkdown_ErasureSection(t *testing.T) {
	var b bytes.Buffer
	if err := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second, 6*time.Second, 31*time.Second).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Erasure: erasePlayer in 1,000 closed and 10 open periods (issue 38, target 3)",
		"the same 2,000 players", "(1m0s; final ranks, digests, messages), and read until the service held them in memory (1000 of 1000 held)",
		"| 1 | player-00000001 | 20.0 | UNAVAILABLE, polled | 1010 | 1000 | 1000 | 10.0 | 40.0 | 80.0 | 0 |",
		"erasePlayer: 20.0 (6.0–31.0) s; the reads' p99 during it: 40.0 (40.0–40.0) ms.",
		"without an erasure, 8 clients: 2,000 (2,000–2,000) req/s, p50 1.00 (1.00–1.00) ms, p99 5.00 (5.00–5.00) ms",
		"| erasePlayer of a player in 1,000 closed and 10 open periods: ≤ 30s | 20.0 (6.0–31.0) s, 2,000 players a period, every period erased | met |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestWriteTable_Erasure(t *testing.T) {
	var b bytes.Buffer
	if err := erasureReport(1000, 10, 40*time.Millisecond, 20*time.Second).WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"standing of those periods, no erasure", "erasePlayer 1 (1000 closed + 10 open periods), reads meanwhile",
		"20s", "40.0", "standing of those periods during erasePlayer: p99 ≤ 50 ms"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}
