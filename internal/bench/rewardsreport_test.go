package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// rewardsReport is a report of the rewards suite alone with claims at rate
// claims/s and unclaimedRewards at p99, lost claims rows missing.
func rewardsReport(rate int, p99 time.Duration, standings int64, lost int) *Report {
	claims := RunStats{Clients: 8, Ops: rate * 10, Elapsed: 10 * time.Second, P50: time.Millisecond, P99: 3 * time.Millisecond}
	reads := RunStats{Clients: 1, Ops: 2000, Elapsed: 5 * time.Second, P50: p99 / 2, P99: p99}
	return &Report{NoMonths: true, Repeat: 1, Rewards: &RewardsResult{Players: 1_000_000, ClaimsPerRun: rate * 10,
		Claims: []RunStats{claims}, Claimed: rate * 10, Rows: rate*10 - lost, HistoryPeriods: 1000, HistoryPlayers: 10_000,
		Standings: standings, First: 50, Returned: 50, Unclaimed: []RunStats{reads}}}
}

func TestRewardTargets_MetOnlyAtTheTargetsWithEveryClaimStored(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     *Report
		claim string
		read  string
	}{
		{"Met", rewardsReport(6000, 8*time.Millisecond, 10_500_000, 0), "met", "met"},
		{"SlowClaimsAndReads", rewardsReport(4000, 12*time.Millisecond, 10_500_000, 0), "not met", "not met"},
		{"LostClaim", rewardsReport(6000, 8*time.Millisecond, 10_500_000, 1), "not met", "met"},
		{"FewerStandings", rewardsReport(6000, 8*time.Millisecond, 1_000_000, 0), "met", "not met"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := c.r.rewardTargets()
			if len(v) != 2 || v[0].Verdict != c.claim || v[1].Verdict != c.read {
				t.Fatalf("verdicts %+v, want %s and %s", v, c.claim, c.read)
			}
			if c.name == "FewerStandings" && !strings.Contains(v[1].Measured, "1,000,000 claimable standings") {
				t.Errorf("a smaller total is not said: %s", v[1].Measured)
			}
		})
	}
	if v := (&Report{}).rewardTargets(); v != nil {
		t.Errorf("targets without the suite: %+v", v)
	}
}

func TestWriteMarkdown_RewardsSection(t *testing.T) {
	var b bytes.Buffer
	if err := rewardsReport(6000, 8*time.Millisecond, 10_500_000, 0).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Rewards: claimReward and unclaimedRewards", "| 1 | 60000 | 6,000 | 1.00 | 3.00 |",
		"| 1 | 2000 | 400 | 4.00 | 8.00 |", "claimReward ≥ 5,000 claims/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}
