package bench

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Op is one operation of a load, such as one HTTP request or one batch. It
// returns an error when the operation failed or its answer was wrong.
type Op func(ctx context.Context) error

// Load is a closed-loop load: Clients workers, each calling its own Op again
// as soon as the previous call returns, first for Warmup, unmeasured, then
// for Duration, measured.
type Load struct {
	Clients  int
	Warmup   time.Duration
	Duration time.Duration
}

// RunStats is what one run of a load measured. Only operations that started
// and finished inside the measured window count towards Ops and the
// latencies; errors count from the start of the warm-up.
type RunStats struct {
	Clients    int
	Ops        int           // successful operations in the measured window
	AllOps     int           // successful operations, warm-up included
	Errors     int           // failed operations, warm-up included
	FirstError string        // the first failure's message, "" when none
	Elapsed    time.Duration // the measured window
	P50, P99   time.Duration // latency percentiles of the successful operations
	Max        time.Duration
	// CPU is the CPU time the parts of the system used over the whole run,
	// warm-up included, when the caller measured it.
	CPU CPUTimes
}

// Throughput returns the successful operations per second.
func (s RunStats) Throughput() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Ops) / s.Elapsed.Seconds()
}

// Run runs the load: newOp(i) makes client i's Op once, so that each client
// can keep its own state (a random source, a counter) without locks. Run
// returns early, with what it measured so far, when ctx ends.
func (load Load) Run(ctx context.Context, newOp func(client int) Op) RunStats {
	start := time.Now()
	from, until := start.Add(load.Warmup), start.Add(load.Warmup+load.Duration)
	var (
		mu         sync.Mutex
		latencies  []time.Duration
		errors     int
		allOps     int
		firstError string
		wg         sync.WaitGroup
	)
	for i := range load.Clients {
		op := newOp(i)
		wg.Go(func() {
			var own []time.Duration
			failed, succeeded, first := 0, 0, ""
			for ctx.Err() == nil {
				began := time.Now()
				if !began.Before(until) {
					break
				}
				err := op(ctx)
				ended := time.Now()
				switch {
				case err != nil && ctx.Err() == nil:
					failed++
					if first == "" {
						first = err.Error()
					}
				case err == nil:
					succeeded++
					if !began.Before(from) && !ended.After(until) {
						own = append(own, ended.Sub(began))
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			latencies = append(latencies, own...)
			errors += failed
			allOps += succeeded
			if firstError == "" {
				firstError = first
			}
		})
	}
	wg.Wait()
	slices.Sort(latencies)
	elapsed := load.Duration
	if end := time.Now(); end.Before(until) {
		elapsed = max(end.Sub(from), 0)
	}
	stats := RunStats{
		Clients: load.Clients, Ops: len(latencies), AllOps: allOps, Errors: errors, FirstError: firstError,
		Elapsed: elapsed, P50: Percentile(latencies, 50), P99: Percentile(latencies, 99),
	}
	if len(latencies) > 0 {
		stats.Max = latencies[len(latencies)-1]
	}
	return stats
}
