package backoff

import (
	"fmt"
	"testing"
	"time"
)

func TestCapped_DoublesUpToItsMost(t *testing.T) {
	var got []time.Duration
	for failures := 0; failures <= 6; failures++ {
		got = append(got, Capped(time.Second, 10*time.Second, failures))
	}
	want := []time.Duration{time.Second, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := Capped(time.Hour, time.Minute, 1); got != time.Minute {
		t.Fatalf("a first wait above the most: got %s, want %s", got, time.Minute)
	}
	if got := Capped(time.Second, time.Minute, 1_000_000); got != time.Minute {
		t.Fatalf("after a million failures: got %s, want %s", got, time.Minute)
	}
}

func TestJittered_StaysInTheUpperHalfOfCapped(t *testing.T) {
	for _, c := range []struct {
		failures int
		ceiling  time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {4, 8 * time.Second}, {7, time.Minute}, {80, time.Minute}} {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := Jittered(time.Second, time.Minute, c.failures)
			if d < c.ceiling/2 || d > c.ceiling {
				t.Fatalf("failure %d waits %s, want %s..%s", c.failures, d, c.ceiling/2, c.ceiling)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Fatalf("failure %d: every wait was the same, %v", c.failures, seen)
		}
	}
}
