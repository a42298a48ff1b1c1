package bench

import "fmt"

// The rewards' targets (issue 27), on the 2-core machine.
const (
	TargetClaimRate      = 5000.0 // claims/s at targetClaimClients game servers
	TargetUnclaimedP99   = 10.0   // ms, unclaimedRewards at one client
	targetClaimClients   = 8
	targetClaimPlayers   = 1_000_000
	targetHistoryPeriods = 1000
	targetStandings      = 10_000_000
)

// rewardTargets sets the rewards' targets against what the suite measured;
// none when it did not run.
func (r *Report) rewardTargets() []Verdict {
	w := r.Rewards
	if w == nil {
		return nil
	}
	var out []Verdict
	target := fmt.Sprintf("claimReward ≥ %s claims/s at %d clients on a %s-player closed period",
		thousands(TargetClaimRate), targetClaimClients, thousands(targetClaimPlayers))
	if len(w.Claims) == 0 {
		out = append(out, Verdict{target, "not measured", "n/a"})
	} else {
		rates, p50s, p99s := w.claimSpreads()
		measured := fmt.Sprintf("%s claims/s, p50 %s ms, p99 %s ms; %d CLAIMED, %d rows", thousands(rates.Median),
			fixed(p50s.Median), fixed(p99s.Median), w.Claimed, w.Rows)
		if w.Players != targetClaimPlayers || w.Claims[0].Clients != targetClaimClients {
			measured += fmt.Sprintf(" (at %s players, %d clients)", thousands(float64(w.Players)), w.Claims[0].Clients)
		}
		out = append(out, Verdict{target, measured, verdict(rates.Median >= TargetClaimRate && w.Rows == w.Claimed)})
	}
	target = fmt.Sprintf("unclaimedRewards for a player with standings in %s closed periods: p99 ≤ %g ms at one client, %s claimable standings",
		thousands(targetHistoryPeriods), TargetUnclaimedP99, thousands(targetStandings))
	if len(w.Unclaimed) == 0 {
		out = append(out, Verdict{target, "not measured", "n/a"})
	} else {
		_, p50s, p99s := spreads(w.Unclaimed)
		measured := fmt.Sprintf("p99 %s ms, p50 %s ms, %d standings a page", fixed(p99s.Median), fixed(p50s.Median), w.Returned)
		if w.HistoryPeriods != targetHistoryPeriods || w.Standings < targetStandings {
			measured += fmt.Sprintf(" (at %s periods, %s claimable standings)", thousands(float64(w.HistoryPeriods+1)),
				thousands(float64(w.Standings)))
		}
		out = append(out, Verdict{target, measured, verdict(p99s.Median <= TargetUnclaimedP99 && w.Standings >= targetStandings)})
	}
	return out
}

// claimSpreads are the claims' rates, p50s and p99s over the runs.
func (w *RewardsResult) claimSpreads() (rates, p50s, p99s Spread) {
	return spreads(w.Claims)
}

// spreads are the rates, p50s and p99s of runs.
func spreads(runs []RunStats) (rates, p50s, p99s Spread) {
	var r, a, b []float64
	for _, s := range runs {
		r, a, b = append(r, s.Throughput()), append(a, milliseconds(s.P50)), append(b, milliseconds(s.P99))
	}
	return SpreadOf(r), SpreadOf(a), SpreadOf(b)
}

// writeRewards writes what the rewards suite measured.
func (r *Report) writeRewards(p printer) {
	w := r.Rewards
	if w == nil {
		return
	}
	p("## Rewards: claimReward and unclaimedRewards")
	p("")
	if len(w.Unclaimed) > 0 {
		p("unclaimedRewards(playerId, first: %d) over HTTP with the game-server token, one client, for random players each", w.First)
		p("with a final standing in %s closed DAY periods of one board (the days before today, %s players each, written with SQL",
			thousands(float64(w.HistoryPeriods)), thousands(float64(w.HistoryPlayers)))
		p("from the claim period's final ranks) and in the claim period: %s final standings unclaimed in the database.",
			thousands(float64(w.Standings)))
		p("")
		p("| Run | Reads | Reads/s | p50 ms | p99 ms | Slowest ms | Errors |")
		p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		for i, s := range w.Unclaimed {
			p("| %d | %d | %s | %s | %s | %s | %d |", i+1, s.Ops, thousands(s.Throughput()), fixed(milliseconds(s.P50)),
				fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)), s.Errors)
		}
		rates, p50s, p99s := spreads(w.Unclaimed)
		p("")
		p("Median of the runs (range): %s reads/s, p50 %s ms, p99 %s ms.", rateText(rates), msText(p50s), msText(p99s))
		p("")
	}
	if len(w.Claims) > 0 {
		p("claimReward over HTTP with the game-server token on a closed DAY period of %s players (SeedPeriod, ClosePeriod):",
			thousands(float64(w.Players)))
		p("each run claims the standings of %s players no run claimed before, %d clients each taking the next player as soon",
			thousands(float64(w.ClaimsPerRun)), w.Claims[0].Clients)
		p("as its answer is in, each on its own keep-alive HTTP/1.1 connection written and read on the client's goroutine")
		p("(KeepAliveConn). Every answer must be CLAIMED with its own claimId, and leave one claims row.")
		p("")
		p("| Run | Claims | Claims/s | p50 ms | p99 ms | Slowest ms | Errors | CPU ms a claim: bench process | CPU ms a claim: PostgreSQL |")
		p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		for i, s := range w.Claims {
			process, postgres := claimCPU(s)
			p("| %d | %d | %s | %s | %s | %s | %d | %s | %s |", i+1, s.Ops, thousands(s.Throughput()), fixed(milliseconds(s.P50)),
				fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)), s.Errors, cpuText(process), cpuText(postgres))
		}
		rates, p50s, p99s := w.claimSpreads()
		p("")
		p("Median of the runs (range): %s claims/s, p50 %s ms, p99 %s ms; %d answered CLAIMED, %d claims rows.",
			rateText(rates), msText(p50s), msText(p99s), w.Claimed, w.Rows)
		p("")
	}
}
