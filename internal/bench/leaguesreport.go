package bench

import (
	"fmt"
	"strings"
	"time"
)

// The leagues' targets (issue 38, target 2), on the 2-core machine, for a
// league board of 1M players.
const (
	TargetLeagueWriteRatio = 0.8 // the league board's events/s over the same board's without cohorts
	TargetCohortP99        = 5.0 // ms, cohort(board, id) at targetClients
	TargetLeagueClose      = 30 * time.Second
	targetLeaguePlayers    = 1_000_000
)

// leagueTargets sets the leagues' targets against what the suite measured;
// none when it did not run.
func (r *Report) leagueTargets() []Verdict {
	l := r.Leagues
	if l == nil {
		return nil
	}
	at := ""
	if l.Filled != targetLeaguePlayers {
		at = fmt.Sprintf(" (at %s players; %s not measured)", thousands(float64(l.Filled)), shortCount(targetLeaguePlayers))
	}
	notMeasured := func(target string) Verdict { return Verdict{target, "not measured", "n/a"} }
	var out []Verdict

	target := fmt.Sprintf("League board (cohorts of %d, %d leagues): submitScores ≥ %.1f× the same board without cohorts",
		l.CohortSize, len(l.Leagues), TargetLeagueWriteRatio)
	if l.Writes == nil || l.PlainWrites == nil || len(l.Writes.Runs) == 0 || len(l.PlainWrites.Runs) == 0 {
		out = append(out, notMeasured(target))
	} else {
		rate, plain := l.Writes.Rate().Median, l.PlainWrites.Rate().Median
		out = append(out, Verdict{target, fmt.Sprintf("%s events/s against %s, %s; %d acknowledged, %d stored",
			rateText(l.Writes.Rate()), rateText(l.PlainWrites.Rate()), ratioText(rate, plain), l.Acknowledged, l.Stored),
			verdict(rate >= TargetLeagueWriteRatio*plain && l.Stored == l.Acknowledged && l.Writes.Errors()+l.PlainWrites.Errors() == 0)})
	}

	target = fmt.Sprintf("cohort(board, id), %d clients: p99 ≤ %g ms", targetClients, TargetCohortP99)
	if l.Reads == nil || len(l.Reads.Runs) == 0 {
		out = append(out, notMeasured(target))
	} else {
		p99 := l.Reads.P99()
		clients := ""
		if l.Reads.Clients != targetClients {
			clients = fmt.Sprintf(" at %d clients", l.Reads.Clients)
		}
		out = append(out, Verdict{target, fmt.Sprintf("p99 %s ms, %s req/s%s%s", msText(p99), rateText(l.Reads.Rate()), clients, at),
			verdict(p99.Median <= TargetCohortP99 && l.Reads.Errors() == 0 && l.Reads.Clients == targetClients)})
	}

	target = fmt.Sprintf("League board: closePeriod with promotion, from the call to CLOSED: ≤ %s", TargetLeagueClose)
	if l.Close == 0 {
		out = append(out, notMeasured(target))
	} else {
		out = append(out, Verdict{target, fmt.Sprintf("%s, %s promoted, %s demoted%s", l.Close.Round(100*time.Millisecond),
			thousands(float64(l.Promoted)), thousands(float64(l.Demoted)), at), verdict(l.Close <= TargetLeagueClose)})
	}
	return out
}

// leagueText describes leagues as "Bronze (promote 5, demote 0), ...".
func (l *LeaguesResult) leagueText() string {
	parts := make([]string, len(l.Leagues))
	for i, g := range l.Leagues {
		parts[i] = fmt.Sprintf("%s (promote %d, demote %d)", g.Name, g.Promote, g.Demote)
	}
	return strings.Join(parts, ", ")
}

// writeLeagues writes what the leagues suite measured.
func (r *Report) writeLeagues(p printer) {
	l := r.Leagues
	if l == nil {
		return
	}
	p("## Leagues: a league board's writes, cohorts and close (issue 38, target 2)")
	p("")
	p("Two WEEK boards (`db.CreateBoard`: DESC, 0..10,000, UTC, started five weeks before): one with cohorts of %d and the", l.CohortSize)
	p("leagues %s, the other the same without cohorts.", l.leagueText())
	p("Both start empty; submitScores (batches as the months' writes, ADD/BEST/SET of random players of %s, all events",
		thousands(float64(l.Players)))
	p("APPLIED or UNCHANGED) is primed on each for %s, unmeasured, then measured on each: players join the league board's", primeDuration)
	p("cohorts as their first events come, in the priming and the runs alike.")
	p("A seeded period has no cohorts (`db.SeedPeriod` writes no cohort_members), so the league board is then filled through")
	p("submitScores: one BEST event for every one of the %s players, in batches of %d: %s players in %s cohorts (largest %d),",
		thousands(float64(l.Players)), leagueFillBatch, thousands(float64(l.Filled)), thousands(float64(l.Cohorts)), l.Largest)
	p("%s in cohorts, in %s. `cohort(board, period, id)` is read for random cohorts of those (ids from cohort_members,",
		thousands(float64(l.Members)), l.Fill.Round(100*time.Millisecond))
	p("\"<league>-<n>\"), each answer checked: every member listed, ranked best first, at most %d. The period is then closed", l.CohortSize)
	p("through `closePeriod`, timed from the call to CLOSED.")
	p("")
	p("| Case | Clients | Rate | p50 ms | p99 ms | Slowest ms | Errors |")
	p("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, m := range []*Measurement{l.Writes, l.PlainWrites, l.Reads} {
		if m != nil && len(m.Runs) > 0 {
			p("| %s | %d | %s %s | %s | %s | %s | %d |", m.Case, m.Clients, rateText(m.Rate()), m.Unit, msText(m.P50()),
				msText(m.P99()), msText(m.latency(func(s RunStats) time.Duration { return s.Max })), m.Errors())
		}
	}
	p("")
	if l.Close > 0 {
		p("closePeriod of the league board: %s from the call to CLOSED; %s players promoted, %s demoted for the next period.",
			l.Close.Round(100*time.Millisecond), thousands(float64(l.Promoted)), thousands(float64(l.Demoted)))
		p("")
	}
}
