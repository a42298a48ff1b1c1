package bench

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoadRun_CountsOpsAndErrors(t *testing.T) {
	var calls atomic.Int64
	load := Load{Clients: 3, Warmup: 10 * time.Millisecond, Duration: 50 * time.Millisecond}
	clients := make([]bool, load.Clients)
	stats := load.Run(t.Context(), func(client int) Op {
		clients[client] = true
		return func(ctx context.Context) error {
			n := calls.Add(1)
			time.Sleep(time.Millisecond)
			if n%10 == 0 {
				return errors.New("every tenth fails")
			}
			return nil
		}
	})
	for i, made := range clients {
		if !made {
			t.Errorf("client %d got no op", i)
		}
	}
	if stats.Clients != 3 || stats.Elapsed != load.Duration {
		t.Errorf("clients %d, elapsed %v; want 3, %v", stats.Clients, stats.Elapsed, load.Duration)
	}
	if stats.Ops == 0 || stats.Errors == 0 || stats.FirstError != "every tenth fails" {
		t.Errorf("ops %d, errors %d (%q): want some of each", stats.Ops, stats.Errors, stats.FirstError)
	}
	// Warm-up calls and errors happen, but only measured successes count.
	if int64(stats.Ops+stats.Errors) > calls.Load() {
		t.Errorf("%d ops and %d errors out of %d calls", stats.Ops, stats.Errors, calls.Load())
	}
	if stats.P50 < time.Millisecond || stats.P99 < stats.P50 || stats.Max < stats.P99 {
		t.Errorf("latencies p50 %v, p99 %v, max %v: want 1ms <= p50 <= p99 <= max", stats.P50, stats.P99, stats.Max)
	}
	if got, want := stats.Throughput(), float64(stats.Ops)/load.Duration.Seconds(); got != want {
		t.Errorf("throughput %v, want %v", got, want)
	}
}

func TestLoadRun_StopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	load := Load{Clients: 2, Duration: time.Hour}
	time.AfterFunc(30*time.Millisecond, cancel)
	start := time.Now()
	stats := load.Run(ctx, func(int) Op {
		return func(ctx context.Context) error {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Millisecond):
				return nil
			}
		}
	})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Run took %v after its context ended", took)
	}
	if stats.Errors != 0 {
		t.Errorf("%d errors, want the cancelled calls not counted: %s", stats.Errors, stats.FirstError)
	}
	if stats.Elapsed >= time.Hour || stats.Elapsed <= 0 {
		t.Errorf("elapsed %v, want the time until the context ended", stats.Elapsed)
	}
}
