package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter_BurstThenSteadyRatePerKey(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := New(2, 4)
	l.now = func() time.Time { return now }
	for i := range 4 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait <= 0 || wait > 500*time.Millisecond {
		t.Fatalf("past the burst: ok %t, wait %s", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Error("another key shares the bucket")
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := l.Allow("a"); !ok {
		t.Error("no token after half a second at 2/s")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Error("a refused request took a token it should not have")
	}
}

func TestLimiter_ZeroRateAllowsAllAndIdleBucketsGo(t *testing.T) {
	var unlimited *Limiter
	if ok, _ := unlimited.Allow("x"); !ok {
		t.Error("a nil limiter refused")
	}
	if ok, _ := New(0, 0).Allow("x"); !ok {
		t.Error("rate 0 refused")
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := New(1, 1)
	l.now = func() time.Time { return now }
	l.Allow("old")
	now = now.Add(idleAfter + time.Second)
	l.Allow("new")
	if _, ok := l.buckets["old"]; ok || len(l.buckets) != 1 {
		t.Errorf("buckets after the sweep: %v", l.buckets)
	}
}

func TestRetryAfterSeconds_RoundsUpToAWholeSecond(t *testing.T) {
	for d, want := range map[time.Duration]int{time.Millisecond: 1, time.Second: 1, 1500 * time.Millisecond: 2} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("%s: %d, want %d", d, got, want)
		}
	}
}
