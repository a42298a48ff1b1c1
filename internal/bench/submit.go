package bench

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard/db"
)

// submitQuery sends one batch of score events.
const submitQuery = `mutation Submit($events: [ScoreEvent!]!) {
  submitScores(events: $events) { eventId status score }
}`

// scoreEvent is one ScoreEvent input of submitQuery.
type scoreEvent struct {
	EventID    string `json:"eventId"`
	PlayerID   string `json:"playerId"`
	PlayerName string `json:"playerName,omitempty"`
	Mode       string `json:"mode"`
	Value      int    `json:"value"`
}

// The mix of a generated batch, in percent of its events; the rest are
// first events of new players.
const (
	addShare  = 40 // ADD 1..10 to a seeded player
	bestShare = 30 // BEST 0..3000 for a seeded player
	setShare  = 20 // SET 0..3000 for a seeded player
)

// EventSource makes the events of one client: a mix of ADD, BEST and SET on
// random seeded players, and first events of new players.
type EventSource struct {
	rng     *rand.Rand
	prefix  string
	players int
	// noAdd holds the seeded players an ADD could push past the maximum
	// score; they get BEST or SET instead.
	noAdd map[string]bool
	next  int
}

// NewEventSource returns an event source whose event ids are prefix and a
// counter, whose players are drawn from seeded players 1..players and new
// ones, and whose random choices follow seed.
func NewEventSource(prefix string, seed uint64, players int, noAdd map[string]bool) *EventSource {
	return &EventSource{rng: rand.New(rand.NewPCG(seed, 3)), prefix: prefix, players: players, noAdd: noAdd}
}

// Batch returns the next n events.
func (s *EventSource) Batch(n int) []scoreEvent {
	events := make([]scoreEvent, n)
	for i := range events {
		s.next++
		e := scoreEvent{EventID: fmt.Sprintf("%s%d", s.prefix, s.next), PlayerID: db.SeedPlayerID(1 + s.rng.IntN(s.players))}
		switch roll := s.rng.IntN(100); {
		case roll < addShare && !s.noAdd[e.PlayerID]:
			e.Mode, e.Value = "ADD", 1+s.rng.IntN(10)
		case roll < addShare+bestShare:
			e.Mode, e.Value = "BEST", s.rng.IntN(3001)
		case roll < addShare+bestShare+setShare:
			e.Mode, e.Value = "SET", s.rng.IntN(3001)
		default:
			e.PlayerID = "new-" + e.EventID
			e.PlayerName = db.SeedPlayerName(s.rng)
			e.Mode, e.Value = "BEST", s.rng.IntN(3001)
		}
		events[i] = e
	}
	return events
}

// Acknowledged counts the events the service answered APPLIED or UNCHANGED.
type Acknowledged struct {
	Applied, Unchanged atomic.Int64
}

// Total returns all acknowledged events.
func (a *Acknowledged) Total() int64 { return a.Applied.Load() + a.Unchanged.Load() }

// HTTPSubmit returns, for each client of a load, an Op that sends a batch
// of size events from its own EventSource (event ids: prefix, run, client,
// counter) with the game-server token and checks that every event came
// back, in order, APPLIED or UNCHANGED; it counts them in ack.
func HTTPSubmit(c *GraphQL, token, prefix string, size, players int, noAdd map[string]bool, ack *Acknowledged) Workload {
	return func(run, client int) Op {
		source := NewEventSource(fmt.Sprintf("%s%d-%d-", prefix, run, client), uint64(run)<<32|uint64(client), players, noAdd)
		return func(ctx context.Context) error {
			events := source.Batch(size)
			var data struct {
				SubmitScores []struct {
					EventID string `json:"eventId"`
					Status  string `json:"status"`
					Score   *int   `json:"score"`
				} `json:"submitScores"`
			}
			if err := c.Do(ctx, token, submitQuery, map[string]any{"events": events}, &data); err != nil {
				return fmt.Errorf("submit %d events: %w", len(events), err)
			}
			if len(data.SubmitScores) != len(events) {
				return fmt.Errorf("submit %d events: %d results", len(events), len(data.SubmitScores))
			}
			// Every acknowledged event is counted, even in a batch with a
			// wrong result, so that the count can be checked against the
			// stored events whatever happened.
			var wrong error
			for i, r := range data.SubmitScores {
				switch {
				case r.EventID != events[i].EventID:
					wrong = cmp.Or(wrong, fmt.Errorf("result %d is for %s, want %s", i, r.EventID, events[i].EventID))
				case r.Status == "APPLIED":
					ack.Applied.Add(1)
				case r.Status == "UNCHANGED":
					ack.Unchanged.Add(1)
				default:
					wrong = cmp.Or(wrong, fmt.Errorf("event %s (%s %d for %s): %s",
						r.EventID, events[i].Mode, events[i].Value, events[i].PlayerID, r.Status))
				}
			}
			return wrong
		}
	}
}

// StoredEvents counts the events in score_events whose id starts with prefix.
func StoredEvents(ctx context.Context, pool *pgxpool.Pool, prefix string) (int64, error) {
	const q = `SELECT count(*) FROM score_events WHERE starts_with(event_id, $1)`
	var n int64
	if err := pool.QueryRow(ctx, q, prefix).Scan(&n); err != nil {
		return 0, fmt.Errorf("count stored events: %w", err)
	}
	return n, nil
}
