package resolvers_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/loaders"
	"github.com/gamebackend/leaderboard/resolvers"
)

// BenchmarkStandingRequest is the Go side of one closed-month standing read
// over HTTP, the store answering from memory: what the handler costs per
// request in time and allocations. `make bench` measures the real service.
func BenchmarkStandingRequest(b *testing.B) {
	standing := &leaderboard.Standing{Month: leaderboard.MonthOf(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.UTC), Total: 1000, Final: true}
	entry := func(rank int) leaderboard.RankEntry {
		id := fmt.Sprintf("player-%08d", rank)
		name := "SwiftFalcon" + id[len(id)-3:]
		return leaderboard.RankEntry{Rank: rank, Score: 10000 - rank, ReachedAt: time.Unix(int64(rank), 0),
			Player: leaderboard.Player{ID: id, Name: &name}}
	}
	for r := 490; r < 500; r++ {
		standing.Above = append(standing.Above, entry(r))
	}
	standing.RankEntry = entry(500)
	for r := 501; r <= 510; r++ {
		standing.Below = append(standing.Below, entry(r))
	}
	store := &fakeStore{standing: standing}
	r := &resolvers.Resolver{StandingService: store, BoardService: store, PeriodService: store, ScoreService: store,
		Logger: slog.New(slog.DiscardHandler)}
	h := loaders.Middleware(loaders.Sources{Ranks: store})(resolvers.NewHandler(r, resolvers.HandlerOptions{}))
	body, _ := json.Marshal(map[string]any{"query": `query Standing($month: Month!, $playerId: ID!) {
  standing(month: $month, playerId: $playerId) {
    rank score total final
    player { name }
    neighbours(above: 10, below: 10) { rank score player { name } }
  }
}`, "variables": map[string]any{"month": "2026-10", "playerId": "player-00000500"}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"rank":510`) {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
}

// BenchmarkSubmitRequest is the Go side of one submitScores call of 100
// events over HTTP, as `make bench` sends them, the store answering at once:
// what the handler costs per batch in time and allocations.
func BenchmarkSubmitRequest(b *testing.B) {
	m, _ := leaderboard.ParseMonth("2026-11")
	var events []map[string]any
	store := &fakeStore{}
	for i := range 100 {
		id := fmt.Sprintf("bench-0-3-%d", i)
		events = append(events, map[string]any{"eventId": id, "playerId": fmt.Sprintf("player-%08d", i*7919), "mode": "BEST", "value": i * 30})
		store.results = append(store.results, leaderboard.ScoreResult{EventID: id, Status: leaderboard.StatusApplied, Month: m,
			PlayerID: fmt.Sprintf("player-%08d", i*7919), Score: new(i * 30)})
	}
	r := &resolvers.Resolver{StandingService: store, BoardService: store, PeriodService: store, ScoreService: store,
		Logger: slog.New(slog.DiscardHandler)}
	h := auth.New(auth.Config{ServerToken: serverToken}).Middleware(
		loaders.Middleware(loaders.Sources{Ranks: store})(resolvers.NewHandler(r, resolvers.HandlerOptions{})))
	body, _ := json.Marshal(map[string]any{"query": `mutation Submit($events: [ScoreEvent!]!) {
  submitScores(events: $events) { eventId status score }
}`, "variables": map[string]any{"events": events}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+serverToken)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"bench-0-3-99","status":"APPLIED"`) {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
}
