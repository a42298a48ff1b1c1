package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamebackend/leaderboard"
)

// AfterCloseWindow is how long after a month turns CLOSED its standings
// reads are measured: when every player comes to see their final rank.
const AfterCloseWindow = 15 * time.Second

// afterClosePicks is how many players each client draws before the close
// and then asks for in turn.
const afterClosePicks = 256

// AfterCloseRun is what one close measured: the close, and the reads that
// waited for it.
type AfterCloseRun struct {
	Month string
	Close time.Duration // closeMonth's wall time, over HTTP
	// Reads are the standings reads that started within AfterCloseWindow
	// of closeMonth's answer, each counted when it answered, however late.
	Reads RunStats
	// During are the reads that started while the month was closing.
	During RunStats
	// Loaded is when, after closeMonth's answer, the service held the
	// month in memory; 0 when it did not within the window.
	Loaded time.Duration
}

// readSample is one read: when it started, how long it took, how it ended.
type readSample struct {
	began time.Time
	took  time.Duration
	err   error
}

// CloseAndRead closes month m, of players participants, through the
// closeMonth mutation while clients read standings of players they drew
// by pick before the close, and goes on reading for window after the
// answer. loaded, when not nil, says whether the service holds m in memory.
func CloseAndRead(ctx context.Context, c *GraphQL, adminToken string, m leaderboard.Month, players int, pick Picker, clients int, window time.Duration, loaded func() bool) (AfterCloseRun, error) {
	run := AfterCloseRun{Month: m.String()}
	var closedAt atomic.Int64 // unix nanoseconds of closeMonth's answer; 0 until then
	samples := make([][]readSample, clients)
	var readers sync.WaitGroup
	for client := range clients {
		rng := rand.New(rand.NewPCG(uint64(client), 3))
		ids := make([]string, afterClosePicks)
		for i := range ids {
			ids[i] = pick(rng)
		}
		// Closing, the month is read live; closed, from its final ranks.
		either := HTTPStanding(c, m, OneOf(ids), ExpectEither)(0, client)
		final := HTTPStanding(c, m, OneOf(ids), ExpectFinal)(0, client)
		readers.Go(func() {
			for ctx.Err() == nil {
				began := time.Now()
				closed := closedAt.Load()
				if closed != 0 && began.UnixNano() >= closed+int64(window) {
					return
				}
				op := either
				if closed != 0 {
					op = final
				}
				err := op(ctx)
				samples[client] = append(samples[client], readSample{began, time.Since(began), err})
			}
		})
	}
	// Let the readers get going before the close starts.
	time.Sleep(200 * time.Millisecond)

	start := time.Now()
	var data struct{ CloseMonth MonthState }
	err := c.Do(ctx, adminToken, closeQuery, map[string]any{"month": m.String()}, &data)
	end := time.Now()
	if (err != nil && ctx.Err() == nil) || (err == nil && data.CloseMonth.Status != "CLOSED") {
		// closeMonth answered before the close ended (CLOSING once its wait
		// is over): the window starts when the month is seen CLOSED.
		end, data.CloseMonth, err = c.waitForStatus(ctx, m.String(), "CLOSED", 25*time.Millisecond)
	}
	closedAt.Store(end.UnixNano())
	run.Close = end.Sub(start)
	if err == nil && loaded != nil {
		run.Loaded = waitLoaded(ctx, loaded, end, window)
	}
	readers.Wait()
	if err != nil {
		return run, fmt.Errorf("close %s: %w", m, err)
	}
	if data.CloseMonth.Status != "CLOSED" || data.CloseMonth.Participants != players {
		return run, fmt.Errorf("close %s: status %s with %d participants, want CLOSED with %d",
			m, data.CloseMonth.Status, data.CloseMonth.Participants, players)
	}
	var before, after []readSample
	for _, own := range samples {
		for _, s := range own {
			if s.began.Before(end) {
				before = append(before, s)
			} else {
				after = append(after, s)
			}
		}
	}
	run.During = statsOf(clients, before, end.Sub(start))
	run.Reads = statsOf(clients, after, window)
	return run, ctx.Err()
}

// waitLoaded polls loaded until it holds or window after closed has
// passed, and returns how long after closed it first held; 0 when it did
// not.
func waitLoaded(ctx context.Context, loaded func() bool, closed time.Time, window time.Duration) time.Duration {
	for time.Since(closed) < window && ctx.Err() == nil {
		if loaded() {
			return time.Since(closed)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0
}

// statsOf returns the RunStats of samples, reads of clients over elapsed:
// every successful read counts, however long it took.
func statsOf(clients int, samples []readSample, elapsed time.Duration) RunStats {
	stats := RunStats{Clients: clients, Elapsed: elapsed}
	var latencies []time.Duration
	for _, s := range samples {
		if s.err != nil {
			stats.Errors++
			if stats.FirstError == "" {
				stats.FirstError = s.err.Error()
			}
			continue
		}
		latencies = append(latencies, s.took)
	}
	slices.Sort(latencies)
	stats.Ops, stats.AllOps = len(latencies), len(latencies)
	stats.P50, stats.P99 = Percentile(latencies, 50), Percentile(latencies, 99)
	if len(latencies) > 0 {
		stats.Max = latencies[len(latencies)-1]
	}
	return stats
}
