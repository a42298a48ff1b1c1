package bench

import (
	"fmt"
	"time"
)

// The groups' targets (issue 38, target 1), on the 2-core machine, for a
// period of 10M players at groupClients clients.
const (
	TargetGroupOpenRate   = 1000.0 // groupStandings of groupSmall ids a second, open period
	TargetGroupClosedRate = 3000.0 // the same, closed period
	TargetGroupLargeP99   = 25.0   // ms, groupStandings of groupLarge ids
	targetGroupPlayers    = 10_000_000
)

// groupTargets sets the groups' targets against each period the suite
// measured; none when it did not run.
func (r *Report) groupTargets() []Verdict {
	g := r.Groups
	if g == nil {
		return nil
	}
	at := ""
	if g.Players != targetGroupPlayers {
		at = fmt.Sprintf(" (at %s players; %s not measured)", thousands(float64(g.Players)), shortCount(targetGroupPlayers))
	}
	var out []Verdict
	for _, c := range g.Cases {
		if c.M == nil || len(c.M.Runs) == 0 {
			continue
		}
		switch c.Size {
		case groupSmall:
			want := TargetGroupOpenRate
			if c.Closed {
				want = TargetGroupClosedRate
			}
			rate := c.M.Rate().Median
			out = append(out, Verdict{fmt.Sprintf("groupStandings of %d ids, %s, %d clients: ≥ %s req/s", groupSmall, c.Period, c.M.Clients, thousands(want)),
				fmt.Sprintf("%s req/s, p99 %s ms, %d errors%s", rateText(c.M.Rate()), msText(c.M.P99()), c.M.Errors(), at),
				verdict(rate >= want && c.M.Errors() == 0)})
		case groupLarge:
			p99 := c.M.P99()
			out = append(out, Verdict{fmt.Sprintf("groupStandings of %d ids, %s, %d clients: p99 ≤ %g ms", groupLarge, c.Period, c.M.Clients, TargetGroupLargeP99),
				fmt.Sprintf("p99 %s ms, %s req/s, %d errors%s", msText(p99), rateText(c.M.Rate()), c.M.Errors(), at),
				verdict(p99.Median <= TargetGroupLargeP99 && c.M.Errors() == 0)})
		}
	}
	return out
}

// writeGroups writes what the groups suite measured.
func (r *Report) writeGroups(p printer) {
	g := r.Groups
	if g == nil {
		return
	}
	p("## Groups: groupStandings, a friends board (issue 38, target 1)")
	p("")
	p("`groupStandings(board, period, playerIds)` over HTTP, no token, each request of distinct random players of the %s",
		thousands(float64(g.Players)))
	p("seeded ones, at %d clients; every answer must hold every player, group ranks from 1 and board ranks best first, final", groupClients)
	p("as the period is. Main's open month is seeded by `db.SeedPeriod` (when no other suite did); the WEEK board's period is")
	p("seeded as the big-boards suite seeds one (`db.SeedPeriod`, then `VACUUM (ANALYZE)` and a checkpoint), read open, closed")
	p("through `closePeriod` until CLOSED (%s), then read once a second until the service holds it, and read closed.",
		g.Close.Round(100*time.Millisecond))
	p("")
	p("| Period | Ids | Clients | Requests/s | p50 ms | p99 ms | Slowest ms | Errors |")
	p("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, c := range g.Cases {
		if c.M != nil && len(c.M.Runs) > 0 {
			p("| %s | %d | %d | %s | %s | %s | %s | %d |", c.Period, c.Size, c.M.Clients, rateText(c.M.Rate()),
				msText(c.M.P50()), msText(c.M.P99()), msText(c.M.latency(func(s RunStats) time.Duration { return s.Max })), c.M.Errors())
		}
	}
	p("")
	p("The WEEK board's closed period was served from %s.", orUnknown(g.ClosedFrom))
	p("")
}
