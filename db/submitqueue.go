package db

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

// The submitScores calls of one instance are written together. A call joins
// a queue; a writer takes every call waiting, up to a number of events, and
// applies them as one batch in one transaction. So the rows that concurrent
// calls share (the rank counters of a block, a score, the current hour) are
// written once a transaction instead of once a call, only the writers'
// transactions wait for each other's counter rows, and one flush to the WAL
// acknowledges every call of a transaction. Main's calls and the other
// boards' calls (boardsubmit.go) have a queue each, of their own kind of
// batch: their rows and statements differ, and neither waits for the other.

// Defaults of Limits.SubmitWriters and Limits.SubmitMergeEvents.
const (
	defaultSubmitWriters     = 2
	defaultSubmitMergeEvents = leaderboard.MaxBatch
)

// queuedBatch is a call's events as a queue holds them, checked as far as
// they can be without a transaction.
type queuedBatch interface {
	// size is how many events the batch holds.
	size() int
}

// queuedCall is one call waiting for its write, answered by an R: a
// submitScores call (submission) or a claimReward call (claims.go).
type queuedCall[B queuedBatch, R any] struct {
	ctx   context.Context
	batch B
	// results and err are the call's answer, set before done is closed.
	results R
	err     error
	done    chan struct{}
}

// submission is one submitScores call waiting for its write.
type submission[B queuedBatch] = queuedCall[B, []leaderboard.ScoreResult]

// finish answers the call.
func (s *queuedCall[B, R]) finish(results R, err error) {
	s.results, s.err = results, err
	close(s.done)
}

// mergeQueue holds the calls waiting for a writer. A writer is a goroutine
// that exists while calls wait: the first call that finds fewer than
// writers of them running starts one, and a writer that finds the queue
// empty ends.
type mergeQueue[B queuedBatch, R any] struct {
	writers   int    // writers at most, each with one transaction in flight
	maxEvents int    // events one transaction takes at most; a call is never split
	what      string // what the calls do, for the error of a caller that left
	write     func([]*queuedCall[B, R])

	mu      sync.Mutex
	waiting []*queuedCall[B, R]
	running int
}

// submitQueue is the queue of submitScores calls.
type submitQueue[B queuedBatch] = mergeQueue[B, []leaderboard.ScoreResult]

func newSubmitQueue[B queuedBatch](writers, maxEvents int, write func([]*submission[B])) *submitQueue[B] {
	return newMergeQueue(writers, maxEvents, "submit scores", write)
}

func newMergeQueue[B queuedBatch, R any](writers, maxEvents int, what string, write func([]*queuedCall[B, R])) *mergeQueue[B, R] {
	return &mergeQueue[B, R]{writers: max(writers, 1), maxEvents: maxEvents, what: what, write: write}
}

// submit queues the call of b and returns its answer once its transaction
// committed or failed. A caller that leaves first gets ctx's error at once,
// and its call is not written if no writer has taken it yet.
func (q *mergeQueue[B, R]) submit(ctx context.Context, b B) (R, error) {
	s := &queuedCall[B, R]{ctx: ctx, batch: b, done: make(chan struct{})}
	q.add(s)
	select {
	case <-s.done:
	case <-ctx.Done():
		select {
		case <-s.done:
		default:
			var none R
			return none, errorf("%s: %w", q.what, ctx.Err())
		}
	}
	return s.results, s.err
}

// add queues s and starts a writer if fewer than writers are running.
func (q *mergeQueue[B, R]) add(s *queuedCall[B, R]) {
	q.mu.Lock()
	q.waiting = append(q.waiting, s)
	start := q.running < q.writers
	if start {
		q.running++
	}
	q.mu.Unlock()
	if start {
		go q.run()
	}
}

// run writes groups of calls until none wait.
func (q *mergeQueue[B, R]) run() {
	for group := q.next(); group != nil; group = q.next() {
		q.write(group)
	}
}

// next takes the calls waiting, oldest first, as many as fit in maxEvents
// events and at least one. When none wait it returns nil, and the writer
// that asked ends.
func (q *mergeQueue[B, R]) next() []*queuedCall[B, R] {
	q.mu.Lock()
	defer q.mu.Unlock()
	n, events := 0, 0
	for ; n < len(q.waiting); n++ {
		events += q.waiting[n].batch.size()
		if n > 0 && events > q.maxEvents {
			break
		}
	}
	if n == 0 {
		q.running--
		return nil
	}
	group := q.waiting[:n:n]
	q.waiting = append([]*queuedCall[B, R](nil), q.waiting[n:]...)
	return group
}

// writeMerged applies a group of calls as one batch, merge's of their
// batches, by apply (which retries lost races), and answers each call with
// its own results. Calls whose caller has gone are answered without a write.
// A refusal by the database that contention does not explain is tried again
// call by call, so that no call's events can fail another's.
func writeMerged[B queuedBatch](group []*submission[B], merge func([]B) B,
	apply func(context.Context, B) ([]leaderboard.ScoreResult, error)) {
	defer answerOnPanic(group)
	live, batches := liveCalls(group, "submit scores")
	if len(live) == 0 {
		return
	}
	ctx, cancel := whileAnyWaits(live)
	defer cancel()
	results, err := apply(ctx, merge(batches))
	var refused *pgconn.PgError
	if err != nil && len(live) > 1 && errors.As(err, &refused) && !errors.Is(err, errContention) {
		for _, s := range live {
			s.finish(apply(ctx, s.batch))
		}
		return
	}
	for _, s := range live {
		if err != nil {
			s.finish(nil, err)
			continue
		}
		n := s.batch.size()
		s.finish(results[:n:n], nil)
		results = results[n:]
	}
}

// liveCalls answers, without a write, the calls of group whose caller has
// gone (what names the write in their error), and returns the others with
// their batches, in order.
func liveCalls[B queuedBatch, R any](group []*queuedCall[B, R], what string) ([]*queuedCall[B, R], []B) {
	live := make([]*queuedCall[B, R], 0, len(group))
	batches := make([]B, 0, len(group))
	for _, s := range group {
		if err := s.ctx.Err(); err != nil {
			var none R
			s.finish(none, errorf("%s: %w", what, err))
			continue
		}
		live = append(live, s)
		batches = append(batches, s.batch)
	}
	return live, batches
}

// answerOnPanic fails the calls of group not answered yet when the writer
// panics, as the request's own goroutine would have: the panic reaches
// neither the other calls nor the process.
func answerOnPanic[B queuedBatch, R any](group []*queuedCall[B, R]) {
	p := recover()
	if p == nil {
		return
	}
	var none R
	for _, s := range group {
		select {
		case <-s.done:
		default:
			s.finish(none, fmt.Errorf("write merged calls: panic: %v\n%s", p, debug.Stack()))
		}
	}
}

// whileAnyWaits returns a context that ends when every call of group has
// ended its own: the write stops when nobody waits for it any more, and
// keeps the latest of the callers' deadlines.
func whileAnyWaits[B queuedBatch, R any](group []*queuedCall[B, R]) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	var waiting atomic.Int32
	waiting.Store(int32(len(group)))
	stops := make([]func() bool, len(group))
	for i, s := range group {
		stops[i] = context.AfterFunc(s.ctx, func() {
			if waiting.Add(-1) == 0 {
				cancel()
			}
		})
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}
