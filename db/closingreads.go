package db

import (
	"context"
	"sync"
	"time"

	"github.com/gamebackend/leaderboard"
)

// closingReads bounds how many reads of CLOSING periods, on any board, this
// instance runs on the database at once. A closing period's scores are
// frozen, and its live reads compete with its close for the database's CPU: at ten million
// players with 64 clients reading, eight live reads at a time stretched the
// close's ordered read of the month from 8 s to 15 s (docs/PERFORMANCE.md,
// "closeMonth at 10M, round seven"). Capped, the readers wait a few
// milliseconds more for those seconds, and the close, after which the month
// is answered from memory, ends sooner.
//
// An instance learns that a period is CLOSING from its own reads, which
// return the period's status, so every instance gives way to a close,
// whichever runs it; a read that finds the period in any other state lifts
// the cap.
//
// A read waits for a slot at most maxWait, then goes on without one: the
// cap may delay a read, never fail it. When the reads holding the slots
// stall (at ten million players, a stall of the whole process for 4 s at
// the start of the close, since mended in playerNames.reserve), those
// queued behind them would otherwise run out of their request's time: 60
// of 64 did once.
type closingReads struct {
	periods sync.Map      // periodRef -> struct{}: periods last read CLOSING
	slots   chan struct{} // one per read allowed at once; nil: no cap
	maxWait time.Duration
}

func newClosingReads(limit int, maxWait time.Duration) *closingReads {
	c := &closingReads{maxWait: maxWait}
	if limit > 0 {
		c.slots = make(chan struct{}, limit)
	}
	return c
}

// enter waits, when period p was last read CLOSING, for a free slot, at
// most maxWait, and returns the function that frees the slot it took; it
// fails when ctx ends first.
func (c *closingReads) enter(ctx context.Context, p periodRef) (func(), error) {
	noSlot := func() {}
	if c.slots == nil {
		return noSlot, nil
	}
	if _, closing := c.periods.Load(p); !closing {
		return noSlot, nil
	}
	wait := time.NewTimer(c.maxWait)
	defer wait.Stop()
	select {
	case c.slots <- struct{}{}:
		return func() { <-c.slots }, nil
	case <-wait.C:
		return noSlot, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// saw records the status a read found period p in.
func (c *closingReads) saw(p periodRef, status leaderboard.PeriodStatus) {
	if status == leaderboard.PeriodClosing {
		c.periods.Store(p, struct{}{})
	} else {
		c.periods.Delete(p)
	}
}

// monthRef names month m of main.
func monthRef(m leaderboard.Month) periodRef {
	return periodRef{board: leaderboard.MainBoard, key: m.String()}
}
