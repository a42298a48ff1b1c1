package app

import (
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// Each month's demo data has a seed of its own, the same on every machine.
func TestDemoSeed_OnePerMonthTheSameEverywhere(t *testing.T) {
	november, err := leaderboard.NewMonth(2026, time.November)
	if err != nil {
		t.Fatal(err)
	}
	if got := demoSeed(november); got != 202611 {
		t.Errorf("demoSeed(2026-11) = %d, want 202611", got)
	}
	seen := map[uint64]leaderboard.Month{}
	for m := november; m.Year() >= 2000; m = m.Prev() {
		if other, ok := seen[demoSeed(m)]; ok {
			t.Fatalf("%s and %s share the demo seed %d", m, other, demoSeed(m))
		}
		seen[demoSeed(m)] = m
	}
}
