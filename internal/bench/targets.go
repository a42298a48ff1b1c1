package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// The performance targets on the 2-core machine, for 10M players.
const (
	TargetClosedRate    = 8000.0 // requests/s at 64 clients, over HTTP
	TargetClosedP99     = 10.0   // ms at 64 clients, over HTTP
	TargetDBOnlyP50     = 0.5    // ms, the database query alone
	TargetOpenP99       = 10.0   // ms, at any rank
	TargetClose         = 30 * time.Second
	TargetSubmitRate    = 20000.0 // events/s with batches of 100
	TargetAfterCloseP99 = 50.0    // ms, reads in the window after a close, 64 clients
	TargetAfterCloseMax = 1000.0  // ms, the slowest of those reads
	targetClients       = 64      // the load the read targets are stated at
	targetDBOnlyClients = 8
)

// Verdict is one performance target set against what was measured.
type Verdict struct {
	Target, Measured, Verdict string
}

// openCases are the open-month read cases, each a part of the table.
var openCases = []string{CaseOpen, CaseOpenTop, CaseOpenMiddle, CaseOpenBottom, CaseOpenTieGroup}

// Targets sets each performance target against the report's medians: the
// months' when the run measured them, the boards' when it ran that suite.
func (r *Report) Targets() []Verdict {
	var out []Verdict
	if !r.NoMonths {
		out = r.monthTargets()
	}
	out = append(out, r.bigBoardTargets()...)
	out = append(out, r.boardTargets()...)
	out = append(out, r.rewardTargets()...)
	out = append(out, r.groupTargets()...)
	out = append(out, r.leagueTargets()...)
	return append(out, r.erasureTargets()...)
}

// monthTargets sets the targets of the seeded months.
func (r *Report) monthTargets() []Verdict {
	var out []Verdict
	notMeasured := func(target string) Verdict { return Verdict{target, "not measured", "n/a"} }

	target := fmt.Sprintf("Closed month ±10 over HTTP, %d clients: ≥ %s req/s", targetClients, thousands(TargetClosedRate))
	closed := r.Find(SystemHTTP, CaseClosed, targetClients)
	if closed == nil {
		out = append(out, notMeasured(target))
	} else {
		rate := closed.Rate().Median
		out = append(out, Verdict{target, thousands(rate) + " req/s", verdict(rate >= TargetClosedRate)})
	}

	target = fmt.Sprintf("Closed month ±10 over HTTP, %d clients: p99 ≤ %g ms", targetClients, TargetClosedP99)
	if closed == nil {
		out = append(out, notMeasured(target))
	} else {
		p99 := closed.P99().Median
		out = append(out, Verdict{target, msMeasured(p99), verdict(p99 <= TargetClosedP99)})
	}

	target = fmt.Sprintf("Closed month, DB query alone (%d clients): p50 ≤ %g ms", targetDBOnlyClients, TargetDBOnlyP50)
	if m := r.Find(SystemDB, CaseClosed, targetDBOnlyClients); m == nil {
		out = append(out, notMeasured(target))
	} else {
		p50 := m.P50().Median
		out = append(out, Verdict{target, msMeasured(p50), verdict(p50 <= TargetDBOnlyP50)})
	}

	out = append(out, r.openTarget())

	target = fmt.Sprintf("closeMonth: ≤ %s", TargetClose)
	if r.Close.Wall == 0 {
		out = append(out, notMeasured(target))
	} else {
		out = append(out, Verdict{target, r.Close.Wall.Round(100 * time.Millisecond).String(), verdict(r.Close.Wall <= TargetClose)})
		s := r.Close.Readers
		out = append(out, Verdict{"The month stays readable while it closes",
			fmt.Sprintf("%d reads, %d errors, slowest %s ms", s.Ops, s.Errors, fixed(milliseconds(s.Max))),
			verdict(s.Ops > 0 && s.Errors == 0)})
	}

	out = append(out, r.afterCloseTargets()...)

	target = fmt.Sprintf("submitScores, batches of 100: ≥ %s events/s", thousands(TargetSubmitRate))
	best, bestClients := 0.0, 0
	for _, m := range r.Measurements {
		if m.Case == CaseSubmit && m.Rate().Median > best {
			best, bestClients = m.Rate().Median, m.Clients
		}
	}
	if bestClients == 0 {
		out = append(out, notMeasured(target))
	} else {
		out = append(out, Verdict{target, fmt.Sprintf("%s events/s (best, at %d clients)", thousands(best), bestClients), verdict(best >= TargetSubmitRate)})
		acked := r.Applied + r.Unchanged
		out = append(out, Verdict{"submitScores: nothing lost",
			fmt.Sprintf("%s acknowledged, %s stored", thousands(float64(acked)), thousands(float64(r.Stored))),
			verdict(acked == r.Stored)})
	}

	rss := "not measured"
	if r.RSS > 0 {
		rss = "RSS " + bytesText(r.RSS) + " after the reads (whole process)"
	}
	out = append(out, Verdict{"Server memory bounded and reported", rss, "reported"})
	return out
}

// afterCloseTargets sets the reads right after a close against their
// targets: the median p99 of the runs, and the slowest read of any run.
func (r *Report) afterCloseTargets() []Verdict {
	p99Target := fmt.Sprintf("Right after a close, first %s: p99 ≤ %g ms", AfterCloseWindow, TargetAfterCloseP99)
	maxTarget := fmt.Sprintf("Right after a close, first %s: no read slower than %g ms", AfterCloseWindow, TargetAfterCloseMax)
	if len(r.AfterClose) == 0 {
		return []Verdict{{p99Target, "not measured", "n/a"}, {maxTarget, "not measured", "n/a"}}
	}
	var p99s []float64
	slowest := 0.0
	for _, run := range r.AfterClose {
		p99s = append(p99s, milliseconds(run.Reads.P99))
		slowest = max(slowest, milliseconds(run.Reads.Max))
	}
	p99 := SpreadOf(p99s).Median
	return []Verdict{
		{p99Target, msMeasured(p99), verdict(p99 <= TargetAfterCloseP99)},
		{maxTarget, fixed(slowest) + " ms", verdict(slowest <= TargetAfterCloseMax)},
	}
}

// openTarget sets the open month's p99 target against the slowest part of
// the table at each number of clients. The verdict is the one at
// targetClients (at the highest load measured when that one was not) and
// says up to which load the target holds when it is not met there.
func (r *Report) openTarget() Verdict {
	target := fmt.Sprintf("Open month ±10 over HTTP: p99 ≤ %g ms at any rank", TargetOpenP99)
	levels := r.clientLevels(SystemHTTP, CaseOpen)
	if len(levels) == 0 {
		return Verdict{target, "not measured", "n/a"}
	}
	judged := levels[len(levels)-1]
	if slices.Contains(levels, targetClients) {
		judged = targetClients
	}
	var (
		parts   []string
		metUpTo int // the target holds at levels[:metUpTo]
		met     bool
	)
	for _, clients := range levels {
		worst, worstCase := 0.0, ""
		for _, kase := range openCases {
			m := r.Find(SystemHTTP, kase, clients)
			if m == nil {
				continue
			}
			p99 := m.P99().Median
			if math.IsNaN(p99) { // no read completed: slowest of all
				p99 = math.Inf(1)
			}
			if p99 >= worst {
				worst, worstCase = p99, kase
			}
		}
		shown := worst
		if math.IsInf(worst, 1) {
			shown = math.NaN()
		}
		parts = append(parts, fmt.Sprintf("%d clients: %s (%s)", clients, msMeasured(shown), strings.TrimPrefix(worstCase, "open month, ")))
		ok := worst <= TargetOpenP99
		if ok && metUpTo == len(parts)-1 {
			metUpTo = len(parts)
		}
		if clients == judged {
			met = ok
		}
	}
	measured := "worst p99 at " + strings.Join(parts, "; ")
	switch {
	case met:
		return Verdict{target, measured, "met"}
	case metUpTo > 0:
		return Verdict{target, measured, fmt.Sprintf("not met at %d clients (met up to %d)", judged, levels[metUpTo-1])}
	default:
		return Verdict{target, measured, "not met"}
	}
}

// msMeasured formats a latency target's measurement.
func msMeasured(ms float64) string {
	if math.IsNaN(ms) {
		return "none completed in the measured window"
	}
	return fixed(ms) + " ms"
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}
