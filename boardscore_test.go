package leaderboard

import (
	"encoding/json"
	"testing"
	"time"
)

func lapBoard(order SortOrder, tie TieBreak) *Board {
	return &Board{ID: "laps", Name: "Laps", Reset: ResetDay, Order: order, MinScore: 1, MaxScore: 600000,
		TieBreak: tie, Location: time.UTC}
}

func TestBoardDecide(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	t1, tEarly := t0.Add(time.Minute), t0.Add(-time.Minute)
	meta := json.RawMessage(`{"car":"red"}`)
	row := func(score int, sub *int) *BoardRow { return &BoardRow{Score: score, Subscore: sub, ReachedAt: t0} }
	ev := func(mode ScoreMode, value int, sub *int) ScoreEvent {
		return ScoreEvent{EventID: "e", PlayerID: "p", Mode: mode, Value: value, Subscore: sub, Metadata: meta}
	}
	tests := []struct {
		name      string
		board     *Board
		event     ScoreEvent
		at        time.Time
		row       *BoardRow
		want      int
		wantSub   *int
		changed   bool
		reachedAt time.Time
		err       bool
	}{
		{"first event", lapBoard(OrderAsc, TieBreakNone), ev(ModeBest, 900, nil), t1, nil, 900, nil, true, t1, false},
		{"ASC: BEST keeps the lower", lapBoard(OrderAsc, TieBreakNone), ev(ModeBest, 950, nil), t1, row(900, nil), 900, nil, false, t0, false},
		{"ASC: BEST takes a lower", lapBoard(OrderAsc, TieBreakNone), ev(ModeBest, 850, nil), t1, row(900, nil), 850, nil, true, t1, false},
		{"DESC: BEST takes a higher", lapBoard(OrderDesc, TieBreakNone), ev(ModeBest, 950, nil), t1, row(900, nil), 950, nil, true, t1, false},
		{"DESC: BEST keeps the higher", lapBoard(OrderDesc, TieBreakNone), ev(ModeBest, 850, nil), t1, row(900, nil), 900, nil, false, t0, false},
		{"BEST: an equal total with a better subscore", lapBoard(OrderAsc, TieBreakSubscoreDesc), ev(ModeBest, 900, new(5)), t1, row(900, new(3)), 900, new(5), true, t1, false},
		{"BEST: an equal total with a worse subscore", lapBoard(OrderAsc, TieBreakSubscoreAsc), ev(ModeBest, 900, new(5)), t1, row(900, new(3)), 900, new(3), false, t0, false},
		{"BEST: a subscore beats none", lapBoard(OrderAsc, TieBreakSubscoreAsc), ev(ModeBest, 900, new(99)), t1, row(900, nil), 900, new(99), true, t1, false},
		{"BEST without a tie-break ignores subscores", lapBoard(OrderAsc, TieBreakNone), ev(ModeBest, 900, new(5)), t1, row(900, new(3)), 900, new(3), false, t0, false},
		{"ADD", lapBoard(OrderDesc, TieBreakNone), ev(ModeAdd, 50, nil), t1, row(900, nil), 950, nil, true, t1, false},
		{"SET: a late event keeps reachedAt", lapBoard(OrderDesc, TieBreakNone), ev(ModeSet, 950, nil), tEarly, row(900, nil), 950, nil, true, t0, false},
		{"SET: the same total is unchanged", lapBoard(OrderDesc, TieBreakNone), ev(ModeSet, 900, nil), t1, row(900, nil), 900, nil, false, t0, false},
		{"ADD past the bounds", lapBoard(OrderDesc, TieBreakNone), ev(ModeAdd, 600000, nil), t1, row(900, nil), 900, nil, false, t0, true},
		{"SET below the bounds", lapBoard(OrderDesc, TieBreakNone), ev(ModeSet, 0, nil), t1, row(900, nil), 900, nil, false, t0, true},
		{"BEST out of bounds that would not win", lapBoard(OrderAsc, TieBreakNone), ev(ModeBest, 700000, nil), t1, row(900, nil), 0, nil, false, time.Time{}, true},
		{"first event out of bounds", lapBoard(OrderAsc, TieBreakNone), ev(ModeAdd, 0, nil), t1, nil, 0, nil, false, time.Time{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := tc.board.Decide(tc.event, tc.at, tc.row)
			if (err != nil) != tc.err || (err != nil && err.Code != EBADINPUT) {
				t.Fatalf("error %v, want one: %t", err, tc.err)
			}
			if err != nil {
				return
			}
			if got.Score != tc.want || !sameInt(got.Subscore, tc.wantSub) || changed != tc.changed || !got.ReachedAt.Equal(tc.reachedAt) {
				t.Fatalf("Decide = %+v changed %t, want %d sub %v changed %t at %s", got, changed, tc.want, tc.wantSub, tc.changed, tc.reachedAt)
			}
			if changed && string(got.Metadata) != string(meta) {
				t.Fatalf("a changed row keeps the event's metadata: %s", got.Metadata)
			}
		})
	}
}

func TestBoardSortKey_RanksAscendingInEveryOrder(t *testing.T) {
	type entry struct {
		score int
		sub   *int
	}
	for _, c := range []struct {
		board *Board
		order []entry // best first
	}{
		{lapBoard(OrderDesc, TieBreakNone), []entry{{10, nil}, {9, new(100)}, {-5, nil}}},
		{lapBoard(OrderAsc, TieBreakNone), []entry{{-5, nil}, {9, nil}, {10, nil}}},
		{lapBoard(OrderDesc, TieBreakSubscoreDesc), []entry{{10, new(7)}, {10, new(-3)}, {10, nil}, {9, new(100)}}},
		{lapBoard(OrderAsc, TieBreakSubscoreAsc), []entry{{9, new(-3)}, {9, new(7)}, {9, nil}, {10, new(-100)}}},
	} {
		for i := 1; i < len(c.order); i++ {
			a, b := c.order[i-1], c.order[i]
			if !c.board.ranksBefore(a.score, a.sub, b.score, b.sub) || c.board.ranksBefore(b.score, b.sub, a.score, a.sub) {
				t.Errorf("%s %s: %v does not rank before %v", c.board.Order, c.board.TieBreak, a, b)
			}
		}
	}
}

func TestBoardScoreOfSortKey_InvertsSortKey(t *testing.T) {
	for _, b := range []*Board{lapBoard(OrderDesc, TieBreakNone), lapBoard(OrderAsc, TieBreakNone),
		lapBoard(OrderDesc, TieBreakSubscoreDesc), lapBoard(OrderAsc, TieBreakSubscoreAsc)} {
		for _, row := range []struct {
			score int
			sub   *int
		}{{0, nil}, {600000, new(-2147483648)}, {-7, new(2147483647)}, {42, new(0)}} {
			score, sub := b.ScoreOfSortKey(b.SortKey(row.score, row.sub))
			want := row.sub
			if b.TieBreak == TieBreakNone {
				want = nil // not in the key
			}
			if score != row.score || !sameInt(sub, want) {
				t.Errorf("%s %s: (%d, %v) came back as (%d, %v)", b.Order, b.TieBreak, row.score, row.sub, score, sub)
			}
		}
	}
}

func TestScoreEvent_ValidateMetadataAndBoard(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	e := ScoreEvent{EventID: "e", PlayerID: "p", Mode: ModeSet, Value: 700000, Board: "laps"}
	if err := e.Validate(now); err != nil {
		t.Fatalf("a value past main's bounds on another board: %v (the board checks its own)", err)
	}
	for name, change := range map[string]func(*ScoreEvent){
		"a bad board id":   func(e *ScoreEvent) { e.Board = "Laps" },
		"subscore on main": func(e *ScoreEvent) { e.Board, e.Value, e.Subscore = "main", 10, new(1) },
		"metadata on main": func(e *ScoreEvent) { e.Board, e.Value, e.Metadata = "", 10, json.RawMessage(`{}`) },
	} {
		bad := e
		change(&bad)
		if err := bad.Validate(now); err == nil || err.Code != EBADINPUT {
			t.Errorf("%s: %v, want BAD_USER_INPUT", name, err)
		}
	}
}
