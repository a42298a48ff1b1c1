package db_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The oracle of the boards other than main: a Go model that applies
// Board.Decide to every event and ranks each period by a plain sort (the sort
// key, then who reached it first, then arrival). Random events, retries and
// reused ids interleaved over boards of both orders and every tie-break,
// with bounds, must give the model's results, standings and pages.

// boardOracleRow is a player's row in the model, with the arrival order of the
// event that last changed it.
type boardOracleRow struct {
	row     leaderboard.BoardRow
	arrival int
}

// boardOracleEvent is an event the model accepted.
type boardOracleEvent struct {
	e      leaderboard.ScoreEvent
	score  int
	period string
}

type oracleBoard struct {
	board   *leaderboard.Board
	seasons []leaderboard.Period
	events  map[string]boardOracleEvent
	rows    map[string]map[string]*boardOracleRow // period key, player
}

type boardOracle struct {
	boards  map[string]*oracleBoard
	arrival int
}

// period returns the period of b an event at at falls in, as of now, or the
// code that refuses it.
func (o *oracleBoard) period(at, now time.Time) (string, string) {
	b := o.board
	if at.Before(b.StartsAt) {
		return "", leaderboard.ENOTSTARTED
	}
	var (
		key        string
		start, end time.Time
		open       bool // a NONE board without an end
	)
	if b.Reset == leaderboard.ResetSeason {
		i := slices.IndexFunc(o.seasons, func(p leaderboard.Period) bool { return !at.Before(p.StartsAt) && at.Before(*p.EndsAt) })
		if i < 0 {
			return "", leaderboard.ENOTSTARTED
		}
		key, start, end = o.seasons[i].Key, o.seasons[i].StartsAt, *o.seasons[i].EndsAt
	} else {
		k, span, err := b.PeriodOf(at)
		if err != nil {
			panic(err)
		}
		key, start = k, span.Start
		if span.End == nil {
			open = true
		} else {
			end = *span.End
		}
	}
	switch {
	case b.EndsAt != nil && !start.Before(*b.EndsAt),
		!open && !at.Before(end),
		!open && !now.Before(end.Add(b.CloseGrace)):
		return key, leaderboard.EMONTHCLOSED
	}
	return key, ""
}

// submit applies events received at now and returns the results the model
// expects.
func (o *boardOracle) submit(events []leaderboard.ScoreEvent, now time.Time) []outcome {
	out := make([]outcome, len(events))
	for i, e := range events {
		ob := o.boards[e.BoardID()]
		if ob == nil {
			out[i] = rejected(leaderboard.ENOTFOUND)
			continue
		}
		if prior, ok := ob.events[e.EventID]; ok {
			p := prior.e
			if p.PlayerID == e.PlayerID && p.Mode == e.Mode && p.Value == e.Value && sameIntPtr(p.Subscore, e.Subscore) {
				out[i] = duplicate(prior.score)
			} else {
				out[i] = rejected(leaderboard.EBADINPUT)
			}
			continue
		}
		at := now
		if e.OccurredAt != nil {
			at = *e.OccurredAt
		}
		key, code := ob.period(at, now)
		if code != "" {
			out[i] = rejected(code)
			continue
		}
		if ob.rows[key] == nil {
			ob.rows[key] = map[string]*boardOracleRow{}
		}
		current := ob.rows[key][e.PlayerID]
		var row *leaderboard.BoardRow
		if current != nil {
			row = &current.row
		}
		next, changed, err := ob.board.Decide(e, at, row)
		if err != nil {
			out[i] = rejected(err.Code)
			continue
		}
		if changed {
			o.arrival++
			ob.rows[key][e.PlayerID] = &boardOracleRow{row: next, arrival: o.arrival}
			out[i] = applied(next.Score)
		} else {
			out[i] = unchanged(next.Score)
		}
		ob.events[e.EventID] = boardOracleEvent{e: e, score: next.Score, period: key}
	}
	return out
}

func sameIntPtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// boardOracleEntry is a row of a period's table in the model.
type boardOracleEntry struct {
	player string
	boardOracleRow
}

// table returns period key of the board ranked by a plain sort.
func (o *oracleBoard) table(key string) []boardOracleEntry {
	var entries []boardOracleEntry
	for player, r := range o.rows[key] {
		entries = append(entries, boardOracleEntry{player, *r})
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		ap, as := o.board.SortKey(a.row.Score, a.row.Subscore)
		bp, bs := o.board.SortKey(b.row.Score, b.row.Subscore)
		if c := cmp.Or(cmp.Compare(ap, bp), cmp.Compare(as, bs), a.row.ReachedAt.Compare(b.row.ReachedAt)); c != 0 {
			return c < 0
		}
		return a.arrival < b.arrival
	})
	return entries
}

// sameEntry reports how got differs from the model's entry at rank.
func sameEntry(got leaderboard.RankEntry, want boardOracleEntry, rank int) string {
	if got.Player.ID != want.player || got.Rank != rank || got.Score != want.row.Score ||
		!sameIntPtr(got.Subscore, want.row.Subscore) || !got.ReachedAt.Equal(want.row.ReachedAt) ||
		string(got.Metadata) != string(want.row.Metadata) {
		return fmt.Sprintf("got %s rank %d score %d subscore %v reached %s metadata %s; want %s rank %d score %d subscore %v reached %s metadata %s",
			got.Player.ID, got.Rank, got.Score, fmtInt(got.Subscore), got.ReachedAt.UTC(), got.Metadata,
			want.player, rank, want.row.Score, fmtInt(want.row.Subscore), want.row.ReachedAt.UTC(), want.row.Metadata)
	}
	return ""
}

func fmtInt(n *int) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprint(*n)
}

func TestBoardScores_MatchAPlainSort(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	specs := []leaderboard.BoardSpec{
		{ID: "day.desc", Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderDesc), MinScore: new(-20), MaxScore: new(40),
			TieBreak: new(leaderboard.TieBreakNone), TimeZone: new("Europe/Berlin"), CloseGrace: new(600), StartsAt: utc(11, 1, 0)},
		{ID: "week.asc", Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderAsc), MinScore: new(1), MaxScore: new(30),
			TieBreak: new(leaderboard.TieBreakSubscoreDesc), TimeZone: new("UTC"), CloseGrace: new(3600), StartsAt: utc(11, 1, 0)},
		{ID: "month.desc", Reset: leaderboard.ResetMonth, Order: new(leaderboard.OrderDesc), MinScore: new(0), MaxScore: new(50),
			TieBreak: new(leaderboard.TieBreakSubscoreAsc), TimeZone: new("America/New_York"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)},
		{ID: "all.asc", Reset: leaderboard.ResetNone, Order: new(leaderboard.OrderAsc), MinScore: new(-10), MaxScore: new(25),
			TieBreak: new(leaderboard.TieBreakSubscoreAsc), TimeZone: new("UTC"), CloseGrace: new(1800),
			StartsAt: utc(11, 19, 0), EndsAt: utc(11, 22, 18)},
		{ID: "season.desc", Reset: leaderboard.ResetSeason, Order: new(leaderboard.OrderDesc), MinScore: new(0), MaxScore: new(40),
			TieBreak: new(leaderboard.TieBreakSubscoreDesc), TimeZone: new("UTC"), CloseGrace: new(600), StartsAt: utc(11, 1, 0)},
	}
	model := &boardOracle{boards: map[string]*oracleBoard{}}
	for _, spec := range specs {
		spec.Name = spec.ID
		model.boards[spec.ID] = &oracleBoard{board: mustCreateBoard(t, store, spec),
			events: map[string]boardOracleEvent{}, rows: map[string]map[string]*boardOracleRow{}}
	}
	for _, s := range []struct {
		key        string
		start, end *time.Time
	}{{"a", utc(11, 18, 0), utc(11, 21, 6)}, {"b", utc(11, 21, 12), utc(12, 5, 0)}} {
		p, err := store.CreateSeason(ctx, "season.desc", s.key, *s.start, *s.end)
		if err != nil {
			t.Fatal(err)
		}
		model.boards["season.desc"].seasons = append(model.boards["season.desc"].seasons, *p)
	}
	boardIDs := slices.Sorted(maps.Keys(model.boards))
	players := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"}
	rng := rand.New(rand.NewPCG(26, 9))
	var sent []leaderboard.ScoreEvent
	newEvent := func(n int) leaderboard.ScoreEvent {
		e := leaderboard.ScoreEvent{EventID: fmt.Sprintf("e%d", n), PlayerID: players[rng.IntN(len(players))],
			Mode:  []leaderboard.ScoreMode{leaderboard.ModeAdd, leaderboard.ModeSet, leaderboard.ModeBest}[rng.IntN(3)],
			Value: rng.IntN(16) - 3, Board: boardIDs[rng.IntN(len(boardIDs))]}
		if rng.IntN(20) == 0 {
			e.Board = "nope"
		}
		if e.Mode == leaderboard.ModeAdd {
			e.Value = rng.IntN(9) - 3
		}
		if rng.IntN(10) < 7 {
			e.Subscore = new(rng.IntN(2))
		}
		if rng.IntN(10) < 6 {
			e.OccurredAt = new(now.Add(-time.Duration(rng.IntN(150)) * 10 * time.Minute))
		}
		if rng.IntN(3) == 0 {
			e.Metadata = json.RawMessage(fmt.Sprintf(`{"n": %d}`, n))
		}
		return e
	}
	const batches = 30
	for batch := range batches {
		var events []leaderboard.ScoreEvent
		for range 1 + rng.IntN(60) {
			var e leaderboard.ScoreEvent
			switch r := rng.IntN(20); {
			case r < 3 && len(sent) > 0: // a retry
				e = sent[rng.IntN(len(sent))]
			case r < 4 && len(sent) > 0: // an id used before, for another event or board
				e = newEvent(len(sent))
				e.EventID = sent[rng.IntN(len(sent))].EventID
			default:
				e = newEvent(len(sent))
			}
			sent = append(sent, e)
			events = append(events, e)
		}
		want := model.submit(events, now)
		results := mustSubmit(t, store, events...)
		if got := outcomes(results); fmt.Sprint(got) != fmt.Sprint(want) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("batch %d, event %d %+v: got %v, want %v (%v)", batch, i, events[i], got[i], want[i], results[i].Err)
				}
			}
		}
		for i, r := range results {
			if ob := model.boards[events[i].Board]; r.Status != leaderboard.StatusRejected &&
				(r.Board != events[i].Board || r.Period != ob.events[events[i].EventID].period) {
				t.Fatalf("batch %d, event %d: board %q period %q, want %q %q", batch, i, r.Board, r.Period,
					events[i].Board, ob.events[events[i].EventID].period)
			}
		}
		last := batch == batches-1
		for _, id := range boardIDs {
			ob := model.boards[id]
			for key := range ob.rows {
				checkPeriod(t, store, rng, ob, key, players, last)
			}
		}
		now = now.Add(3 * time.Hour)
	}
}

// checkPeriod compares every player's standing in period key of ob (with
// random neighbour counts, or all of 0..3 when all is set) and a pagination
// of the period with a random page size against the model.
func checkPeriod(t *testing.T, store *db.DB, rng *rand.Rand, ob *oracleBoard, key string, players []string, all bool) {
	t.Helper()
	ctx := context.Background()
	table := ob.table(key)
	where := fmt.Sprintf("board %s period %s", ob.board.ID, key)
	for _, player := range players {
		rank := 1 + slices.IndexFunc(table, func(e boardOracleEntry) bool { return e.player == player })
		counts := [][2]int{{rng.IntN(4), rng.IntN(4)}}
		if all {
			counts = counts[:0]
			for above := range 4 {
				for below := range 4 {
					counts = append(counts, [2]int{above, below})
				}
			}
		}
		for _, c := range counts {
			s, err := store.PeriodStanding(ctx, ob.board, key, player, c[0], c[1])
			if err != nil {
				t.Fatalf("%s: standing of %s: %v", where, player, err)
			}
			if rank == 0 {
				if s != nil {
					t.Fatalf("%s: %s has no row, got a standing %+v", where, player, s)
				}
				continue
			}
			if s == nil {
				t.Fatalf("%s: no standing of %s, want rank %d", where, player, rank)
			}
			if diff := sameEntry(s.RankEntry, table[rank-1], rank); diff != "" || s.Total != len(table) ||
				s.Board != ob.board.ID || s.Period != key || s.Final {
				t.Fatalf("%s: standing of %s: %s; total %d want %d", where, player, diff, s.Total, len(table))
			}
			wantAbove := table[max(0, rank-1-c[0]) : rank-1]
			wantBelow := table[rank:min(len(table), rank+c[1])]
			if len(s.Above) != len(wantAbove) || len(s.Below) != len(wantBelow) {
				t.Fatalf("%s: %s with %v neighbours: %d above, %d below; want %d, %d", where, player, c,
					len(s.Above), len(s.Below), len(wantAbove), len(wantBelow))
			}
			for i, e := range s.Above {
				if diff := sameEntry(e, wantAbove[i], rank-len(wantAbove)+i); diff != "" {
					t.Fatalf("%s: above %s: %s", where, player, diff)
				}
			}
			for i, e := range s.Below {
				if diff := sameEntry(e, wantBelow[i], rank+1+i); diff != "" {
					t.Fatalf("%s: below %s: %s", where, player, diff)
				}
			}
		}
	}
	size, after, rank := 1+rng.IntN(5), "", 0
	for {
		page, err := store.PeriodLeaderboard(ctx, ob.board, key, size, after)
		if err != nil {
			t.Fatalf("%s: page after rank %d: %v", where, rank, err)
		}
		if page.Total != len(table) {
			t.Fatalf("%s: page total %d, want %d", where, page.Total, len(table))
		}
		for _, edge := range page.Edges {
			rank++
			if rank > len(table) {
				t.Fatalf("%s: more than the period's %d rows", where, len(table))
			}
			if diff := sameEntry(edge.Entry, table[rank-1], rank); diff != "" {
				t.Fatalf("%s: page entry %d (size %d): %s", where, rank, size, diff)
			}
		}
		if page.HasNextPage != (rank < len(table)) {
			t.Fatalf("%s: hasNextPage %t after rank %d of %d", where, page.HasNextPage, rank, len(table))
		}
		if !page.HasNextPage {
			break
		}
		after = page.Edges[len(page.Edges)-1].Cursor
	}
	if rank != len(table) {
		t.Fatalf("%s: pages held %d rows, want %d", where, rank, len(table))
	}
}
