package ratelimit

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// clock returns a Limiter of perSecond and burst whose time is *now.
func clock(perSecond float64, burst int, now *time.Time) *Limiter {
	l := New(perSecond, burst)
	l.now = func() time.Time { return *now }
	return l
}

func TestLimiter_BurstThenSteadyRatePerKey(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := clock(2, 4, &now)
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

func TestLimiter_ZeroRateAllowsAllAndRefilledBucketsGo(t *testing.T) {
	var unlimited *Limiter
	if ok, _ := unlimited.Allow("x"); !ok {
		t.Error("a nil limiter refused")
	}
	if ok, _ := New(0, 0).Allow("x"); !ok {
		t.Error("rate 0 refused")
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := clock(1, 2, &now)
	l.Allow("old")
	l.Allow("old")
	now = now.Add(1500 * time.Millisecond)
	l.Allow("new")
	if _, ok := l.buckets["old"]; !ok {
		t.Fatal("a bucket that has not refilled was dropped: its key would get a full one")
	}
	now = now.Add(time.Second) // "old" has refilled its burst of 2 at 1/s
	l.Allow("new")
	if _, ok := l.buckets["old"]; ok || len(l.buckets) != 1 {
		t.Errorf("keys after \"old\" refilled: %d", len(l.buckets))
	}
}

// A flood of new keys keeps at most maxKeys buckets, dropping the least
// recently used: the keys still in use keep what they have spent.
func TestLimiter_KeepsAtMostMaxKeysDroppingTheLeastRecentlyUsed(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := clock(1, 1, &now)
	l.maxKeys = 3
	for _, key := range []string{"a", "b", "c", "a", "d"} {
		l.Allow(key)
	}
	if len(l.buckets) != 3 || l.recent.Len() != 3 {
		t.Fatalf("%d buckets, %d in use order; want 3", len(l.buckets), l.recent.Len())
	}
	if _, ok := l.buckets["b"]; ok {
		t.Error("b, the least recently used, was kept")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Error("a, still in use, got a fresh bucket")
	}
	for i := range 10_000 {
		l.Allow(fmt.Sprint("flood-", i))
	}
	if len(l.buckets) != 3 {
		t.Errorf("%d buckets after a flood of keys, want 3", len(l.buckets))
	}
}

// The bound's memory, as MaxKeys's comment states it: about 200 bytes a
// bucket besides its key.
func TestLimiter_MaxKeysBucketsTakeAbout20MB(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := clock(1, 1, &now)
	keys := make([]string, MaxKeys+1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("2001:db8:%x:%x::/64", i>>16, i&0xffff)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, key := range keys {
		l.Allow(key)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(l.buckets) != MaxKeys {
		t.Fatalf("%d buckets, want %d", len(l.buckets), MaxKeys)
	}
	perKey := float64(after.HeapAlloc-before.HeapAlloc) / MaxKeys
	t.Logf("%.0f bytes a key, %.1f MB in all", perKey, perKey*MaxKeys/1e6)
	if perKey > 250 {
		t.Errorf("%.0f bytes a key, more than MaxKeys's comment says", perKey)
	}
	runtime.KeepAlive(keys)
}

// Check takes nothing; Take goes into debt, which Check then waits out.
func TestLimiter_CheckThenTakeGoesIntoDebt(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := clock(2, 2, &now)
	for range 5 {
		if ok, _ := l.Check("a"); !ok {
			t.Fatal("Check refused a key that took nothing")
		}
	}
	if len(l.buckets) != 0 {
		t.Errorf("Check made %d buckets", len(l.buckets))
	}
	for range 4 { // two past the burst, as if four had passed Check together
		l.Take("a")
	}
	ok, wait := l.Check("a")
	if ok || wait != 1500*time.Millisecond {
		t.Errorf("two in debt at 2/s: ok %t, wait %s; want 1.5s", ok, wait)
	}
	now = now.Add(1500 * time.Millisecond)
	if ok, _ := l.Check("a"); !ok {
		t.Error("the debt paid, Check still refuses")
	}
	if ok, _ := l.Check("b"); !ok {
		t.Error("another key shares the debt")
	}
	var off *Limiter
	off.Take("a")
	if ok, _ := off.Check("a"); !ok {
		t.Error("a nil limiter refused")
	}
}

func TestRetryAfterSeconds_RoundsUpToAWholeSecond(t *testing.T) {
	for d, want := range map[time.Duration]int{time.Millisecond: 1, time.Second: 1, 1500 * time.Millisecond: 2} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("%s: %d, want %d", d, got, want)
		}
	}
}
