package db_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// oracle applies score events the plainest possible way and ranks by sorting,
// as a reference for the store's results, ranks, windows and pages.
type oracle struct {
	rows     map[string]*oracleRow
	accepted map[string]int // event id -> total it left
	arrivals int
}

type oracleRow struct {
	player    string
	score     int
	reachedAt time.Time
	arrival   int // order in which the row last changed
}

func newOracle() *oracle {
	return &oracle{rows: map[string]*oracleRow{}, accepted: map[string]int{}}
}

func (o *oracle) apply(e leaderboard.ScoreEvent) outcome {
	if total, ok := o.accepted[e.EventID]; ok {
		return duplicate(total)
	}
	row, seen := o.rows[e.PlayerID]
	current := 0
	if seen {
		current = row.score
	}
	var total int
	switch e.Mode {
	case leaderboard.ModeAdd:
		total = current + e.Value
	case leaderboard.ModeSet:
		total = e.Value
	case leaderboard.ModeBest:
		total = max(current, e.Value)
	}
	if total < 0 || total > 10000 || (e.Mode != leaderboard.ModeAdd && (e.Value < 0 || e.Value > 10000)) {
		return rejected(leaderboard.EBADINPUT)
	}
	o.accepted[e.EventID] = total
	if seen && total == current {
		return unchanged(total)
	}
	if !seen {
		row = &oracleRow{player: e.PlayerID, reachedAt: *e.OccurredAt}
		o.rows[e.PlayerID] = row
	}
	if e.OccurredAt.After(row.reachedAt) {
		row.reachedAt = *e.OccurredAt
	}
	row.score = total
	o.arrivals++
	row.arrival = o.arrivals
	return applied(total)
}

// ranking returns every player, best first.
func (o *oracle) ranking() []leaderboard.RankEntry {
	rows := make([]*oracleRow, 0, len(o.rows))
	for _, r := range o.rows {
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b *oracleRow) int {
		switch {
		case a.score != b.score:
			return b.score - a.score
		case !a.reachedAt.Equal(b.reachedAt):
			return a.reachedAt.Compare(b.reachedAt)
		}
		return a.arrival - b.arrival
	})
	out := make([]leaderboard.RankEntry, len(rows))
	for i, r := range rows {
		out[i] = leaderboard.RankEntry{Rank: i + 1, Score: r.score, ReachedAt: r.reachedAt, Player: leaderboard.Player{ID: r.player}}
	}
	return out
}

// randomEvents returns n events over few players, scores and times, so that
// exact ties of score and time are common, with retried ids and rejects.
func randomEvents(rng *rand.Rand, n int) []leaderboard.ScoreEvent {
	modes := []leaderboard.ScoreMode{leaderboard.ModeAdd, leaderboard.ModeSet, leaderboard.ModeBest}
	events := make([]leaderboard.ScoreEvent, 0, n)
	for i := range n {
		if i > 0 && rng.IntN(10) == 0 {
			events = append(events, events[rng.IntN(len(events))]) // a retry
			continue
		}
		mode := modes[rng.IntN(len(modes))]
		value := 10 * rng.IntN(8)
		switch {
		case mode == leaderboard.ModeAdd:
			value -= 20
		case rng.IntN(25) == 0:
			value = 10001
		}
		// Few times, on both sides of hour boundaries and of the middle of
		// the month (the 16th, 00:00), where live ranks count from the
		// month's other end.
		const mid = 15 * 24 * 60
		minute := []int{0, 59, 60, 61, 125, mid - 1, mid, mid + 61, mid + 4*24*60 + 30}[rng.IntN(9)]
		events = append(events, event(fmt.Sprint("e", i), fmt.Sprint("p", rng.IntN(40)), mode, value, at(minute)))
	}
	return events
}

// Random event streams, full of ties, duplicates and rejects: every result,
// rank, window and page matches the oracle, live and after the close.
func TestRanks_MatchPlainSortOracle(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 2026))
			store := mustOpenDB(t)
			o := newOracle()
			events := randomEvents(rng, 400)
			for len(events) > 0 {
				n := min(len(events), 1+rng.IntN(30))
				results := mustSubmit(t, store, events[:n]...)
				want := make([]outcome, n)
				for i, e := range events[:n] {
					want[i] = o.apply(e)
				}
				assertOutcomes(t, results, want...)
				events = events[n:]
			}
			checkAgainstOracle(t, rng, store, o.ranking(), false)
			mustClose(t, store, november)
			checkAgainstOracle(t, rng, store, o.ranking(), true)
		})
	}
}

func checkAgainstOracle(t *testing.T, rng *rand.Rand, store *db.DB, want []leaderboard.RankEntry, final bool) {
	t.Helper()
	ctx := context.Background()
	for i, w := range want {
		above, below := rng.IntN(13), rng.IntN(13)
		s, err := mainStanding(ctx, store, november, w.Player.ID, above, below)
		if err != nil {
			t.Fatal(err)
		}
		if s == nil || s.RankEntry.Rank != w.Rank || s.Score != w.Score || !s.ReachedAt.Equal(w.ReachedAt) ||
			s.Total != len(want) || s.Final != final {
			t.Fatalf("standing of %s: got %+v, want %+v of %d (final %t)", w.Player.ID, s, w, len(want), final)
		}
		wantWindow := append(slices.Clone(want[max(0, i-above):i]), want[i+1:min(len(want), i+1+below)]...)
		if got := s.Neighbours(above, below); !sameEntries(got, wantWindow) {
			t.Fatalf("neighbours(%d, %d) of %s at rank %d:\n got  %s\n want %s",
				above, below, w.Player.ID, w.Rank, entries(got), entries(wantWindow))
		}
	}
	var paged []leaderboard.RankEntry
	for after, pages := "", 0; ; pages++ {
		page, err := mainLeaderboard(ctx, store, november, 1+rng.IntN(7), after)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != len(want) {
			t.Fatalf("page total %d, want %d", page.Total, len(want))
		}
		for _, e := range page.Edges {
			paged = append(paged, e.Entry)
			after = e.Cursor
		}
		if !page.HasNextPage {
			break
		}
		if pages > len(want) {
			t.Fatal("paging does not end")
		}
	}
	if !sameEntries(paged, want) {
		t.Fatalf("paged table:\n got  %s\n want %s", entries(paged), entries(want))
	}
	if !final {
		keys := make([]leaderboard.PeriodPlayer, len(want))
		for i, w := range want {
			keys[i] = leaderboard.PeriodPlayer{Board: leaderboard.MainBoard, Period: november.String(), PlayerID: w.Player.ID}
		}
		ranks, err := store.LiveRanks(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if got := ranks[leaderboard.PeriodPlayer{Board: leaderboard.MainBoard, Period: november.String(), PlayerID: w.Player.ID}]; got != w.Rank {
				t.Fatalf("live rank of %s: %d, want %d", w.Player.ID, got, w.Rank)
			}
		}
	}
}

func sameEntries(a, b []leaderboard.RankEntry) bool {
	return slices.EqualFunc(a, b, func(x, y leaderboard.RankEntry) bool {
		return x.Rank == y.Rank && x.Score == y.Score && x.Player.ID == y.Player.ID && x.ReachedAt.Equal(y.ReachedAt)
	})
}

func entries(es []leaderboard.RankEntry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("%d:%s:%d", e.Rank, e.Player.ID, e.Score)
	}
	return strings.Join(parts, " ")
}

func TestLeaderboard_RefusesCursorOfAnotherMonth(t *testing.T) {
	store := mustOpenDB(t)
	october := mustMonth("2026-10")
	inOctober := october.Start(time.UTC).Add(time.Hour)
	mustSubmit(t, store,
		event("1", "a", leaderboard.ModeSet, 10, at(1)),
		event("2", "b", leaderboard.ModeSet, 20, at(2)),
		event("3", "c", leaderboard.ModeSet, 30, &inOctober),
	)
	page, err := mainLeaderboard(context.Background(), store, november, 1, "")
	if err != nil || len(page.Edges) != 1 {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	if _, err := mainLeaderboard(context.Background(), store, october, 1, page.Edges[0].Cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Errorf("a November cursor on October: %v, want BAD_USER_INPUT", err)
	}
}

func TestLeaderboard_RefusesLiveCursorAfterClose(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store,
		event("1", "a", leaderboard.ModeSet, 10, at(1)),
		event("2", "b", leaderboard.ModeSet, 20, at(2)),
	)
	page, err := mainLeaderboard(context.Background(), store, november, 1, "")
	if err != nil || len(page.Edges) != 1 {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	mustClose(t, store, november)
	if _, err := mainLeaderboard(context.Background(), store, november, 1, page.Edges[0].Cursor); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Errorf("a live cursor after the close: %v, want BAD_USER_INPUT", err)
	}
	final, err := mainLeaderboard(context.Background(), store, november, 1, "")
	if err != nil || len(final.Edges) != 1 {
		t.Fatalf("first final page: %+v, %v", final, err)
	}
	next, err := mainLeaderboard(context.Background(), store, november, 1, final.Edges[0].Cursor)
	if err != nil || len(next.Edges) != 1 || next.Edges[0].Entry.Player.ID != "a" {
		t.Errorf("second final page: %+v, %v", next, err)
	}
}

// Game servers submit at once, and their calls are written together in
// shared transactions (one writer, a few calls each): every call gets its
// own results, and ranks, windows and pages match the oracle live and after
// the close. Each server has its own players and its own second of every
// minute, so the ranking does not depend on how the calls interleave.
func TestRanks_ConcurrentMergedCallsMatchPlainSortOracle(t *testing.T) {
	const servers = 4
	rng := rand.New(rand.NewPCG(7, 2026))
	store := mustOpenDB(t, db.WithLimits(db.Limits{SubmitWriters: 1, SubmitMergeEvents: 40}))
	o := newOracle()
	calls := make([][][]leaderboard.ScoreEvent, servers)
	wants := make([][][]outcome, servers)
	for s := range servers {
		events := serverEvents(s, randomEvents(rng, 200))
		for len(events) > 0 {
			n := min(len(events), 1+rng.IntN(30))
			want := make([]outcome, n)
			for i, e := range events[:n] {
				want[i] = o.apply(e)
			}
			calls[s], wants[s] = append(calls[s], events[:n]), append(wants[s], want)
			events = events[n:]
		}
	}
	results := submitConcurrently(t, store, calls)
	for s := range servers {
		for i, got := range results[s] {
			assertOutcomes(t, got, wants[s][i]...)
		}
	}
	checkAgainstOracle(t, rng, store, o.ranking(), false)
	mustClose(t, store, november)
	checkAgainstOracle(t, rng, store, o.ranking(), true)
}

// serverEvents gives events to server s: its own event ids and players, and
// times s seconds into their minute.
func serverEvents(s int, events []leaderboard.ScoreEvent) []leaderboard.ScoreEvent {
	for i, e := range events {
		occurred := e.OccurredAt.Add(time.Duration(s) * time.Second)
		e.EventID, e.PlayerID, e.OccurredAt = fmt.Sprintf("s%d-%s", s, e.EventID), fmt.Sprintf("s%d-%s", s, e.PlayerID), &occurred
		events[i] = e
	}
	return events
}
