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
// acknowledges every call of a transaction.

// Defaults of Limits.SubmitWriters and Limits.SubmitMergeEvents.
const (
	defaultSubmitWriters     = 2
	defaultSubmitMergeEvents = leaderboard.MaxBatch
)

// submission is one submitScores call waiting for its write.
type submission struct {
	ctx   context.Context
	batch *batch
	// results and err are the call's answer, set before done is closed.
	results []leaderboard.ScoreResult
	err     error
	done    chan struct{}
}

// finish answers the call.
func (s *submission) finish(results []leaderboard.ScoreResult, err error) {
	s.results, s.err = results, err
	close(s.done)
}

// submitQueue holds the calls waiting for a writer. A writer is a goroutine
// that exists while calls wait: the first call that finds fewer than
// writers of them running starts one, and a writer that finds the queue
// empty ends.
type submitQueue struct {
	writers   int // writers at most, each with one transaction in flight
	maxEvents int // events one transaction takes at most; a call is never split
	write     func([]*submission)

	mu      sync.Mutex
	waiting []*submission
	running int
}

func newSubmitQueue(writers, maxEvents int, write func([]*submission)) *submitQueue {
	return &submitQueue{writers: max(writers, 1), maxEvents: maxEvents, write: write}
}

// add queues s and starts a writer if fewer than writers are running.
func (q *submitQueue) add(s *submission) {
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
func (q *submitQueue) run() {
	for group := q.next(); group != nil; group = q.next() {
		q.write(group)
	}
}

// next takes the calls waiting, oldest first, as many as fit in maxEvents
// events and at least one. When none wait it returns nil, and the writer
// that asked ends.
func (q *submitQueue) next() []*submission {
	q.mu.Lock()
	defer q.mu.Unlock()
	n, events := 0, 0
	for ; n < len(q.waiting); n++ {
		events += len(q.waiting[n].batch.events)
		if n > 0 && events > q.maxEvents {
			break
		}
	}
	if n == 0 {
		q.running--
		return nil
	}
	group := q.waiting[:n:n]
	q.waiting = append([]*submission(nil), q.waiting[n:]...)
	return group
}

// writeSubmissions applies a group of calls in one transaction and answers
// each. Calls whose caller has gone are answered without a write. A refusal
// by the database that contention does not explain is tried again call by
// call, so that no call's events can fail another's.
func (db *DB) writeSubmissions(group []*submission) {
	defer answerOnPanic(group)
	live := make([]*submission, 0, len(group))
	for _, s := range group {
		if err := s.ctx.Err(); err != nil {
			s.finish(nil, errorf("submit scores: %w", err))
			continue
		}
		live = append(live, s)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := whileAnyWaits(live)
	defer cancel()
	batches := make([]*batch, len(live))
	for i, s := range live {
		batches[i] = s.batch
	}
	results, err := db.applyWithRetries(ctx, mergeBatches(batches))
	var refused *pgconn.PgError
	if err != nil && len(live) > 1 && errors.As(err, &refused) && !errors.Is(err, errContention) {
		for _, s := range live {
			s.finish(db.applyWithRetries(ctx, s.batch))
		}
		return
	}
	for _, s := range live {
		if err != nil {
			s.finish(nil, err)
			continue
		}
		n := len(s.batch.events)
		s.finish(results[:n:n], nil)
		results = results[n:]
	}
}

// answerOnPanic fails the calls of group not answered yet when the writer
// panics, as the request's own goroutine would have: the panic reaches
// neither the other calls nor the process.
func answerOnPanic(group []*submission) {
	p := recover()
	if p == nil {
		return
	}
	for _, s := range group {
		select {
		case <-s.done:
		default:
			s.finish(nil, fmt.Errorf("submit scores: panic: %v\n%s", p, debug.Stack()))
		}
	}
}

// whileAnyWaits returns a context that ends when every call of group has
// ended its own: the write stops when nobody waits for it any more, and
// keeps the latest of the callers' deadlines.
func whileAnyWaits(group []*submission) (context.Context, context.CancelFunc) {
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

// mergeBatches returns one batch of the events of bs, in order.
func mergeBatches(bs []*batch) *batch {
	if len(bs) == 1 {
		return bs[0]
	}
	merged := &batch{rejected: map[int]leaderboard.ScoreResult{}}
	for _, b := range bs {
		offset := len(merged.events)
		merged.events = append(merged.events, b.events...)
		merged.at = append(merged.at, b.at...)
		merged.month = append(merged.month, b.month...)
		merged.received = append(merged.received, b.received...)
		for i, r := range b.rejected {
			merged.rejected[offset+i] = r
		}
	}
	return merged
}
