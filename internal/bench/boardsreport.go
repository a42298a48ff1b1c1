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
		out = append(out, Verdict{target, "not measured", "n/a"})
	} else {
		measured := fmt.Sprintf("%+d (%d before, %d after)", c.Delta(), c.RelationsBefore, c.RelationsAfter)
		if c.Boards != targetCatalogueBoards || c.PeriodsPerBoard != targetCataloguePerBoard {
			measured += fmt.Sprintf(" at %s boards × %d periods", thousands(float64(c.Boards)), c.PeriodsPerBoard)
		}
		out = append(out, Verdict{target, measured, verdict(c.Delta() <= TargetCatalogueDelta)})
	}
	if b.Scores != nil {
		out = append(out, b.Scores.scoreTargets()...)
	}
	return out
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
	if b.Scores != nil {
		defer b.Scores.writeScores(p)
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
	p("%s rows inserted with one SQL statement in %s: the rows those periods' closes would leave, without a month of",
		thousands(float64(c.Boards*c.PeriodsPerBoard)), c.Periods.Round(time.Millisecond))
	p("events and closes to make them.")
	p("")
	p("| Relations before | Relations after | Delta | boards rows | periods rows | boards, with indexes | periods, with indexes |")
	p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	p("| %d | %d | %+d | %s | %s | %s | %s |", c.RelationsBefore, c.RelationsAfter, c.Delta(),
		thousands(float64(c.BoardRows)), thousands(float64(c.PeriodRows)), bytesText(uint64(c.BoardBytes)), bytesText(uint64(c.PeriodBytes)))
	p("")
}

// The targets of scores on boards (issue 26, targets 1 to 3).
const (
	TargetStormClose     = 30 * time.Second // every period closed after closesAt
	TargetStormReadP99   = 50.0             // ms, ±10 reads of the big board during the storm
	TargetStormDelivered = 60 * time.Second // every period.closed delivered after closesAt (issue 36)
	TargetBoardWriteRate = 20000.0          // events/s, batches of 100, 8 clients
	TargetSmallOpenRate  = 2700.0           // req/s, 64 clients
	TargetSmallClosed    = 15000.0          // req/s, 64 clients
	targetStormBoards    = 10_000
	targetStormPlayers   = 100
	targetBigBoard       = 10_000_000
	targetStormReaders   = 8
	targetWriteBoards    = 10_000
	targetWriteClients   = 8
)

// scoreTargets sets targets 1 to 3 against what the suite measured of
// scores on boards.
func (s *BoardScores) scoreTargets() []Verdict {
	var out []Verdict
	storm := fmt.Sprintf("Midnight storm: %s DAY boards of %d players due at once beside an open %s-player month, two instances: every period CLOSED with its digest and message within %s of closesAt",
		thousands(targetStormBoards), targetStormPlayers, shortCount(targetBigBoard), TargetStormClose)
	reads := fmt.Sprintf("Midnight storm: ±10 reads of the big board meanwhile, %d clients: p99 ≤ %g ms", targetStormReaders, TargetStormReadP99)
	delivery := fmt.Sprintf("Midnight storm: every period.closed delivered to a webhook answering at once within %s of closesAt", TargetStormDelivered)
	if len(s.Storms) == 0 {
		out = append(out, Verdict{storm, "not measured", "n/a"}, Verdict{reads, "not measured", "n/a"}, Verdict{delivery, "not measured", "n/a"})
	} else {
		var seen, p99s, delivered []float64
		every, everyDelivered := true, true
		for _, run := range s.Storms {
			delivered = append(delivered, run.AllDelivered.Seconds())
			everyDelivered = everyDelivered && !run.DeliveryTimedOut
			seen = append(seen, run.AllSeen.Seconds())
			p99s = append(p99s, milliseconds(run.During.P99))
			every = every && !run.TimedOut && run.Closed == run.Boards && run.Messages == run.Boards && run.FinalRanks == run.Boards*run.Players
		}
		first := s.Storms[0]
		at := ""
		if first.Boards != targetStormBoards || first.Players != targetStormPlayers || s.BigBoardPlayers != targetBigBoard {
			at = fmt.Sprintf(" (at %s boards × %d players beside %s players; %s not measured)", thousands(float64(first.Boards)),
				first.Players, thousands(float64(s.BigBoardPlayers)), shortCount(targetBigBoard))
		}
		spread := SpreadOf(seen)
		out = append(out, Verdict{storm, fmt.Sprintf("all CLOSED %.1f s (%.1f–%.1f) after closesAt; each once with digest, participants, final ranks and one period.closed message: %s%s",
			spread.Median, spread.Min, spread.Max, yesNo(every), at), verdict(every && spread.Median <= TargetStormClose.Seconds())})
		p99 := SpreadOf(p99s)
		out = append(out, Verdict{reads, fmt.Sprintf("p99 %s ms%s", msText(p99), at), verdict(p99.Median <= TargetStormReadP99)})
		d := SpreadOf(delivered)
		out = append(out, Verdict{delivery, fmt.Sprintf("all delivered %.1f s (%.1f–%.1f) after closesAt%s", d.Median, d.Min, d.Max, at),
			verdict(everyDelivered && d.Median <= TargetStormDelivered.Seconds())})
	}

	writes := fmt.Sprintf("Writes spread over boards: events for random boards among %s, batches of 100, %d clients: ≥ %s events/s, acknowledged = stored",
		thousands(targetWriteBoards), targetWriteClients, thousands(TargetBoardWriteRate))
	if w := s.Writes; w == nil || len(w.Runs) == 0 {
		out = append(out, Verdict{writes, "not measured", "n/a"})
	} else {
		rate := w.Rate()
		measured := fmt.Sprintf("%s events/s; %s acknowledged, %s stored", rateText(rate), thousands(float64(s.Acknowledged)), thousands(float64(s.Stored)))
		if s.WriteBoards != targetWriteBoards || w.Clients != targetWriteClients {
			measured += fmt.Sprintf(" (over %s boards, %d clients)", thousands(float64(s.WriteBoards)), w.Clients)
		}
		out = append(out, Verdict{writes, measured, verdict(rate.Median >= TargetBoardWriteRate && s.Acknowledged == s.Stored && w.Errors() == 0)})
	}
	for _, c := range []struct {
		m      *Measurement
		what   string
		target float64
	}{{s.Open, "open", TargetSmallOpenRate}, {s.Closed, "closed", TargetSmallClosed}} {
		target := fmt.Sprintf("Small board: ±10 on a %d-player board, %d clients, %s period: ≥ %s req/s", targetStormPlayers, targetClients, c.what, thousands(c.target))
		if c.m == nil || len(c.m.Runs) == 0 {
			out = append(out, Verdict{target, "not measured", "n/a"})
			continue
		}
		rate := c.m.Rate()
		measured := fmt.Sprintf("%s req/s, p99 %s ms", rateText(rate), msText(c.m.P99()))
		if s.SmallPlayers != targetStormPlayers || c.m.Clients != targetClients {
			measured += fmt.Sprintf(" (%d players, %d clients)", s.SmallPlayers, c.m.Clients)
		}
		out = append(out, Verdict{target, measured, verdict(rate.Median >= c.target && c.m.Errors() == 0)})
	}
	return out
}

// deliveredText writes when a storm's messages were all delivered, or that
// they were not.
func deliveredText(run StormRun) string {
	if run.DeliveryTimedOut {
		return fmt.Sprintf("not all in %s", run.AllDelivered.Round(time.Second))
	}
	return run.AllDelivered.Round(10 * time.Millisecond).String()
}

// shortCount writes 10,000,000 as 10M, 1,000,000 as 1M.
func shortCount(n int) string {
	if n >= 1_000_000 && n%1_000_000 == 0 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return thousands(float64(n))
}

// writeScores writes what the boards suite measured of scores on boards.
func (s *BoardScores) writeScores(p printer) {
	p("## Boards: the midnight storm, writes over many boards, small boards read (issue 26, targets 1 to 3)")
	p("")
	if len(s.Storms) > 0 {
		first := s.Storms[0]
		p("**The midnight storm.** Each run inserts with SQL, in one transaction, %s DAY boards (UTC, DESC, no tie-break), each",
			thousands(float64(first.Boards)))
		p("with yesterday's period OPEN and %d players' scores in `board_scores` (main's seeded players, scores 0..1000 with ties),", first.Players)
		p("then ANALYZE; last in the transaction it sets the boards' close grace so that yesterday's period (ended at midnight UTC)")
		p("closes %s after the seed, on a whole second: every period due at the same instant. Two instances of the service,", s.Lead)
		p("started for the storms with `LEADERBOARD_AUTO_CLOSE` on, `LEADERBOARD_SCHEDULER_INTERVAL=%s`, `LEADERBOARD_PERIOD_CLOSES=%d`", s.SchedulerInterval, s.PeriodCloses)
		p("and a webhook that answers 204 (so that settlement messages are recorded and delivered), close them by themselves;")
		p("meanwhile %d clients, half on each of those instances, read ±10 standings of random players of main's open month", first.Before.Clients)
		bigBoard := fmt.Sprintf("(%s players", thousands(float64(s.BigBoardPlayers)))
		if s.BigBoardSeeded {
			bigBoard += ", seeded by the suite with db.SeedPeriod"
		}
		p("%s. \"All CLOSED\" is when polling (every 100 ms) first saw no period of the run left open, after closesAt;", bigBoard+")")
		p("first and last are the periods' `closed_at`. Checked after: each period CLOSED with a digest and %d participants, exactly", first.Players)
		p("one `period.closed` row in the outbox, and its final ranks.")
		p("")
		p("| Run | Seed | All CLOSED after closesAt | First closed | Last closed | Closed right | One message | Final ranks | Delivered by then | All delivered after closesAt | Reads before: p50 / p99 ms | Reads during: req/s | p50 ms | p99 ms | Slowest ms | Read errors |")
		p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		var seen, rates, p50s, p99s, maxes []float64
		for i, run := range s.Storms {
			d := run.During
			p("| %d | %s | %s | %s | %s | %d | %d | %s | %d | %s | %s / %s | %s | %s | %s | %s | %d |", i+1, run.Seed.Round(100*time.Millisecond),
				run.AllSeen.Round(10*time.Millisecond), run.FirstClosed.Round(10*time.Millisecond), run.LastClosed.Round(10*time.Millisecond),
				run.Closed, run.Messages, thousands(float64(run.FinalRanks)), run.Delivered, deliveredText(run),
				fixed(milliseconds(run.Before.P50)), fixed(milliseconds(run.Before.P99)), thousands(d.Throughput()),
				fixed(milliseconds(d.P50)), fixed(milliseconds(d.P99)), fixed(milliseconds(d.Max)), run.Before.Errors+d.Errors)
			seen = append(seen, run.AllSeen.Seconds())
			rates, p50s, p99s = append(rates, d.Throughput()), append(p50s, milliseconds(d.P50)), append(p99s, milliseconds(d.P99))
			maxes = append(maxes, milliseconds(d.Max))
		}
		sp := SpreadOf(seen)
		p("")
		p("Median of the runs (range): all CLOSED %.1f s (%.1f–%.1f) after closesAt, %s ms a period over both instances; reads", sp.Median, sp.Min, sp.Max,
			fixed(sp.Median*1000/float64(first.Boards)))
		p("during the storm %s req/s, p50 %s ms, p99 %s ms, slowest %s ms. Relations in `pg_class` after the storms: %d (main's",
			rateText(SpreadOf(rates)), msText(SpreadOf(p50s)), msText(SpreadOf(p99s)), msText(SpreadOf(maxes)), s.RelationsAfter)
		p("open month included when the suite seeded it, and the final ranks' partition of the month).")
		p("")
	}
	if w := s.Writes; w != nil && len(w.Runs) > 0 {
		p("**Writes spread over boards.** %s more DAY boards inserted with SQL without periods (the events open today's). Each",
			thousands(float64(s.WriteBoards)))
		p("batch: %d events, each for a random one of those boards and a random one of main's seeded players (40%% ADD 1..10,", w.PerOp)
		p("30%% BEST and 30%% SET 0..3000), by %d clients on the first instance, each answer checked (every event APPLIED or", w.Clients)
		p("UNCHANGED); %s of it unmeasured first, then ANALYZE, as the months' submits are primed. Acknowledged counts the", primeDuration)
		p("events answered so, priming included; stored the `board_score_events` rows with the run's event ids.")
		p("")
		p("| Run | Events/s | Batch p50 ms | p99 ms | Slowest ms | Errors |")
		p("| ---: | ---: | ---: | ---: | ---: | ---: |")
		for i, run := range w.Runs {
			p("| %d | %s | %s | %s | %s | %d |", i+1, thousands(run.Throughput()*float64(w.PerOp)), fixed(milliseconds(run.P50)),
				fixed(milliseconds(run.P99)), fixed(milliseconds(run.Max)), run.Errors)
		}
		p("")
		p("Median (range): %s events/s, batch p99 %s ms; %s acknowledged, %s stored.", rateText(w.Rate()), msText(w.P99()),
			thousands(float64(s.Acknowledged)), thousands(float64(s.Stored)))
		p("")
	}
	if s.Open != nil || s.Closed != nil {
		p("**Small boards read.** `standing(board, period, playerId)` with ±10 neighbours and every name, each answer checked as")
		p("the months' reads are, on one board of %d players: its current period (seeded with SQL), and the closed period of", s.SmallPlayers)
		p("the first storm's first board (final ranks in `board_final_ranks`), read by the first instance.")
		p("")
		p("| Case | Clients | Requests/s | p50 ms | p99 ms | Errors |")
		p("| --- | ---: | ---: | ---: | ---: | ---: |")
		for _, m := range []*Measurement{s.Open, s.Closed} {
			if m != nil {
				p("| %s | %d | %s | %s | %s | %d |", m.Case, m.Clients, rateText(m.Rate()), msText(m.P50()), msText(m.P99()), m.Errors())
			}
		}
		p("")
	}
}
