package db

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The decisions of a submitScores call, apart from any SQL: what each event
// does to a player's total, when reachedAt moves, and which status it gets.
// scores.go reads the rows these decide on and writes what they decided.

// unopenedMonths is the error of a batch that would accept events in months
// that have not opened yet. A month opens with its first accepted event, so a
// call whose events are all rejected never opens one.
type unopenedMonths []leaderboard.Month

func (u unopenedMonths) Error() string {
	return fmt.Sprintf("months %v are not open yet", []leaderboard.Month(u))
}

// batch is the events of one submitScores call after validation, or of
// several merged (see mergeBatches).
type batch struct {
	events []leaderboard.ScoreEvent
	// at, month and received hold each event's time, month and time of
	// arrival; rejected holds the results of events that failed validation.
	at       []time.Time
	month    []leaderboard.Month
	received []time.Time
	rejected map[int]leaderboard.ScoreResult
}

// newBatch validates events as of now in the event time zone loc, where a
// month takes events until grace after its end.
func newBatch(events []leaderboard.ScoreEvent, now time.Time, loc *time.Location, grace time.Duration) *batch {
	b := &batch{
		events:   events,
		at:       make([]time.Time, len(events)),
		month:    make([]leaderboard.Month, len(events)),
		received: make([]time.Time, len(events)),
		rejected: map[int]leaderboard.ScoreResult{},
	}
	for i, e := range events {
		b.received[i] = now
		if err := e.Validate(now); err != nil {
			b.rejected[i] = leaderboard.Reject(e, leaderboard.Month{}, err)
			continue
		}
		b.at[i] = now
		if e.OccurredAt != nil {
			b.at[i] = *e.OccurredAt
		}
		b.month[i] = leaderboard.MonthOf(b.at[i], loc)
		if err := leaderboard.CheckMonth(b.month[i], leaderboard.MonthOf(now, loc)); err != nil {
			b.rejected[i] = leaderboard.Reject(e, leaderboard.Month{}, err)
		} else if closesAt := b.month[i].End(loc).Add(grace); !now.Before(closesAt) {
			// Past closesAt the month is due to close: refused even while it
			// is still OPEN, so nothing lands after the close was announced.
			b.rejected[i] = leaderboard.Reject(e, b.month[i], leaderboard.Errorf(leaderboard.EMONTHCLOSED,
				"month %s took events until %s", b.month[i], closesAt.UTC().Format(time.RFC3339)))
		}
	}
	return b
}

// months returns the months of the valid events, oldest first.
func (b *batch) months() []leaderboard.Month {
	set := map[leaderboard.Month]bool{}
	for i := range b.events {
		if _, bad := b.rejected[i]; !bad {
			set[b.month[i]] = true
		}
	}
	return slices.SortedFunc(maps.Keys(set), compareMonths)
}

func compareMonths(a, b leaderboard.Month) int {
	return a.Date().Compare(b.Date())
}

// scoreRow is a player's total in a month as the batch sees it.
type scoreRow struct {
	exists    bool // the row was in the database before the batch
	score     int
	reachedAt time.Time
	seq       int64
	// stored is the row's key as the database had it, for the rank counts.
	stored counterCell
	// changedBy is the index of the last event that changed the row in this
	// batch, or -1; it orders the sequence numbers handed out at the end.
	changedBy int
	// removed is set when an admin removed the player from the month: their
	// events for it are refused.
	removed bool
}

// acceptedEvent is an event that was APPLIED or UNCHANGED, as stored in
// score_events for idempotency and audit.
type acceptedEvent struct {
	index    int
	month    leaderboard.Month
	status   leaderboard.ScoreStatus
	oldScore *int
	newScore int
}

// priorEvent is an event id accepted before: its outcome, reported again as
// DUPLICATE, and what it asked, to tell a retry from a reused id.
type priorEvent struct {
	result leaderboard.ScoreResult
	mode   leaderboard.ScoreMode
	value  int
}

// sameAs reports whether e asks what the prior event asked. An event of an
// erased player (erasure.go) kept only its id: any event with that id is
// its retry.
func (p priorEvent) sameAs(e leaderboard.ScoreEvent) bool {
	return p.erased() || p.result.PlayerID == e.PlayerID && p.mode == e.Mode && p.value == e.Value
}

// erased reports whether the prior event was an erased player's: its
// player, mode, value and totals are gone, and its retry answers DUPLICATE
// with no score.
func (p priorEvent) erased() bool { return p.result.PlayerID == erasedPlayer }

// outcome is what the retry e of the prior event answers.
func (p priorEvent) outcome(e leaderboard.ScoreEvent) leaderboard.ScoreResult {
	r := p.result
	if p.erased() {
		r.PlayerID, r.Score = e.PlayerID, nil
	}
	return r
}

// decide applies the score rules to every event in order, updating rows and
// filling results, and returns the events to record as accepted.
func decide(b *batch, status map[leaderboard.Month]leaderboard.MonthStatus, applied map[string]priorEvent,
	rows map[monthPlayer]*scoreRow, results []leaderboard.ScoreResult) []acceptedEvent {
	var accepted []acceptedEvent
	for i, e := range b.events {
		// A retry is DUPLICATE even once its month stopped taking events.
		if prior, ok := applied[e.EventID]; ok && prior.sameAs(e) {
			results[i] = prior.outcome(e)
			continue
		} else if ok {
			results[i] = leaderboard.Reject(e, leaderboard.Month{}, leaderboard.Errorf(leaderboard.EBADINPUT,
				"eventId %q was used before for a different event (player, mode or value): an eventId names one event", e.EventID))
			continue
		}
		if r, bad := b.rejected[i]; bad {
			results[i] = r
			continue
		}
		m := b.month[i]
		// A month without a row is not open yet: decide as if it were, and
		// applyBatch opens it first if any of its events is accepted.
		if s, ok := status[m]; ok && s != leaderboard.MonthOpen {
			results[i] = leaderboard.Reject(e, m, leaderboard.Errorf(leaderboard.EMONTHCLOSED,
				"month %s is %s and takes no more scores", m, s))
			continue
		}
		row := rows[monthPlayer{Month: m, PlayerID: e.PlayerID}]
		if row.removed {
			results[i] = leaderboard.Reject(e, m, leaderboard.Errorf(leaderboard.EFORBIDDEN,
				"player %q was removed from month %s by an admin", e.PlayerID, m))
			continue
		}
		seen := row.exists || row.changedBy >= 0
		total := e.Mode.Apply(row.score, e.Value)
		if total < leaderboard.MinScore || total > leaderboard.MaxScore {
			results[i] = leaderboard.Reject(e, m, leaderboard.OutOfRange(total))
			continue
		}
		a := acceptedEvent{index: i, month: m, status: leaderboard.StatusUnchanged, newScore: total}
		if seen {
			a.oldScore = new(row.score)
		}
		if !seen || total != row.score {
			a.status = leaderboard.StatusApplied
			// A late event never moves reachedAt backwards.
			if !seen || b.at[i].After(row.reachedAt) {
				row.reachedAt = b.at[i]
			}
			row.score = total
			row.changedBy = i
		}
		accepted = append(accepted, a)
		results[i] = leaderboard.ScoreResult{EventID: e.EventID, Status: a.status, Month: m, PlayerID: e.PlayerID, Score: new(total)}
		applied[e.EventID] = priorEvent{mode: e.Mode, value: e.Value, result: leaderboard.ScoreResult{
			EventID: e.EventID, Status: leaderboard.StatusDuplicate, Month: m, PlayerID: e.PlayerID, Score: new(total)}}
	}
	return accepted
}

// monthsToOpen returns the months, oldest first, of accepted events that have
// no month row yet.
func monthsToOpen(status map[leaderboard.Month]leaderboard.MonthStatus, accepted []acceptedEvent) unopenedMonths {
	var out unopenedMonths
	for _, a := range accepted {
		if _, ok := status[a.month]; !ok && !slices.Contains(out, a.month) {
			out = append(out, a.month)
		}
	}
	slices.SortFunc(out, compareMonths)
	return out
}

// assignSeqs hands each changed row one of seqs, in the order of the events
// that changed them, so exact ties of time rank by arrival.
func assignSeqs(rows map[monthPlayer]*scoreRow, seqs []int64) {
	var changed []*scoreRow
	for _, r := range rows {
		if r.changedBy >= 0 {
			changed = append(changed, r)
		}
	}
	slices.SortFunc(changed, func(a, b *scoreRow) int { return a.changedBy - b.changedBy })
	for i, r := range changed {
		r.seq = seqs[i]
	}
}
