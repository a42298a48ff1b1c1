package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// leaguesReport is a report of the leagues suite alone at players: league
// writes at rate events/s against 10,000 without cohorts, cohort reads at
// p99 and a close of closeTook.
func leaguesReport(players, rate int, p99, closeTook time.Duration) *Report {
	run := func(clients, ops int, p99 time.Duration) []RunStats {
		return []RunStats{{Clients: clients, Ops: ops, Elapsed: 10 * time.Second, P50: p99 / 2, P99: p99, Max: 2 * p99}}
	}
	l := &LeaguesResult{Board: "bench-lc", Plain: "bench-ln", Key: "2026-W48", CohortSize: leagueCohortSize, Leagues: benchLeagues(),
		Writes:       &Measurement{Case: "submitScores, league board", Clients: 8, PerOp: 100, Unit: "events/s", Runs: run(8, rate/10, 40*time.Millisecond)},
		PlainWrites:  &Measurement{Case: "submitScores, same board without cohorts", Clients: 8, PerOp: 100, Unit: "events/s", Runs: run(8, 1000, 30*time.Millisecond)},
		Acknowledged: 500, Stored: 500, Players: players, Filled: players, Fill: time.Minute,
		Members: players, Cohorts: players / leagueCohortSize, Largest: leagueCohortSize,
		Reads: &Measurement{Case: "cohort(board, id)", Clients: 64, PerOp: 1, Unit: "req/s", Runs: run(64, 50_000, p99)},
		Close: closeTook, Promoted: players / 6}
	return &Report{NoMonths: true, Repeat: 1, Leagues: l}
}

func TestLeagueTargets(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *Report
		want string
	}{
		{"Met", leaguesReport(targetLeaguePlayers, 9000, 4*time.Millisecond, 20*time.Second), "met met met"},
		{"SlowWrites", leaguesReport(targetLeaguePlayers, 7000, 4*time.Millisecond, 20*time.Second), "not met met met"},
		{"SlowReadsAndClose", leaguesReport(targetLeaguePlayers, 9000, 6*time.Millisecond, 31*time.Second), "met not met not met"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := verdictsText(c.r.leagueTargets()); got != c.want {
				t.Fatalf("verdicts %q, want %q", got, c.want)
			}
		})
	}
	lost := leaguesReport(targetLeaguePlayers, 9000, 4*time.Millisecond, 20*time.Second)
	lost.Leagues.Stored--
	if v := lost.leagueTargets(); v[0].Verdict != "not met" {
		t.Errorf("a lost event meets the writes' target: %+v", v[0])
	}
	if v := (&Report{}).leagueTargets(); v != nil {
		t.Errorf("targets without the suite: %+v", v)
	}
}

func TestWriteMarkdown_LeaguesSection(t *testing.T) {
	var b bytes.Buffer
	if err := leaguesReport(5000, 9000, 4*time.Millisecond, 20*time.Second).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Leagues: a league board's writes, cohorts and close", "Bronze (promote 5, demote 0)",
		"Diamond (promote 0, demote 5)", "5,000 players in 166 cohorts (largest 30)", "| cohort(board, id) | 64 | 5,000 (5,000–5,000) req/s | 2.00 (2.00–2.00) | 4.00 (4.00–4.00) |",
		"0.90×", "(at 5,000 players; 1M not measured)", "20s from the call to CLOSED"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestCohortAnswerCheck(t *testing.T) {
	answer := func(raw string) cohortAnswer {
		var a cohortAnswer
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	const good = `{"cohort":{"id":"1-7","size":3,"members":[{"rank":1,"score":90},{"rank":1,"score":90},{"rank":3,"score":10}]}}`
	if err := answer(good).check("1-7", 30); err != nil {
		t.Errorf("a good cohort: %v", err)
	}
	for name, c := range map[string]struct {
		raw, id string
		most    int
	}{
		"None":       {`{"cohort":null}`, "1-7", 30},
		"OtherID":    {good, "1-8", 30},
		"TooBig":     {good, "1-7", 2},
		"SizeWrong":  {`{"cohort":{"id":"1-7","size":2,"members":[{"rank":1,"score":9}]}}`, "1-7", 30},
		"OutOfOrder": {`{"cohort":{"id":"1-7","size":2,"members":[{"rank":1,"score":9},{"rank":2,"score":10}]}}`, "1-7", 30},
	} {
		if err := answer(c.raw).check(c.id, c.most); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWriteTable_GroupsAndLeagues(t *testing.T) {
	r := leaguesReport(5000, 9000, 4*time.Millisecond, 20*time.Second)
	r.Groups = groupsReport(5000, 3500, 20*time.Millisecond).Groups
	var b bytes.Buffer
	if err := r.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cohort(board, id)", "submitScores, same board without cohorts", "groupStandings of WEEK board, closed period"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}
