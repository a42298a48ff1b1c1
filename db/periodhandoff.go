package db

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The close of a period of a board other than main hands the period to the
// closed periods in memory of the instance that closes it, as a month's
// close hands its month (CloseHooks): the ClosedPeriod is built from the
// close's own rows, already in rank order with their sort keys
// (rankPeriod), and the names of their players, read on a connection of
// their own (namesAhead) and built into the table while the close copies
// and indexes the rows, so that the period is answered from memory as soon
// as its close commits, without reading its rows again. Nothing is handed before the commit: a close that
// fails or is killed leaves nothing in memory. A board with cohorts is left
// to the load on first read, which reads its cohort places from its final
// ranks.

// PeriodHandoff is where the closes of a DB hand the periods they close.
type PeriodHandoff struct {
	// Fits reports whether a period of participants players may be held:
	// the close reads the names of its players beside it only then.
	Fits func(participants int) bool
	// Closed is handed period key of b once its close committed, built
	// from the close's rows, with its end (its ends_at, or its closed_at
	// when it has none), as LoadClosedPeriod would have read it.
	Closed func(b *leaderboard.Board, key string, p *ClosedPeriod, end time.Time)
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
	}()
	return h
}

// stop ends the handing, when the period is no longer wanted, and waits for
// its build to end.
func (h *periodHanding) stop() {
	if h != nil {
		h.names.stop()
		<-h.built
	}
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
	h.handoff.Closed(h.b, h.key, h.period, h.end)
	return nil
}
