package bench

import (
	"fmt"
	"time"
)

// The erasure's targets (issue 38, target 3), on the 2-core machine, for a
// player present in targetErasureClosed closed periods and
// targetErasureOpen open ones.
const (
	TargetErasure       = 30 * time.Second
	TargetErasureReadMs = 50.0 // ms, p99 of the reads of those periods meanwhile
	targetErasureClosed = 1000
	targetErasureOpen   = 10
)

// Wall returns the erasures' wall times, in seconds.
func (e *ErasureResult) Wall() Spread {
	values := make([]float64, len(e.Runs))
	for i, run := range e.Runs {
		values[i] = run.Wall.Seconds()
	}
	return SpreadOf(values)
}

// ReadP99 returns the p99 latency of the reads during the erasures, in
// milliseconds.
func (e *ErasureResult) ReadP99() Spread {
	values := make([]float64, len(e.Runs))
	for i, run := range e.Runs {
		values[i] = milliseconds(run.Reads.P99)
	}
	return SpreadOf(values)
}

// complete reports whether the erasure took the player out of every
// period that held them, at least the suite's, and re-ranked every closed
// one.
func (run ErasureRun) complete() bool {
	return run.Periods == run.Held && run.Corrected == run.Closed && run.Left == 0
}

// complete reports whether every erasure was complete and found the
// player in every one of the suite's periods.
func (e *ErasureResult) complete() bool {
	for _, run := range e.Runs {
		if !run.complete() || run.Held < e.ClosedPeriods+e.OpenBoards || run.Closed < e.ClosedPeriods {
			return false
		}
	}
	return true
}

// readErrors returns the failed reads during the erasures.
func (e *ErasureResult) readErrors() int {
	n := 0
	for _, run := range e.Runs {
		n += run.Reads.Errors
	}
	return n
}

// erasureTargets sets the erasure's targets against what the suite
// measured; none when it did not run.
func (r *Report) erasureTargets() []Verdict {
	e := r.Erasure
	if e == nil {
		return nil
	}
	at := ""
	if e.ClosedPeriods != targetErasureClosed || e.OpenBoards != targetErasureOpen {
		at = fmt.Sprintf(" (at %s closed + %d open periods; %s + %d not measured)", thousands(float64(e.ClosedPeriods)), e.OpenBoards,
			thousands(targetErasureClosed), targetErasureOpen)
	}
	eraseTarget := fmt.Sprintf("erasePlayer of a player in %s closed and %d open periods: ≤ %s",
		thousands(targetErasureClosed), targetErasureOpen, TargetErasure)
	readTarget := fmt.Sprintf("standing of those periods during erasePlayer: p99 ≤ %g ms", TargetErasureReadMs)
	if len(e.Runs) == 0 {
		return []Verdict{{eraseTarget, "not measured", "n/a"}, {readTarget, "not measured", "n/a"}}
	}
	wall, p99 := e.Wall(), e.ReadP99()
	whole := "every period erased"
	if !e.complete() {
		whole = "NOT every period erased"
	}
	return []Verdict{
		{eraseTarget, fmt.Sprintf("%s s, %s players a period, %s%s", secondsText(wall), thousands(float64(e.Players)), whole, at),
			verdict(wall.Median <= TargetErasure.Seconds() && e.complete())},
		{readTarget, fmt.Sprintf("p99 %s ms at %d clients (%s ms without an erasure), %d errors%s", msText(p99), e.Readers,
			e.baselineP99(), e.readErrors(), at), verdict(p99.Median <= TargetErasureReadMs && e.readErrors() == 0)},
	}
}

// baselineP99 is the reads' p99 without an erasure, as text.
func (e *ErasureResult) baselineP99() string {
	if e.Baseline == nil || len(e.Baseline.Runs) == 0 {
		return "not measured"
	}
	return msText(e.Baseline.P99())
}

// secondsText writes s, in seconds, as "12.3 (11.0–14.2)".
func secondsText(s Spread) string {
	return fmt.Sprintf("%.1f (%.1f–%.1f)", s.Median, s.Min, s.Max)
}

// writeErasure writes what the erasure suite measured.
func (r *Report) writeErasure(p printer) {
	e := r.Erasure
	if e == nil {
		return
	}
	p("## Erasure: erasePlayer in %s closed and %d open periods (issue 38, target 3)", thousands(float64(e.ClosedPeriods)), e.OpenBoards)
	p("")
	p("One DAY board (UTC, DESC, 0..1,000,000) with its %d days before today, and %d DAY boards with today's period open,",
		e.ClosedPeriods, e.OpenBoards)
	p("each period holding the same %s players (`player-00000001` on): a score row and the SET event that made it, inserted",
		thousands(float64(e.Players)))
	p("by SQL in %s, as their events would leave them. The %d days were then closed through `db.ClosePeriod`, two at a",
		e.Seed.Round(100*time.Millisecond), e.ClosedPeriods)
	p("time (%s; final ranks, digests, messages), and read until the service held them in memory (%d of %d held).",
		e.Close.Round(100*time.Millisecond), e.Held, e.ClosedPeriods)
	p("Each run erases a fresh player, present in every one of those periods, through `erasePlayer` over HTTP with the")
	p("admin token, timed from the call to its answer or, when the request's deadline (LEADERBOARD_REQUEST_TIMEOUT) comes")
	p("first and it answers UNAVAILABLE while the erasure goes on, to when polling the database first sees its audit rows")
	p("DONE. Meanwhile %d clients read `standing` (±%d neighbours) of other players in random periods among all of those,",
		e.Readers, Neighbours)
	p("closed ones final and open ones live, each answer checked, from %s before the call to the erasure's end.", r.Warmup)
	p("Periods and Corrected are the erasure's audit counts: every period that held the player (main's months and other")
	p("suites' boards too, when the run seeded the player there) and the CLOSED ones among them, ranked again.")
	p("")
	p("| Run | Player | erasePlayer s | Answered | Periods | Corrected | Reads | Reads p50 ms | Reads p99 ms | Slowest ms | Errors |")
	p("| ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for i, run := range e.Runs {
		answered := "in time"
		if run.Polled {
			answered = "UNAVAILABLE, polled"
		}
		s := run.Reads
		p("| %d | %s | %.1f | %s | %d | %d | %d | %s | %s | %s | %d |", i+1, run.Player, run.Wall.Seconds(), answered,
			run.Periods, run.Corrected, s.Ops, fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)), s.Errors)
	}
	p("")
	if len(e.Runs) > 0 {
		p("erasePlayer: %s s; the reads' p99 during it: %s ms.", secondsText(e.Wall()), msText(e.ReadP99()))
	}
	if m := e.Baseline; m != nil && len(m.Runs) > 0 {
		p("The same reads without an erasure, %d clients: %s req/s, p50 %s ms, p99 %s ms, %d errors.", m.Clients,
			rateText(m.Rate()), msText(m.P50()), msText(m.P99()), m.Errors())
	}
	p("")
}
