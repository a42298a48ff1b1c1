package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

const soakSubmit = `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status code board period month } }`

// soakPeriod is a period of a board: main's month or a season.
type soakPeriod struct{ board, key string }

// soakLoad is the soak's writers and readers and what they were answered.
type soakLoad struct {
	instances []*soakInstance
	seasons   soakSeasons

	mu sync.Mutex
	// acked holds every acknowledged event (APPLIED, or DUPLICATE: applied
	// by an earlier attempt whose answer was lost) by its period: event id →
	// player and value.
	acked      map[soakPeriod]map[string]soakEvent
	ackedCount int
	// pending counts the calls of each season not answered yet.
	pending    map[string]int
	duplicates int
	rejected   map[string]int // code → events
	resent     int            // attempts that failed and were sent again
	unresolved int            // events of calls never answered within soakRetryFor
	unexpected []string       // answers no fault explains, the first few
	reads      int
	readErrors map[string]int // code, or "transport" → failed reads
}

// soakEvent is an acknowledged event's player and value.
type soakEvent struct {
	player string
	value  int
}

func newSoakLoad(instances []*soakInstance, seasons soakSeasons) *soakLoad {
	return &soakLoad{instances: instances, seasons: seasons, acked: map[soakPeriod]map[string]soakEvent{},
		rejected: map[string]int{}, readErrors: map[string]int{}, pending: map[string]int{}}
}

// write submits a call of soakBatch ADD events every soakCallEvery until ctx
// ends, to the season board and main in turn, the instances in turn.
func (l *soakLoad) write(ctx context.Context, writer int) {
	rng := rand.New(rand.NewPCG(uint64(writer), 7))
	servers := l.servers()
	tick := time.NewTicker(soakCallEvery)
	defer tick.Stop()
	for call := 0; ; call++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		board := "main"
		if call%2 == 0 {
			board = soakBoard
		}
		// occurredAt is fixed at the first attempt, so a call sent again
		// counts in the same period.
		now := time.Now().UTC().Truncate(time.Microsecond)
		events := make([]map[string]any, soakBatch)
		for i := range events {
			events[i] = map[string]any{"eventId": fmt.Sprintf("w%d-c%d-e%d", writer, call, i), "board": board,
				"playerId": fmt.Sprintf("p%04d", rng.IntN(soakPlayers)), "mode": "ADD", "value": 1 + rng.IntN(5),
				"occurredAt": now}
		}
		season := ""
		if board == soakBoard {
			season = l.seasons.key(l.seasons.index(now))
		}
		l.mu.Lock()
		l.pending[season]++
		l.mu.Unlock()
		l.submit(servers, writer+call, events)
		l.mu.Lock()
		l.pending[season]--
		l.mu.Unlock()
	}
}

// submit sends events until a call is answered, each attempt to the next
// instance, for up to soakRetryFor; a stop of the writers never cuts it off.
func (l *soakLoad) submit(servers []*server, turn int, events []map[string]any) {
	body, err := json.Marshal(map[string]any{"query": soakSubmit, "variables": map[string]any{"e": events}})
	if err != nil {
		panic(err)
	}
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + serverToken}}
	deadline := time.Now().Add(soakRetryFor)
	for attempt := 0; ; attempt++ {
		s := servers[(turn+attempt)%len(servers)]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r, err := s.tryPost(ctx, header, body)
		cancel()
		switch {
		case err == nil && len(r.Errors) == 0 && r.Status == http.StatusOK:
			l.record(events, r)
			return
		case err == nil && !allUnavailable(r.Codes()):
			l.note(fmt.Sprintf("submitScores answered %d: %s", r.Status, r.Body))
			return
		case time.Now().After(deadline):
			l.mu.Lock()
			l.unresolved += len(events)
			l.mu.Unlock()
			l.note(fmt.Sprintf("a call was not answered in %s: %v", soakRetryFor, err))
			return
		}
		l.mu.Lock()
		l.resent++
		l.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
}

// record keeps what an answered call acknowledged.
func (l *soakLoad) record(events []map[string]any, r *response) {
	var data struct {
		SubmitScores []struct {
			EventID string  `json:"eventId"`
			Status  string  `json:"status"`
			Code    *string `json:"code"`
			Board   string  `json:"board"`
			Period  *string `json:"period"`
			Month   *string `json:"month"`
		} `json:"submitScores"`
	}
	if err := json.Unmarshal(r.Data, &data); err != nil || len(data.SubmitScores) != len(events) {
		l.note(fmt.Sprintf("submitScores answer does not match its %d events (%v): %s", len(events), err, r.Body))
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, res := range data.SubmitScores {
		e := events[i]
		switch {
		case res.EventID != e["eventId"]:
			l.noteLocked(fmt.Sprintf("result %d is for %s, not %s", i, res.EventID, e["eventId"]))
		case res.Status == "REJECTED" && res.Code != nil:
			l.rejected[*res.Code]++
		case (res.Status == "APPLIED" || res.Status == "DUPLICATE") && res.Period != nil:
			p := soakPeriod{board: res.Board, key: *res.Period}
			if l.acked[p] == nil {
				l.acked[p] = map[string]soakEvent{}
			}
			l.acked[p][res.EventID] = soakEvent{player: e["playerId"].(string), value: e["value"].(int)}
			l.ackedCount++
			if res.Status == "DUPLICATE" {
				l.duplicates++
			}
		default:
			l.noteLocked(fmt.Sprintf("unexpected result %+v for an ADD of %v", res, e["value"]))
		}
	}
}

// note keeps an unexpected answer (the first 20).
func (l *soakLoad) note(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.noteLocked(s)
}

func (l *soakLoad) noteLocked(s string) {
	if len(l.unexpected) < 20 {
		l.unexpected = append(l.unexpected, s)
	}
}

// soakReads are the reads the readers send in turn: the open season's top
// and a standing in it, the season before (closed, or closing) and a
// standing in main's open month.
var soakReads = []string{
	`query($b: ID!, $k: String) { leaderboard(board: $b, period: $k, first: 10) { total edges { node { rank score } } } }`,
	`query($b: ID!, $k: String, $p: ID!) { standing(board: $b, period: $k, playerId: $p) { rank score neighbours { rank } } }`,
	`query($b: ID!, $k: String) { leaderboard(board: $b, period: $k, first: 10) { total edges { node { rank score } } } }`,
	`query($p: ID!) { standing(playerId: $p) { rank score total neighbours { rank } } }`,
}

// read sends a read every soakReadEvery until ctx ends, the instances in turn.
func (l *soakLoad) read(ctx context.Context, reader int) {
	rng := rand.New(rand.NewPCG(uint64(reader), 11))
	servers := l.servers()
	tick := time.NewTicker(soakReadEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		season := l.seasons.index(time.Now())
		kind := n % len(soakReads)
		if kind == 2 {
			if season == 0 {
				continue
			}
			season--
		}
		vars := map[string]any{"b": soakBoard, "k": l.seasons.key(season), "p": fmt.Sprintf("p%04d", rng.IntN(soakPlayers))}
		body, _ := json.Marshal(map[string]any{"query": soakReads[kind], "variables": vars})
		s := servers[(reader+n)%len(servers)]
		call, cancel := context.WithTimeout(ctx, 10*time.Second)
		r, err := s.tryPost(call, http.Header{"Content-Type": {"application/json"}}, body)
		cancel()
		l.mu.Lock()
		l.reads++
		switch {
		case err != nil && ctx.Err() == nil:
			l.readErrors["transport"]++
		case err == nil && len(r.Errors) > 0:
			l.readErrors[r.Codes()[0]]++
			if !allUnavailable(r.Codes()) {
				l.noteLocked(fmt.Sprintf("read %d answered %d: %s", kind, r.Status, r.Body))
			}
		}
		l.mu.Unlock()
	}
}

// servers returns clients of the caller's own, one per instance: a worker
// keeps one connection to each instance, so that the instances' goroutines
// (one per connection) do not follow the churn of a shared client's pool.
func (l *soakLoad) servers() []*server {
	out := make([]*server, len(l.instances))
	for i, inst := range l.instances {
		out[i] = &server{url: inst.srv.url, client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}}
	}
	return out
}

// snapshot copies the acknowledged events of period.
func (l *soakLoad) snapshot(p soakPeriod) map[string]soakEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]soakEvent, len(l.acked[p]))
	for id, e := range l.acked[p] {
		out[id] = e
	}
	return out
}

// unanswered counts the calls for season not answered yet.
func (l *soakLoad) unanswered(season string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pending[season]
}

// counts returns the events acknowledged so far.
func (l *soakLoad) counts() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ackedCount
}
