package db

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The close of a period on its own, on any board, main's months included,
// hands the period to the closed periods in memory of the instance that
// closes it: the ClosedPeriod is built from the
// close's own rows, already in rank order with their sort keys
// (rankPeriod), and the names of their players, read on a connection of
// their own (namesAhead) and built into the table while the close copies
// and indexes the rows, so that the period is answered from memory as soon
// as its close commits, without reading its rows again. Nothing final is
// handed before the commit: the period is staged (Closing) as soon as it is
// built, answered as not final while the close goes on, and a close that
// fails abandons it (Abandoned); one killed leaves nothing in memory. The
// stage ends (Abandoned) when the close sends its commit: PostgreSQL shows
// the period CLOSED to other sessions before this one hears that its
// commit is done, and a client that read it CLOSED must not then be
// answered from the stage as not final; until Closed is handed the period,
// its reads go to the database, for one round trip. A
// board with cohorts is left to the load on first read, which reads its
// cohort places from its final ranks.

// PeriodHandoff is where the closes of a DB hand the periods they close.
type PeriodHandoff struct {
	// Fits reports whether a period of participants players may be held:
	// the close reads the names of its players beside it only then.
	Fits func(participants int) bool
	// Closed is handed period key of b once its close committed, built
	// from the close's rows, with its end (its ends_at, or its closed_at
	// when it has none), as LoadClosedPeriod would have read it.
	Closed func(b *leaderboard.Board, key string, p *ClosedPeriod, end time.Time)
	// Closing, when set, is handed the period as soon as it is built, while
	// its close has yet to commit: its rows no longer change (the close holds the
	// period: events and corrections wait for it or are refused), but they
	// are not final until Closed is handed the period, so that its reads
	// need not go to the database the close keeps busy.
	Closing func(b *leaderboard.Board, key string, p *ClosedPeriod, end time.Time)
	// Abandoned is called with a period handed to Closing as its close
	// sends its commit (its reads go to the database until Closed), or
	// whose close failed.
	Abandoned func(b *leaderboard.Board, key string)
}

// handoffs holds the DB's PeriodHandoff, nil for none.
type handoffs = atomic.Pointer[PeriodHandoff]

// HandClosedPeriods has the closes this DB runs from now on (ClosePeriod,
// TryClosePeriod, and the periods TryClosePeriods closes on their own)
// hand their periods to h.
func (db *DB) HandClosedPeriods(h PeriodHandoff) { db.handoff.Store(&h) }

// periodHanding is a closed period on its way to memory: its ClosedPeriod,
// built from the close's rows and the names read beside them while the
// close copies and indexes the rows, and handed over once the close
// committed.
type periodHanding struct {
	handoff *PeriodHandoff
	b       *leaderboard.Board
	key     string
	end     time.Time
	names   *namesAhead
	built   chan struct{} // closed once period or err is set
	period  *ClosedPeriod
	err     error
	// mu guards staged and unstaged, which the build and the close set.
	mu sync.Mutex
	// staged is set once the period was handed to Closing, and cleared
	// when it is abandoned; unstaged once the close sends its commit, after
	// which it is not staged any more; handed once it was handed to Closed.
	staged, unstaged, handed bool
}

// startHanding returns the handing of the period of row of b, whose close
// at closedAt read rows, and starts building its ClosedPeriod; nil when the
// DB hands no period, b has cohorts, or the period does not fit.
func (db *DB) startHanding(ctx context.Context, b *leaderboard.Board, row *periodRow, rows *rankedRows,
	closedAt time.Time) *periodHanding {
	handoff := db.handoff.Load()
	if handoff == nil || b.HasCohorts() || !handoff.Fits(rows.len()) {
		return nil
	}
	players := fmt.Sprintf(`(SELECT player_id FROM board_scores WHERE period_id = %d)`, row.id)
	h := &periodHanding{handoff: handoff, b: b, key: row.key, end: closedAt, built: make(chan struct{}),
		names: db.readNamesAhead(ctx, players, fmt.Sprintf("%d::float8", rows.len()))}
	if row.endsAt != nil {
		h.end = *row.endsAt
	}
	id, startsAt := row.id, row.startsAt
	go func() {
		defer close(h.built)
		// The table only reads the rows, which the close goes on reading.
		p := &ClosedPeriod{key: h.key, id: id, startsAt: startsAt, version: 1, rows: periodTable(rows)}
		if h.err = h.names.each(ctx, p.rows.SetName); h.err == nil {
			h.err = p.rows.Complete()
		}
		h.period = p
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.err == nil && handoff.Closing != nil && !h.unstaged {
			handoff.Closing(h.b, h.key, p, h.end)
			h.staged = true
		}
	}()
	return h
}

// stop ends the handing, when the period is no longer wanted, and waits for
// its build to end; a period staged but not handed is abandoned.
func (h *periodHanding) stop() {
	if h == nil {
		return
	}
	h.names.stop()
	<-h.built
	if !h.handed {
		h.unstage()
	}
}

// unstage ends the period's stage, and keeps a build still running from
// staging it: called as the close sends its commit, and by stop.
func (h *periodHanding) unstage() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.unstaged = true
	if h.staged && h.handoff.Abandoned != nil {
		h.handoff.Abandoned(h.b, h.key)
	}
	h.staged = false
}

// hand waits for the period's build and hands it over, version 1 as the
// close marked it; the close committed.
func (h *periodHanding) hand(ctx context.Context) error {
	select {
	case <-h.built:
	case <-ctx.Done():
		return ctx.Err()
	}
	if h.err != nil {
		return h.err
	}
	h.handed = true
	h.handoff.Closed(h.b, h.key, h.period, h.end)
	return nil
}
