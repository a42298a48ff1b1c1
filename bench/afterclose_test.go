package bench

import (
	"errors"
	"testing"
	"time"
)

// Every read after a close counts, however slow; failures count apart.
func TestStatsOf_CountsEveryRead(t *testing.T) {
	now := time.Now()
	samples := []readSample{
		{now, 3 * time.Millisecond, nil},
		{now, 9 * time.Second, nil},
		{now, time.Millisecond, errors.New("boom")},
		{now, 2 * time.Millisecond, nil},
	}
	s := statsOf(64, samples, 15*time.Second)
	if s.Ops != 3 || s.Errors != 1 || s.FirstError != "boom" {
		t.Errorf("ops %d, errors %d (%q), want 3, 1 (boom)", s.Ops, s.Errors, s.FirstError)
	}
	if s.P50 != 3*time.Millisecond || s.Max != 9*time.Second || s.P99 != 9*time.Second {
		t.Errorf("p50 %s, p99 %s, max %s, want 3ms, 9s, 9s", s.P50, s.P99, s.Max)
	}
	if s.Throughput() != 3.0/15 {
		t.Errorf("throughput %g, want %g", s.Throughput(), 3.0/15)
	}
}
