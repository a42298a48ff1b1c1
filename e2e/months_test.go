package e2e_test

import (
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
)

func TestCloseMonth_FreezesOnceAndRefusesLaterEvents(t *testing.T) {
	s := startServer(t)
	prev, cur := previousMonth(t), currentMonth(t)
	s.submit(t,
		ev("p1", "ann", "SET", 300, prev.at(1)),
		ev("p2", "ben", "SET", 200, prev.at(2)),
		ev("p3", "cat", "SET", 100, prev.at(3)),
		ev("c1", "ann", "SET", 50, cur.at(1)),
	)
	if m := s.month(t, prev.month); m == nil || m.Status != "OPEN" || m.Participants != 3 || m.ClosedAt != nil ||
		!m.EndsAt.Equal(prev.endsAt) {
		t.Fatalf("before closing: month %+v, want OPEN with 3 participants, no closedAt, ending %s", m, prev.endsAt)
	}

	before := time.Now()
	closed := s.closeMonth(t, prev.month)
	after := time.Now()
	if closed.Month != prev.month || closed.Status != "CLOSED" || closed.Participants != 3 || !closed.EndsAt.Equal(prev.endsAt) {
		t.Errorf("closeMonth answered %+v, want %s CLOSED with 3 participants ending %s", closed, prev.month, prev.endsAt)
	}
	if closed.ClosedAt == nil || closed.ClosedAt.Before(before.Add(-time.Second)) || closed.ClosedAt.After(after.Add(time.Second)) {
		t.Fatalf("closedAt %v, want the time of the call (%s .. %s)", closed.ClosedAt, before, after)
	}

	// Idempotent: closing again changes nothing.
	again := s.closeMonth(t, prev.month)
	if again.Status != "CLOSED" || again.Participants != 3 || again.ClosedAt == nil || !again.ClosedAt.Equal(*closed.ClosedAt) {
		t.Errorf("second closeMonth answered %+v (closedAt %v), want it unchanged, closedAt %s", again, again.ClosedAt, closed.ClosedAt)
	}

	// Events for the closed month are refused, new players included; a retry
	// of an event applied before the close is still only a duplicate.
	results := s.submit(t,
		ev("p4", "ann", "ADD", 1000, prev.at(4)),
		ev("p5", "dan", "SET", 9000, prev.at(5)),
		ev("p1", "ann", "SET", 300, prev.at(1)),
		ev("c2", "ann", "ADD", 1, cur.at(2)),
	)
	for _, r := range results[:2] {
		checkRejected(t, r, "MONTH_CLOSED")
		if strOr(r.Month, "") != prev.month {
			t.Errorf("event %s: month %s, want %s", r.EventID, strOr(r.Month, "null"), prev.month)
		}
	}
	checkResult(t, results[2], "DUPLICATE", 300, 1)
	checkResult(t, results[3], "APPLIED", 51, 1)

	if m := s.month(t, prev.month); m == nil || m.Status != "CLOSED" || m.Participants != 3 || m.ClosedAt == nil ||
		!m.ClosedAt.Equal(*closed.ClosedAt) {
		t.Errorf("after refused events: month %+v, want CLOSED with 3 participants closed at %s", m, closed.ClosedAt)
	}
	if st := s.standing(t, prev.month, "dan"); st != nil {
		t.Errorf("refused player dan has a standing: %+v", st)
	}
	if st := s.mustStanding(t, prev.month, "ann"); st.Score != 300 || st.Rank != 1 || !st.Final || st.Total != 3 {
		t.Errorf("ann after the close: %+v, want score 300 rank 1 of 3, final", st)
	}
	checkOrder(t, s.table(t, prev.month), "ann", "ben", "cat")

	// The current month is untouched by the close.
	if m := s.month(t, cur.month); m == nil || m.Status != "OPEN" || m.Participants != 1 || m.ClosedAt != nil ||
		!m.EndsAt.Equal(cur.endsAt) {
		t.Errorf("current month %+v, want OPEN with 1 participant ending %s", m, cur.endsAt)
	}
}

func TestMonths_ListsNewestFirstAndMonthIsNullWithoutScores(t *testing.T) {
	s := startServer(t)
	prev, cur := previousMonth(t), currentMonth(t)
	if got := s.months(t, 12); len(got) != 0 {
		t.Fatalf("months of an empty service: %+v, want none", got)
	}
	if m := s.month(t, cur.month); m != nil {
		t.Fatalf("month without scores: %+v, want null", m)
	}
	// The older month opens second: the order must come from the months.
	s.submit(t, ev("c1", "a", "ADD", 1, cur.at(1)), ev("c2", "b", "ADD", 2, cur.at(2)))
	s.submit(t, ev("p1", "a", "ADD", 1, prev.at(1)))
	s.closeMonth(t, prev.month)

	got := s.months(t, 12)
	if len(got) != 2 || got[0].Month != cur.month || got[1].Month != prev.month {
		t.Fatalf("months: %+v, want %s then %s", got, cur.month, prev.month)
	}
	if got[0].Status != "OPEN" || got[0].Participants != 2 || got[0].ClosedAt != nil || !got[0].EndsAt.Equal(cur.endsAt) {
		t.Errorf("current month %+v, want OPEN with 2 participants ending %s", got[0], cur.endsAt)
	}
	if got[1].Status != "CLOSED" || got[1].Participants != 1 || got[1].ClosedAt == nil {
		t.Errorf("previous month %+v, want CLOSED with 1 participant and a closedAt", got[1])
	}
	if one := s.months(t, 1); len(one) != 1 || one[0].Month != cur.month {
		t.Errorf("months(first: 1): %+v, want only %s", one, cur.month)
	}
	for _, first := range []int{0, 121} {
		s.expectError(t, "", `query($n: Int) { months(first: $n) { month } }`, map[string]any{"n": first}, "BAD_USER_INPUT")
	}
}

func TestCloseMonth_UnknownMonthIsNotFound(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	r := s.expectError(t, adminToken, `mutation($m: Month!) { closeMonth(month: $m) { month status } }`,
		map[string]any{"m": prev.month}, "NOT_FOUND")
	if !r.dataIsNull() {
		t.Errorf("data %s, want null", r.Data)
	}
	if m := s.month(t, prev.month); m != nil {
		t.Errorf("closing an unknown month created it: %+v", m)
	}
}

func TestTimezone_MonthsFollowTheEventTimeZone(t *testing.T) {
	const zone = "Asia/Tokyo" // UTC+9, no daylight saving time
	s := startServer(t, func(c *app.Config) { c.Timezone = zone })
	tokyo, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	utcStart := monthStart(time.Now())
	thisMonth, lastMonth := utcStart.Format("2006-01"), utcStart.AddDate(0, -1, 0).Format("2006-01")
	lateUTC := utcStart.Add(-time.Hour)         // the current month's first morning in Tokyo
	earlierUTC := utcStart.Add(-10 * time.Hour) // still the last month's last day in Tokyo
	results := s.submit(t,
		ev("1", "ann", "SET", 10, &lateUTC),
		ev("2", "ann", "SET", 20, &earlierUTC),
	)
	if got := strOr(results[0].Month, ""); got != thisMonth {
		t.Errorf("event at %s counted in %s, want %s (Tokyo time %s)", lateUTC, got, thisMonth, lateUTC.In(tokyo))
	}
	if got := strOr(results[1].Month, ""); got != lastMonth {
		t.Errorf("event at %s counted in %s, want %s (Tokyo time %s)", earlierUTC, got, lastMonth, earlierUTC.In(tokyo))
	}
	wantEnds := map[string]time.Time{
		thisMonth: time.Date(utcStart.Year(), utcStart.Month()+1, 1, 0, 0, 0, 0, tokyo),
		lastMonth: time.Date(utcStart.Year(), utcStart.Month(), 1, 0, 0, 0, 0, tokyo),
	}
	for month, ends := range wantEnds {
		if m := s.month(t, month); m == nil || !m.EndsAt.Equal(ends) {
			t.Errorf("month %s: %+v, want it to end at %s", month, m, ends)
		}
	}
}
