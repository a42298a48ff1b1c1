package db

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

func waitingCall(events int) *submission[*boardBatch] {
	return &submission[*boardBatch]{ctx: context.Background(), batch: &boardBatch{events: make([]leaderboard.ScoreEvent, events)}, done: make(chan struct{})}
}

// A writer takes the calls waiting, oldest first, up to the event bound,
// but always at least one call, however large.
func TestSubmitQueue_GroupsUpToMaxEvents(t *testing.T) {
	q := newSubmitQueue[*boardBatch](1, 100, nil)
	for _, n := range []int{60, 40, 1, 150, 30} {
		q.waiting = append(q.waiting, waitingCall(n))
	}
	q.running = 1
	var sizes [][]int
	for group := q.next(); group != nil; group = q.next() {
		var sizesOf []int
		for _, s := range group {
			sizesOf = append(sizesOf, len(s.batch.events))
		}
		sizes = append(sizes, sizesOf)
	}
	want := [][]int{{60, 40}, {1}, {150}, {30}}
	if len(sizes) != len(want) {
		t.Fatalf("groups %v, want %v", sizes, want)
	}
	for i := range want {
		if len(sizes[i]) != len(want[i]) || sizes[i][0] != want[i][0] {
			t.Fatalf("groups %v, want %v", sizes, want)
		}
	}
	if q.running != 0 {
		t.Errorf("%d writers left running on an empty queue", q.running)
	}
}

// However many calls arrive at once, no more than the writers bound write
// at a time, and every call is written once.
func TestSubmitQueue_BoundsWriters(t *testing.T) {
	const writers, calls = 2, 200
	var inFlight, most, written atomic.Int32
	q := newSubmitQueue(writers, 3, func(group []*submission[*boardBatch]) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond)
		written.Add(int32(len(group)))
		inFlight.Add(-1)
		for _, s := range group {
			s.finish(nil, nil)
		}
	})
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			s := waitingCall(1)
			q.add(s)
			<-s.done
		})
	}
	wg.Wait()
	if got := written.Load(); got != calls {
		t.Errorf("%d calls written, want %d", got, calls)
	}
	if got := most.Load(); got > writers {
		t.Errorf("%d writes at once, want at most %d", got, writers)
	}
}

// A writer that panics answers the calls it had not answered yet with an
// error, and the panic goes no further.
func TestAnswerOnPanic_FailsTheCallsNotAnswered(t *testing.T) {
	answered, waiting := waitingCall(1), waitingCall(1)
	answered.finish(nil, nil)
	func() {
		defer answerOnPanic([]*submission[*boardBatch]{answered, waiting})
		panic("boom")
	}()
	<-waiting.done
	if waiting.err == nil || !strings.Contains(waiting.err.Error(), "boom") {
		t.Errorf("the waiting call got %v, want the panic", waiting.err)
	}
	if answered.err != nil {
		t.Errorf("the answered call got %v after its answer", answered.err)
	}
}

// Merged board batches keep each event's arrival, time, period, validity
// and rejection, and every call's boards.
func TestMergeBoardBatches_KeepsEachCallsEvents(t *testing.T) {
	first, second := time.Unix(1, 0), time.Unix(2, 0)
	a := &boardBatch{events: make([]leaderboard.ScoreEvent, 2), received: []time.Time{first, first},
		at: make([]time.Time, 2), period: []boardPeriod{{periodRef: periodRef{"x", "1"}}, {}},
		boards: map[string]*leaderboard.Board{"x": {ID: "x"}}, valid: []int{0},
		rejected: map[int]leaderboard.ScoreResult{1: {EventID: "a1"}}}
	b := &boardBatch{events: make([]leaderboard.ScoreEvent, 3), received: []time.Time{second, second, second},
		at: make([]time.Time, 3), period: []boardPeriod{{}, {periodRef: periodRef{"y", "2"}}, {}},
		boards: map[string]*leaderboard.Board{"y": {ID: "y"}}, valid: []int{1, 2},
		rejected: map[int]leaderboard.ScoreResult{0: {EventID: "b0"}}}
	m := mergeBoardBatches([]*boardBatch{a, b})
	if m.size() != 5 || len(m.received) != 5 || len(m.at) != 5 || len(m.period) != 5 {
		t.Fatalf("merged %d events, %d arrivals, %d times, %d periods; want 5 of each", m.size(), len(m.received), len(m.at), len(m.period))
	}
	if !m.received[1].Equal(first) || !m.received[2].Equal(second) || m.period[0].board != "x" || m.period[3].board != "y" {
		t.Errorf("arrivals %v, periods %v: each event's own wanted", m.received, m.period)
	}
	if !slices.Equal(m.valid, []int{0, 3, 4}) {
		t.Errorf("valid %v, want [0 3 4]", m.valid)
	}
	if len(m.rejected) != 2 || m.rejected[1].EventID != "a1" || m.rejected[2].EventID != "b0" {
		t.Errorf("rejected %v, want a1 at 1 and b0 at 2", m.rejected)
	}
	if m.boards["x"] == nil || m.boards["y"] == nil {
		t.Errorf("boards %v, want x and y", m.boards)
	}
}
