package bench

import (
	"fmt"
	"strings"
	"time"
)

// The big boards' targets (issue 37, target 1), on the 2-core machine, for
// 10M players; the close and the reads after it are held to the months'
// TargetClose and TargetAfterCloseP99.
const (
	TargetBigOpenOneP99    = 2.0 // ms, open ±10 at one client
	TargetBigClosedVsRedis = 1.0 // closed ±10 at 64 clients, over the Redis design's rate in the same run
	targetBigBoardPlayers  = 10_000_000
)

// bigBoardTargets sets each big board's targets against what the suite
// measured; none when it did not run.
func (r *Report) bigBoardTargets() []Verdict {
	var out []Verdict
	for _, b := range r.BigBoards {
		out = append(out, r.bigBoardVerdicts(b)...)
	}
	return out
}

// bigBoardVerdicts sets b's targets: open at the most read clients against
// main's open month and at one client, closed against Redis, the close and
// the reads right after it.
func (r *Report) bigBoardVerdicts(b *BigBoard) []Verdict {
	name := fmt.Sprintf("Big board, %s, %s players", b.Kind.Name, shortCount(targetBigBoardPlayers))
	at := ""
	if b.Players != targetBigBoardPlayers {
		at = fmt.Sprintf(" (at %s players; %s not measured)", thousands(float64(b.Players)), shortCount(targetBigBoardPlayers))
	}
	clients := targetClients
	if b.Open != nil {
		clients = b.Open.Clients
	}
	notMeasured := func(target string) Verdict { return Verdict{target, "not measured", "n/a"} }
	var out []Verdict

	target := fmt.Sprintf("%s: open ±10, %d clients: ≥ main's open month in the same run", name, clients)
	main := r.Find(SystemHTTP, CaseOpen, clients)
	switch {
	case b.Open == nil || len(b.Open.Runs) == 0:
		out = append(out, notMeasured(target))
	case main == nil:
		out = append(out, Verdict{target, fmt.Sprintf("%s req/s; main's open month not measured in this run (suite reads)%s",
			rateText(b.Open.Rate()), at), "n/a"})
	default:
		rate, mainRate := b.Open.Rate().Median, main.Rate().Median
		out = append(out, Verdict{target, fmt.Sprintf("%s req/s against main's %s, %s%s", rateText(b.Open.Rate()),
			thousands(mainRate), ratioText(rate, mainRate), at), verdict(rate >= mainRate && b.Open.Errors() == 0)})
	}

	target = fmt.Sprintf("%s: open ±10, 1 client: p99 ≤ %g ms", name, TargetBigOpenOneP99)
	if b.OpenOne == nil || len(b.OpenOne.Runs) == 0 {
		out = append(out, notMeasured(target))
	} else {
		p99 := b.OpenOne.P99()
		out = append(out, Verdict{target, "p99 " + msText(p99) + " ms" + at, verdict(p99.Median <= TargetBigOpenOneP99 && b.OpenOne.Errors() == 0)})
	}

	target = fmt.Sprintf("%s: closed ±10, %d clients: ≥ %.1f× the Redis design in the same run", name, clients, TargetBigClosedVsRedis)
	redis := r.Find(SystemRedis, CaseClosed, clients)
	switch {
	case b.Closed == nil || len(b.Closed.Runs) == 0:
		out = append(out, notMeasured(target))
	case redis == nil:
		out = append(out, Verdict{target, fmt.Sprintf("%s req/s; Redis not measured in this run (suite redis)%s", rateText(b.Closed.Rate()), at), "n/a"})
	default:
		rate, redisRate := b.Closed.Rate().Median, redis.Rate().Median
		out = append(out, Verdict{target, fmt.Sprintf("%s req/s against Redis's %s, %s%s", rateText(b.Closed.Rate()),
			thousands(redisRate), ratioText(rate, redisRate), at), verdict(rate >= TargetBigClosedVsRedis*redisRate && b.Closed.Errors() == 0)})
	}

	closeTarget := fmt.Sprintf("%s: closePeriod, from the call to CLOSED: ≤ %s", name, TargetClose)
	afterTarget := fmt.Sprintf("%s: first %s after a close, %d clients: p99 ≤ %g ms", name, AfterCloseWindow, clients, TargetAfterCloseP99)
	if len(b.Closes) == 0 {
		return append(out, notMeasured(closeTarget), notMeasured(afterTarget))
	}
	var closes, p99s, maxes []float64
	errors := 0
	for _, run := range b.Closes {
		closes = append(closes, run.Close.Seconds())
		p99s, maxes = append(p99s, milliseconds(run.Reads.P99)), append(maxes, milliseconds(run.Reads.Max))
		errors += run.Reads.Errors + run.During.Errors
	}
	c := SpreadOf(closes)
	out = append(out, Verdict{closeTarget, fmt.Sprintf("%.1f s (%.1f–%.1f)%s", c.Median, c.Min, c.Max, at),
		verdict(c.Median <= TargetClose.Seconds())})
	p99 := SpreadOf(p99s)
	return append(out, Verdict{afterTarget, fmt.Sprintf("p99 %s ms, slowest %s ms, %d errors%s", msText(p99), msText(SpreadOf(maxes)), errors, at),
		verdict(p99.Median <= TargetAfterCloseP99 && errors == 0)})
}

// writeBigBoards writes what the big-boards suite measured.
func (r *Report) writeBigBoards(p printer) {
	if len(r.BigBoards) == 0 {
		return
	}
	first := r.BigBoards[0]
	clients := targetClients
	if first.Open != nil {
		clients = first.Open.Clients
	}
	p("## Big boards: a WEEK and a DAY board at main's scale (issue 37, target 1)")
	p("")
	p("For each kind of board, %d board(s) are created (`db.CreateBoard`: UTC, started five weeks before, a close grace of %s),", len(first.Closes), bigBoardCloseGrace)
	p("and each board's current period is seeded with %s players by `db.SeedPeriod` (main's seeded players and names, the", thousands(float64(first.Players)))
	p("scores of main's seeded distribution stretched over the board's range, `db.SeedSubscore`'s subscores on a tie-breaking board), then `VACUUM (ANALYZE)` of the database")
	p("and a checkpoint, as autovacuum and checkpoints would have done while a real period filled. The first board's period is read")
	p("open (`standing(board, period, playerId)` with ±10 neighbours and every name, random players, each answer checked as the")
	p("months' reads are, in the board's order) at 1 and %d clients. Each board's period is then closed through `closePeriod` over", clients)
	p("HTTP while %d clients read it (players drawn before the close), timed from the call to CLOSED (the mutation's answer, or", clients)
	p("when polling its row in `periods` every 25 ms first saw it CLOSED: the service, busy with the readers, may answer a poll")
	p("UNAVAILABLE for minutes); every read that starts within %s after counts, however long it", AfterCloseWindow)
	p("takes. The first board's closed period is read again at %d clients once the service holds it in memory, and each period", clients)
	p("is forgotten by that memory after its measurements, so that the next has room (main's closed month, when held, is pushed")
	p("out by the first). The seed is `db.SeedPeriod`'s, shared with `leaderboard seed --board`: on the DAY board, scores spread")
	p("over its range (few ties) and a subscore each, so every level of its counters and its tie-break are read.")
	p("")
	p("| Board | Case | Clients | Requests/s | p50 ms | p99 ms | Errors |")
	p("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, b := range r.BigBoards {
		for _, m := range []*Measurement{b.OpenOne, b.Open, b.Closed} {
			if m != nil && len(m.Runs) > 0 {
				p("| %s | %s | %d | %s | %s | %s | %d |", b.Kind.Name, strings.TrimPrefix(m.Case, b.Kind.Name+", "), m.Clients, rateText(m.Rate()),
					msText(m.P50()), msText(m.P99()), m.Errors())
			}
		}
	}
	for _, c := range []struct {
		system, kase, board string
		clients             int
	}{
		{SystemHTTP, CaseOpen, "main, this run", 1}, {SystemHTTP, CaseOpen, "main, this run", clients},
		{SystemHTTP, CaseClosed, "main, this run", clients}, {SystemRedis, CaseClosed, "the Redis design, this run", clients},
	} {
		if m := r.Find(c.system, c.kase, c.clients); m != nil {
			p("| %s | %s | %d | %s | %s | %s | %d |", c.board, m.Case, m.Clients, rateText(m.Rate()), msText(m.P50()), msText(m.P99()), m.Errors())
		}
	}
	p("")
	for _, b := range r.BigBoards {
		p("%s: closed reads served from %s.%s", b.Kind.Name, orUnknown(b.ClosedFrom), r.bigBoardRatios(b))
	}
	p("")
	p("| Board | Run | Period | Seed | closePeriod to CLOSED | Reads after | Reads/s | p50 ms | p99 ms | Slowest ms | Errors | Reads during: p99 / slowest ms | In memory after |")
	p("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, b := range r.BigBoards {
		for i, run := range b.Closes {
			s, d := run.Reads, run.During
			seed := "n/a"
			if i < len(b.Seeds) {
				seed = b.Seeds[i].Round(100 * time.Millisecond).String()
			}
			loaded := "not within the window"
			if run.Loaded > 0 {
				loaded = run.Loaded.Round(100 * time.Millisecond).String()
			}
			p("| %s | %d | %s | %s | %s | %d | %s | %s | %s | %s | %d | %s / %s | %s |", b.Kind.Name, i+1, run.Month, seed,
				run.Close.Round(100*time.Millisecond), s.Ops, thousands(s.Throughput()), fixed(milliseconds(s.P50)),
				fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)), s.Errors+d.Errors, fixed(milliseconds(d.P99)),
				fixed(milliseconds(d.Max)), loaded)
		}
	}
	p("")
	for _, b := range r.BigBoards {
		if len(b.Closes) == 0 {
			continue
		}
		var closes, rates, p50s, p99s, maxes []float64
		for _, run := range b.Closes {
			s := run.Reads
			closes, rates = append(closes, run.Close.Seconds()), append(rates, s.Throughput())
			p50s, p99s, maxes = append(p50s, milliseconds(s.P50)), append(p99s, milliseconds(s.P99)), append(maxes, milliseconds(s.Max))
		}
		c := SpreadOf(closes)
		p("%s, median of the runs (range): closePeriod %.1f s (%.1f–%.1f); after it %s reads/s, p50 %s ms, p99 %s ms, slowest %s ms.",
			b.Kind.Name, c.Median, c.Min, c.Max, rateText(SpreadOf(rates)), msText(SpreadOf(p50s)), msText(SpreadOf(p99s)), msText(SpreadOf(maxes)))
	}
	p("")
}

// bigBoardRatios writes b's reads against main's and Redis's in the same
// run, at the same clients; "" when none of them was measured.
func (r *Report) bigBoardRatios(b *BigBoard) string {
	var parts []string
	against := func(m *Measurement, system, kase, what string) {
		if m == nil || len(m.Runs) == 0 {
			return
		}
		if other := r.Find(system, kase, m.Clients); other != nil {
			parts = append(parts, fmt.Sprintf("%s at %d clients: %s", what, m.Clients, ratioText(m.Rate().Median, other.Rate().Median)))
		}
	}
	against(b.Open, SystemHTTP, CaseOpen, "open against main's open month")
	against(b.Closed, SystemHTTP, CaseClosed, "closed against main's closed month")
	against(b.Closed, SystemRedis, CaseClosed, "closed against the Redis design")
	if len(parts) == 0 {
		return ""
	}
	return " Requests/s in this run, " + strings.Join(parts, "; ") + "."
}
