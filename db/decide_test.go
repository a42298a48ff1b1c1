package db

import (
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The score rules, decided without a database: rows stand for what the
// batch read and locked.
func TestDecide_ScoreRules(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	november := leaderboard.MonthOf(now, time.UTC)
	t1, t2, t3 := now.Add(-3*time.Hour), now.Add(-2*time.Hour), now.Add(-time.Hour)
	ev := func(id string, mode leaderboard.ScoreMode, value int, at time.Time) leaderboard.ScoreEvent {
		return leaderboard.ScoreEvent{EventID: id, PlayerID: "p", Mode: mode, Value: value, OccurredAt: &at}
	}
	type want struct {
		status leaderboard.ScoreStatus
		score  int // after the event; -1 when rejected
		code   string
	}
	for _, c := range []struct {
		name      string
		stored    *scoreRow // the player's row before the batch; nil for none
		status    leaderboard.MonthStatus
		prior     map[string]priorEvent
		removed   bool
		events    []leaderboard.ScoreEvent
		want      []want
		reachedAt time.Time // the row's reachedAt after the batch
	}{
		{name: "FirstEventApplied", events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 0, t1)},
			want: []want{{leaderboard.StatusApplied, 0, ""}}, reachedAt: t1},
		{name: "AddSetBest", events: []leaderboard.ScoreEvent{
			ev("a", leaderboard.ModeAdd, 10, t1), ev("b", leaderboard.ModeSet, 7, t2), ev("c", leaderboard.ModeBest, 5, t3), ev("d", leaderboard.ModeBest, 9, t3)},
			want:      []want{{leaderboard.StatusApplied, 10, ""}, {leaderboard.StatusApplied, 7, ""}, {leaderboard.StatusUnchanged, 7, ""}, {leaderboard.StatusApplied, 9, ""}},
			reachedAt: t3},
		{name: "UnchangedKeepsReachedAt", stored: &scoreRow{exists: true, score: 5, reachedAt: t1},
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeSet, 5, t3)}, want: []want{{leaderboard.StatusUnchanged, 5, ""}}, reachedAt: t1},
		{name: "LateEventNeverMovesReachedAtBack", stored: &scoreRow{exists: true, score: 5, reachedAt: t3},
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 1, t1)}, want: []want{{leaderboard.StatusApplied, 6, ""}}, reachedAt: t3},
		{name: "OutOfRangeRejectedOthersApply", stored: &scoreRow{exists: true, score: 9995, reachedAt: t1},
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 10, t2), ev("b", leaderboard.ModeAdd, -9995, t3)},
			want:   []want{{leaderboard.StatusRejected, -1, leaderboard.EBADINPUT}, {leaderboard.StatusApplied, 0, ""}}, reachedAt: t3},
		{name: "ClosingMonthRejects", status: leaderboard.MonthClosing,
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 1, t1)}, want: []want{{leaderboard.StatusRejected, -1, leaderboard.EMONTHCLOSED}}},
		{name: "RemovedPlayerRejects", removed: true,
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 1, t1)}, want: []want{{leaderboard.StatusRejected, -1, leaderboard.EFORBIDDEN}}},
		{name: "RetryIsDuplicateReuseIsRejected",
			prior: map[string]priorEvent{"a": {mode: leaderboard.ModeAdd, value: 1,
				result: leaderboard.ScoreResult{EventID: "a", PlayerID: "p", Status: leaderboard.StatusDuplicate, Score: new(1)}}},
			events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 1, t1), ev("a", leaderboard.ModeAdd, 2, t1)},
			want:   []want{{leaderboard.StatusDuplicate, 1, ""}, {leaderboard.StatusRejected, -1, leaderboard.EBADINPUT}}},
		{name: "SameIDTwiceInABatch", events: []leaderboard.ScoreEvent{ev("a", leaderboard.ModeAdd, 3, t1), ev("a", leaderboard.ModeAdd, 3, t1)},
			want: []want{{leaderboard.StatusApplied, 3, ""}, {leaderboard.StatusDuplicate, 3, ""}}, reachedAt: t1},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBatch(c.events, now, time.UTC, 0)
			key := monthPlayer{Month: november, PlayerID: "p"}
			row := &scoreRow{changedBy: -1}
			if c.stored != nil {
				row = c.stored
				row.changedBy = -1
			}
			row.removed = c.removed
			status := map[leaderboard.Month]leaderboard.MonthStatus{november: cmpOr(c.status, leaderboard.MonthOpen)}
			prior := c.prior
			if prior == nil {
				prior = map[string]priorEvent{}
			}
			results := make([]leaderboard.ScoreResult, len(c.events))
			decide(b, status, prior, map[monthPlayer]*scoreRow{key: row}, results)
			for i, w := range c.want {
				r := results[i]
				switch {
				case r.Status != w.status:
					t.Errorf("event %d: %s, want %s (%+v)", i, r.Status, w.status, r)
				case w.score < 0 && (r.Score != nil || r.Err == nil || r.Err.Code != w.code):
					t.Errorf("event %d: %+v, want rejected with %s", i, r, w.code)
				case w.score >= 0 && (r.Score == nil || *r.Score != w.score):
					t.Errorf("event %d: score %v, want %d", i, r.Score, w.score)
				}
			}
			if !c.reachedAt.IsZero() && !row.reachedAt.Equal(c.reachedAt) {
				t.Errorf("reachedAt %s, want %s", row.reachedAt, c.reachedAt)
			}
		})
	}
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Validation happens per event: a bad occurredAt, a month too old or past
// its closesAt rejects that event only.
func TestNewBatch_RejectsPerEvent(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 10, 0, 0, time.UTC)
	october := now.Add(-time.Hour)
	future := now.Add(time.Minute)
	september := now.AddDate(0, -2, 0)
	events := []leaderboard.ScoreEvent{
		{EventID: "ok", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1},
		{EventID: "future", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1, OccurredAt: &future},
		{EventID: "old", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1, OccurredAt: &september},
		{EventID: "late", PlayerID: "p", Mode: leaderboard.ModeAdd, Value: 1, OccurredAt: &october},
	}
	for _, c := range []struct {
		grace time.Duration
		late  bool // the October event is past its month's closesAt
	}{{5 * time.Minute, true}, {15 * time.Minute, false}} {
		b := newBatch(events, now, time.UTC, c.grace)
		if _, bad := b.rejected[0]; bad {
			t.Errorf("grace %s: a valid event was rejected", c.grace)
		}
		if r := b.rejected[1]; r.Err == nil || r.Err.Code != leaderboard.EBADINPUT {
			t.Errorf("grace %s: future event %+v", c.grace, r)
		}
		if r := b.rejected[2]; r.Err == nil || r.Err.Code != leaderboard.EBADINPUT {
			t.Errorf("grace %s: September event %+v", c.grace, r)
		}
		r, bad := b.rejected[3]
		if bad != c.late || (bad && r.Err.Code != leaderboard.EMONTHCLOSED) {
			t.Errorf("grace %s: October event rejected %t: %+v", c.grace, bad, r)
		}
	}
}
