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
// their own beside the close's copy and index (namesAhead), so that the
// period is answered from memory as soon as its close commits, without
// reading its rows again. Nothing is handed before the commit: a close that
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

// periodHanding is a closed period on its way to memory: the close's rows
// and the names read beside them, with what its ClosedPeriod is made of.
type periodHanding struct {
	handoff  *PeriodHandoff
	b        *leaderboard.Board
	row      *periodRow
	rows     *rankedRows
	names    *namesAhead
	closedAt time.Time
}

// startHanding returns the handing of the period of row of b, whose close
// at closedAt read rows, and starts reading their names; nil when the DB
// hands no period, b has cohorts, or the period does not fit.
func (db *DB) startHanding(ctx context.Context, b *leaderboard.Board, row *periodRow, rows *rankedRows,
	closedAt time.Time) *periodHanding {
	h := db.handoff.Load()
	if h == nil || b.HasCohorts() || !h.Fits(rows.len()) {
		return nil
	}
	players := fmt.Sprintf(`(SELECT player_id FROM board_scores WHERE period_id = %d)`, row.id)
	return &periodHanding{handoff: h, b: b, row: row, rows: rows, closedAt: closedAt,
		names: db.readNamesAhead(ctx, players, fmt.Sprintf("%d::float8", rows.len()))}
}

// stop ends the read of the names, when they are no longer wanted.
func (h *periodHanding) stop() {
	if h != nil {
		h.names.stop()
	}
}

// hand builds the ClosedPeriod of the committed close, version 1 as the
// close marked it, and hands it over.
func (h *periodHanding) hand(ctx context.Context) error {
	p := &ClosedPeriod{key: h.row.key, id: h.row.id, startsAt: h.row.startsAt, version: 1, rows: periodTable(h.rows)}
	if err := h.names.each(ctx, p.rows.SetName); err != nil {
		return err
	}
	if err := p.rows.Complete(); err != nil {
		return err
	}
	end := h.closedAt
	if h.row.endsAt != nil {
		end = *h.row.endsAt
	}
	h.handoff.Closed(h.b, h.row.key, p, end)
	return nil
}
