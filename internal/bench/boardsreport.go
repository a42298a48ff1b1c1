package bench

import (
	"fmt"
	"time"
)

// The boards' targets (issue 26, targets 5 and 6), on the 2-core machine.
const (
	TargetCreateBoardP99     = 50.0 // ms, createBoard at targetCreateBoardClients callers
	TargetCatalogueDelta     = 100  // relations gained by the catalogue, at most
	targetCreateBoards       = 1000
	targetCreateBoardClients = 16
	targetCatalogueBoards    = 10_000
	targetCataloguePerBoard  = 30
)

// boardTargets sets the boards' targets against what the suite measured;
// none when it did not run.
func (r *Report) boardTargets() []Verdict {
	b := r.Boards
	if b == nil {
		return nil
	}
	var out []Verdict
	target := fmt.Sprintf("createBoard, %s boards by %d callers on two instances: each created once, p99 ≤ %g ms", thousands(targetCreateBoards), targetCreateBoardClients, TargetCreateBoardP99)
	if len(b.Creates) == 0 {
		out = append(out, Verdict{target, "not measured", "n/a"})
	} else {
		first := b.Creates[0]
		once, again := true, true
		var p99s, rates []float64
		for _, run := range b.Creates {
			once = once && run.Created == run.Boards && run.Rows == run.Boards && run.Stats.Errors == 0
			again = again && run.Existing == run.Boards && run.Again.Errors == 0
			p99s, rates = append(p99s, milliseconds(run.Stats.P99)), append(rates, run.Stats.Throughput())
		}
		p99 := SpreadOf(p99s).Median
		measured := fmt.Sprintf("p99 %s ms, %s boards/s; every run created each board once: %s", fixed(p99),
			thousands(SpreadOf(rates).Median), yesNo(once))
		if first.Boards != targetCreateBoards || first.Stats.Clients != targetCreateBoardClients {
			measured += fmt.Sprintf(" (at %s boards, %d callers)", thousands(float64(first.Boards)), first.Stats.Clients)
		}
		out = append(out, Verdict{target, measured, verdict(once && p99 <= TargetCreateBoardP99)})
		var againP99s []float64
		for _, run := range b.Creates {
			againP99s = append(againP99s, milliseconds(run.Again.P99))
		}
		out = append(out, Verdict{"createBoard repeated identically answers created: false",
			fmt.Sprintf("every repeat: %s; p99 %s ms", yesNo(again), fixed(SpreadOf(againP99s).Median)), verdict(again)})
	}

	c := b.Catalogue
	target = fmt.Sprintf("Catalogue: relations in pg_class after %s boards × %d closed DAY periods, against one board: at most +%d",
		thousands(targetCatalogueBoards), targetCataloguePerBoard, TargetCatalogueDelta)
	if !c.Measured {
		return append(out, Verdict{target, "not measured", "n/a"})
	}
	measured := fmt.Sprintf("%+d (%d before, %d after)", c.Delta(), c.RelationsBefore, c.RelationsAfter)
	if c.Boards != targetCatalogueBoards || c.PeriodsPerBoard != targetCataloguePerBoard {
		measured += fmt.Sprintf(" at %s boards × %d periods", thousands(float64(c.Boards)), c.PeriodsPerBoard)
	}
	return append(out, Verdict{target, measured, verdict(c.Delta() <= TargetCatalogueDelta)})
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// writeBoards writes what the boards suite measured.
func (r *Report) writeBoards(p printer) {
	b := r.Boards
	if b == nil {
		return
	}
	p("## Boards: createBoard and the catalogue")
	p("")
	if len(b.Creates) > 0 {
		first := b.Creates[0]
		p("Each run creates %s new boards (a DAY board in Europe/Berlin, ASC, with bounds and a subscore tie-break) through",
			thousands(float64(first.Boards)))
		p("`createBoard` over HTTP with the admin token: %d callers, half on each of two instances of the service on the same",
			first.Stats.Clients)
		p("database, each taking the next board as soon as its answer is in; then the same requests again, identical, which")
		p("must answer created: false. Created counts the answers created: true, rows the boards rows afterwards.")
		p("")
		p("| Run | Boards | Created | Rows | Boards/s | p50 ms | p99 ms | Slowest ms | Repeated: created false | Repeat p50 ms | Repeat p99 ms | Errors |")
		p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		var rates, p50s, p99s, maxes, againP50s, againP99s []float64
		for i, run := range b.Creates {
			s, a := run.Stats, run.Again
			p("| %d | %d | %d | %d | %s | %s | %s | %s | %d | %s | %s | %d |", i+1, run.Boards, run.Created, run.Rows,
				thousands(s.Throughput()), fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)),
				run.Existing, fixed(milliseconds(a.P50)), fixed(milliseconds(a.P99)), s.Errors+a.Errors)
			rates, p50s, p99s = append(rates, s.Throughput()), append(p50s, milliseconds(s.P50)), append(p99s, milliseconds(s.P99))
			maxes = append(maxes, milliseconds(s.Max))
			againP50s, againP99s = append(againP50s, milliseconds(a.P50)), append(againP99s, milliseconds(a.P99))
		}
		p("")
		p("Median of the runs (range): %s boards/s, p50 %s ms, p99 %s ms, slowest %s ms; repeated, p50 %s ms, p99 %s ms.",
			rateText(SpreadOf(rates)), msText(SpreadOf(p50s)), msText(SpreadOf(p99s)), msText(SpreadOf(maxes)),
			msText(SpreadOf(againP50s)), msText(SpreadOf(againP99s)))
		p("")
	}
	c := b.Catalogue
	if !c.Measured {
		return
	}
	s := c.Create
	p("The catalogue: relations in `pg_class` counted before the suite's first board (main alone, with the months of the")
	p("other suites if they ran) and after %s more boards, created the same way (%s boards/s, p50 %s ms, p99 %s ms, slowest",
		thousands(float64(c.Boards)), thousands(s.Throughput()), fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)))
	p("%s ms), each given %d CLOSED DAY periods (the days before today in its zone, 100 participants and a digest each),",
		fixed(milliseconds(s.Max)), c.PeriodsPerBoard)
	p("%s rows inserted with one SQL statement in %s. SQL, because in this slice a DAY board's periods are made only by",
		thousands(float64(c.Boards*c.PeriodsPerBoard)), c.Periods.Round(time.Millisecond))
	p("events, which boards other than main do not take yet: the rows are those the periods' closes would leave.")
	p("")
	p("| Relations before | Relations after | Delta | boards rows | periods rows | boards, with indexes | periods, with indexes |")
	p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	p("| %d | %d | %+d | %s | %s | %s | %s |", c.RelationsBefore, c.RelationsAfter, c.Delta(),
		thousands(float64(c.BoardRows)), thousands(float64(c.PeriodRows)), bytesText(uint64(c.BoardBytes)), bytesText(uint64(c.PeriodBytes)))
	p("")
}
