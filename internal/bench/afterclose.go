package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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
	Month string        // the month closed, or the period's key
	Close time.Duration // the close's wall time over HTTP, from the call to CLOSED
	// Reads are the standings reads that started within AfterCloseWindow
	// of the close's end, each counted when it answered, however late.
	Reads RunStats
	// During are the reads that started while the month was closing.
	During RunStats
	// Loaded is when, after the close's end, the service held the month
	// in memory; 0 when it did not within the window.
	Loaded time.Duration
}

// readSample is one read: when it started, how long it took, how it ended.
type readSample struct {
	began time.Time
	took  time.Duration
	err   error
}

// Closable is what CloseAndRead closes and reads over HTTP: a month of main
// or a period of another board.
type Closable struct {
	Name string // the month, or the period's key
	// Read reads the standings of players drawn by pick, each answer
	// checked for finality.
	Read func(pick Picker, finality Finality) Workload
	// Close sends the close mutation and returns the state it answered.
	Close func(ctx context.Context) (MonthState, error)
	// State reads the state now.
	State func(ctx context.Context) (MonthState, error)
}

// MonthClosable is month m of main, closed by closeMonth with adminToken.
func MonthClosable(c *GraphQL, adminToken string, m leaderboard.Month) Closable {
	month := m.String()
	return Closable{
		Name: month,
		Read: func(pick Picker, finality Finality) Workload { return HTTPStanding(c, m, pick, finality) },
		Close: func(ctx context.Context) (MonthState, error) {
			var data struct{ CloseMonth MonthState }
			err := c.Do(ctx, adminToken, closeQuery, map[string]any{"month": month}, &data)
			return data.CloseMonth, err
		},
		State: func(ctx context.Context) (MonthState, error) { return c.Month(ctx, month) },
	}
}

// closePeriodQuery closes a period of a board with the admin token.
const closePeriodQuery = `mutation Close($board: ID!, $period: String!) {
  closePeriod(board: $board, period: $period) { status participants }
}`

// PeriodClosable is period key of board, a board of order, closed by
// closePeriod with adminToken. Its state is read from the database in
// pool: 64 readers of a period read from PostgreSQL can keep the service
// answering UNAVAILABLE to a poll for minutes after the period turned
// CLOSED, which would start the reads after the close that much late.
func PeriodClosable(c *GraphQL, pool *pgxpool.Pool, adminToken, board, key string, order leaderboard.SortOrder) Closable {
	return Closable{
		Name: key,
		Read: func(pick Picker, finality Finality) Workload {
			return HTTPBoardStanding(c, board, key, order, pick, finality)
		},
		Close: func(ctx context.Context) (MonthState, error) {
			var data struct{ ClosePeriod MonthState }
			err := c.Do(ctx, adminToken, closePeriodQuery, map[string]any{"board": board, "period": key}, &data)
			return data.ClosePeriod, err
		},
		State: func(ctx context.Context) (MonthState, error) {
			const q = `SELECT status, COALESCE(participants, 0) FROM periods WHERE board_id = $1 AND key = $2`
			var s MonthState
			if err := pool.QueryRow(ctx, q, board, key).Scan(&s.Status, &s.Participants); err != nil {
				return MonthState{}, fmt.Errorf("state of period %s of %s: %w", key, board, err)
			}
			return s, nil
		},
	}
}

// awaitClosed polls target every interval until it is CLOSED and returns
// when it first saw it so, with its state then. One still OPEN was refused
// its close before the job started (an overloaded service answers
// UNAVAILABLE): the close is sent again, which joins a running one.
func awaitClosed(ctx context.Context, target Closable, interval time.Duration) (time.Time, MonthState, error) {
	for {
		state, err := target.State(ctx)
		if err == nil && state.Status == "OPEN" {
			state, err = target.Close(ctx)
		}
		if err == nil && state.Status == "CLOSED" {
			return time.Now(), state, nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, state, fmt.Errorf("wait for %s to be CLOSED: %w (last status %q, error %v)", target.Name, ctx.Err(), state.Status, err)
		case <-time.After(interval):
		}
	}
}

// CloseAndRead closes target, of players participants, through its close
// mutation while clients read standings of players they drew by pick
// before the close, and goes on reading for window after the close's end:
// its answer, or when polling first saw it CLOSED when it answered before.
// loaded, when not nil, says whether the service holds target in memory.
func CloseAndRead(ctx context.Context, target Closable, players int, pick Picker, clients int, window time.Duration, loaded func() bool) (AfterCloseRun, error) {
	run := AfterCloseRun{Month: target.Name}
	var closedAt atomic.Int64 // unix nanoseconds of the close's end; 0 until then
	samples := make([][]readSample, clients)
	var readers sync.WaitGroup
	for client := range clients {
		rng := rand.New(rand.NewPCG(uint64(client), 3))
		ids := make([]string, afterClosePicks)
		for i := range ids {
			ids[i] = pick(rng)
		}
		// Closing, it is read live; closed, from its final ranks.
		either := target.Read(OneOf(ids), ExpectEither)(0, client)
		final := target.Read(OneOf(ids), ExpectFinal)(0, client)
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
	state, err := target.Close(ctx)
	end := time.Now()
	if (err != nil && ctx.Err() == nil) || (err == nil && state.Status != "CLOSED") {
		// The mutation answered before the close ended (CLOSING once its
		// wait is over): the window starts when it is seen CLOSED.
		end, state, err = awaitClosed(ctx, target, 25*time.Millisecond)
	}
	closedAt.Store(end.UnixNano())
	run.Close = end.Sub(start)
	if err == nil && loaded != nil {
		run.Loaded = waitLoaded(ctx, loaded, end, window)
	}
	readers.Wait()
	if err != nil {
		return run, fmt.Errorf("close %s: %w", target.Name, err)
	}
	if state.Status != "CLOSED" || state.Participants != players {
		return run, fmt.Errorf("close %s: status %s with %d participants, want CLOSED with %d",
			target.Name, state.Status, state.Participants, players)
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
