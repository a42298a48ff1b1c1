package bench

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/eventmix"
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

// inputOf returns e as a ScoreEvent input of submitQuery.
func inputOf(e leaderboard.ScoreEvent) scoreEvent {
	in := scoreEvent{EventID: e.EventID, PlayerID: e.PlayerID, Mode: string(e.Mode), Value: e.Value}
	if e.PlayerName != nil {
		in.PlayerName = *e.PlayerName
	}
	return in
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
		source := eventmix.New(fmt.Sprintf("%s%d-%d-", prefix, run, client), uint64(run)<<32|uint64(client), players, noAdd)
		return func(ctx context.Context) error {
			events := source.Batch(size)
			inputs := make([]scoreEvent, len(events))
			for i, e := range events {
				inputs[i] = inputOf(e)
			}
			var data struct {
				SubmitScores []struct {
					EventID string `json:"eventId"`
					Status  string `json:"status"`
					Score   *int   `json:"score"`
				} `json:"submitScores"`
			}
			if err := c.Do(ctx, token, submitQuery, map[string]any{"events": inputs}, &data); err != nil {
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

// StoredEvents counts the board main's events in board_score_events whose id
// starts with prefix.
func StoredEvents(ctx context.Context, pool *pgxpool.Pool, prefix string) (int64, error) {
	const q = `SELECT count(*) FROM board_score_events WHERE board_id = 'main' AND starts_with(event_id, $1)`
	var n int64
	if err := pool.QueryRow(ctx, q, prefix).Scan(&n); err != nil {
		return 0, fmt.Errorf("count stored events: %w", err)
	}
	return n, nil
}
