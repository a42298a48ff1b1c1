package e2e_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// model is the score rules of the contract, applied in the test to the
// events it sends, to say what the service must answer.
type model struct {
	players map[string]*modelPlayer
	events  map[string]int // accepted event id -> the total it left
	pos     int            // events sent so far: the order of arrival
}

// modelPlayer is one player's total in the model.
type modelPlayer struct {
	id        string
	score     int
	reachedAt time.Time
	arrival   int // position of the event that last changed the total
}

// newModel returns a model of a month without scores.
func newModel() *model {
	return &model{players: map[string]*modelPlayer{}, events: map[string]int{}}
}

// apply runs one event through the rules and returns the status and the
// total it leaves (-1 when rejected).
func (m *model) apply(e scoreEvent) (string, int) {
	m.pos++
	if total, ok := m.events[e.EventID]; ok {
		return "DUPLICATE", total
	}
	p, seen := m.players[e.PlayerID]
	current := 0
	if seen {
		current = p.score
	}
	var total int
	switch e.Mode {
	case "ADD":
		total = current + e.Value
	case "SET":
		total = e.Value
	case "BEST":
		total = max(current, e.Value)
	}
	if total < 0 || total > 10000 {
		return "REJECTED", -1
	}
	m.events[e.EventID] = total
	if seen && total == p.score {
		return "UNCHANGED", total
	}
	if !seen {
		p = &modelPlayer{id: e.PlayerID, reachedAt: *e.OccurredAt}
		m.players[e.PlayerID] = p
	}
	if e.OccurredAt.After(p.reachedAt) {
		p.reachedAt = *e.OccurredAt
	}
	p.score, p.arrival = total, m.pos
	return "APPLIED", total
}

// ranking returns the players in rank order: score high to low, earlier
// reachedAt first, earlier arrival first.
func (m *model) ranking() []*modelPlayer {
	out := make([]*modelPlayer, 0, len(m.players))
	for _, p := range m.players {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *modelPlayer) int {
		return cmp.Or(cmp.Compare(b.score, a.score), a.reachedAt.Compare(b.reachedAt), cmp.Compare(a.arrival, b.arrival))
	})
	return out
}

// rankOf returns the model's rank of playerID.
func (m *model) rankOf(playerID string) int {
	return slices.IndexFunc(m.ranking(), func(p *modelPlayer) bool { return p.id == playerID }) + 1
}

// checkTable compares the service's whole table of month with the model.
func (m *model) checkTable(t *testing.T, s *server, month, what string) {
	t.Helper()
	want := m.ranking()
	got := s.table(t, month)
	if len(got) != len(want) {
		t.Fatalf("%s: table has %d rows, want %d", what, len(got), len(want))
	}
	for i, p := range want {
		g := got[i]
		if g.Rank != i+1 || g.Player.ID != p.id || g.Score != p.score || !g.ReachedAt.Equal(p.reachedAt) {
			t.Fatalf("%s: row %d is rank %d %s score %d reached %s, want rank %d %s score %d reached %s",
				what, i, g.Rank, g.Player.ID, g.Score, g.ReachedAt, i+1, p.id, p.score, p.reachedAt)
		}
	}
}

// checkStandings compares every player's standing and ±10 neighbours with
// the model.
func (m *model) checkStandings(t *testing.T, s *server, month string, final bool) {
	t.Helper()
	ranking := m.ranking()
	expected := make([]seeded, len(ranking))
	for i, p := range ranking {
		expected[i] = seeded{id: p.id, name: "", score: p.score, reachedAt: p.reachedAt}
	}
	for i, p := range ranking {
		checkStanding(t, s.mustStanding(t, month, p.id), month, expected, i+1, 10, 10, final)
	}
}

// spread returns c with ticks step apart, failing the test when the last
// tick would leave the month or lie in the future.
func spread(t *testing.T, c clock, step time.Duration) clock {
	t.Helper()
	c.step = step
	if last := *c.at(maxTicks - 1); !last.Before(c.endsAt) || last.After(time.Now()) {
		t.Fatalf("ticks %s apart from %s leave the month %s", step, c.base, c.month)
	}
	return c
}

func TestRanking_LiveAndFinalRanksFollowAModelOfTheRules(t *testing.T) {
	s := startServer(t)
	// The previous month, open: ticks 20 minutes apart cross hours, and every
	// third one starts an hour.
	c := spread(t, previousMonth(t), 20*time.Minute)
	rng := rand.New(rand.NewPCG(1, 2))
	// Scores around the edges of hundreds and of the range, reached in a
	// few instants, so that ties of score and of time abound.
	values := []int{0, 1, 50, 99, 100, 101, 150, 199, 200, 201, 299, 300, 9900, 9999, 10000}
	adds := []int{-300, -101, -100, -99, -1, 0, 1, 99, 100, 101, 9999}
	m := newModel()
	var sent []scoreEvent
	for batch := range 12 {
		events := make([]scoreEvent, 30)
		for i := range events {
			if len(sent) > 0 && rng.IntN(10) == 0 {
				events[i] = sent[rng.IntN(len(sent))] // a retry
				continue
			}
			player := fmt.Sprintf("p%02d", rng.IntN(25))
			at := c.at(rng.IntN(12))
			id := fmt.Sprintf("b%d-e%d", batch, i)
			switch rng.IntN(3) {
			case 0:
				events[i] = ev(id, player, "ADD", adds[rng.IntN(len(adds))], at)
			case 1:
				events[i] = ev(id, player, "SET", values[rng.IntN(len(values))], at)
			default:
				events[i] = ev(id, player, "BEST", values[rng.IntN(len(values))], at)
			}
		}
		sent = append(sent, events...)
		results := s.submit(t, events...)
		type outcome struct {
			status string
			score  int
		}
		want := make([]outcome, len(events))
		for i, e := range events {
			want[i].status, want[i].score = m.apply(e)
		}
		for i, r := range results {
			rank := -1
			if want[i].status != "REJECTED" {
				rank = m.rankOf(events[i].PlayerID)
			}
			if r.Status != want[i].status || intOr(r.Score, -1) != want[i].score || intOr(r.Rank, -1) != rank {
				t.Fatalf("batch %d event %d (%+v): got %s score %s rank %s, want %s score %d rank %d (error %s)",
					batch, i, events[i], r.Status, fmtInt(r.Score), fmtInt(r.Rank), want[i].status, want[i].score, rank,
					strOr(r.Error, "null"))
			}
		}
		m.checkTable(t, s, c.month, fmt.Sprintf("after batch %d", batch))
	}
	m.checkStandings(t, s, c.month, false)

	s.closeMonth(t, c.month)
	m.checkTable(t, s, c.month, "closed")
	m.checkStandings(t, s, c.month, true)
}
