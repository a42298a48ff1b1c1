package bench

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// groupsReport is a report of the groups suite alone at players: 200 ids
// at rate req/s on each period, 1,000 ids at p99.
func groupsReport(players int, rate int, p99 time.Duration) *Report {
	g := &GroupsResult{Players: players, Board: "bench-gw", Key: "2026-W48", ClosedFrom: "the service's memory", Close: 20 * time.Second}
	for _, c := range []struct {
		period string
		closed bool
	}{{"main, open month 2026-11", false}, {"WEEK board, open period", false}, {"WEEK board, closed period", true}} {
		small := RunStats{Clients: groupClients, Ops: rate * 10, Elapsed: 10 * time.Second, P50: 4 * time.Millisecond, P99: 9 * time.Millisecond}
		large := RunStats{Clients: groupClients, Ops: 3000, Elapsed: 10 * time.Second, P50: p99 / 2, P99: p99}
		for _, s := range []struct {
			size int
			run  RunStats
		}{{groupSmall, small}, {groupLarge, large}} {
			g.Cases = append(g.Cases, GroupCase{Period: c.period, Closed: c.closed, Size: s.size,
				M: &Measurement{System: SystemHTTP, Case: "groupStandings of " + c.period, Clients: groupClients, PerOp: 1, Unit: "req/s", Runs: []RunStats{s.run}}})
		}
	}
	return &Report{NoMonths: true, Repeat: 1, Groups: g}
}

func TestGroupTargets_ClosedHeldToTheHigherRate(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *Report
		want string
	}{
		{"AllMet", groupsReport(targetGroupPlayers, 3500, 20*time.Millisecond), "met met met met met met"},
		{"OpenOnly", groupsReport(targetGroupPlayers, 2000, 20*time.Millisecond), "met met met met not met met"},
		{"SlowLargeGroups", groupsReport(targetGroupPlayers, 3500, 30*time.Millisecond), "met not met met not met met not met"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := verdictsText(c.r.groupTargets()); got != c.want {
				t.Fatalf("verdicts %q, want %q", got, c.want)
			}
		})
	}
	if v := groupsReport(5000, 3500, 20*time.Millisecond).groupTargets(); !strings.Contains(v[0].Measured, "(at 5,000 players; 10M not measured)") {
		t.Errorf("a smaller period is not said: %s", v[0].Measured)
	}
	if v := (&Report{}).groupTargets(); v != nil {
		t.Errorf("targets without the suite: %+v", v)
	}
}

func TestWriteMarkdown_GroupsSection(t *testing.T) {
	var b bytes.Buffer
	if err := groupsReport(targetGroupPlayers, 3500, 20*time.Millisecond).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Groups: groupStandings, a friends board", "| WEEK board, closed period | 200 | 8 | 3,500",
		"| main, open month 2026-11 | 1000 | 8 | 300", "groupStandings of 1000 ids, WEEK board, open period, 8 clients: p99 ≤ 25 ms",
		"served from the service's memory"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestGroupAnswerCheck(t *testing.T) {
	answer := func(raw string) groupAnswer {
		var a groupAnswer
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	const ties = `{"groupStandings":[{"groupRank":1,"standing":{"rank":3,"final":true}},
		{"groupRank":1,"standing":{"rank":3,"final":true}},{"groupRank":3,"standing":{"rank":9,"final":true}}]}`
	if err := answer(ties).check(3, ExpectFinal); err != nil {
		t.Errorf("ties: %v", err)
	}
	for name, c := range map[string]struct {
		raw      string
		want     int
		finality Finality
	}{
		"Missing":      {ties, 4, ExpectFinal},
		"NotFinal":     {ties, 3, ExpectLive},
		"FirstNotOne":  {`{"groupStandings":[{"groupRank":2,"standing":{"rank":3}}]}`, 1, ExpectLive},
		"RankFallback": {`{"groupStandings":[{"groupRank":1,"standing":{"rank":3}},{"groupRank":2,"standing":{"rank":2}}]}`, 2, ExpectLive},
		"GroupRankGap": {`{"groupStandings":[{"groupRank":1,"standing":{"rank":3}},{"groupRank":3,"standing":{"rank":4}}]}`, 2, ExpectLive},
	} {
		if err := answer(c.raw).check(c.want, c.finality); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestDistinctSeeded_DrawsDistinctSeededPlayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := distinctSeeded(rng, groupLarge, groupLarge)
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] || !strings.HasPrefix(id, "player-") {
			t.Fatalf("id %q drawn twice or not a seeded player", id)
		}
		seen[id] = true
	}
	if len(ids) != groupLarge {
		t.Fatalf("%d ids, want %d", len(ids), groupLarge)
	}
}

func TestRuns_OptInSuitesOnlyWhenNamed(t *testing.T) {
	if (Config{}).runs(SuiteGroups) || (Config{}).runs(SuiteLeagues) || !(Config{}).runs(SuiteReads) {
		t.Error("a run naming no suites runs the opt-in suites, or not the default ones")
	}
	if cfg := (Config{Suites: []string{SuiteLeagues}}); !cfg.runs(SuiteLeagues) || cfg.runs(SuiteReads) || cfg.measuresMonths() {
		t.Error("--suites leagues does not run leagues alone without months")
	}
}
