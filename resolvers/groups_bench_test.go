package resolvers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
)

// BenchmarkGroupStandingsRequest is the Go side of one groupStandings read of
// 200 ids over HTTP, the store answering at once: what gqlgen costs to
// resolve and write a friends board of 200, beside the read itself
// (BenchmarkPeriodGroup in db). Run with
// go test -run '^$' -bench GroupStandingsRequest -benchmem ./resolvers/
func BenchmarkGroupStandingsRequest(b *testing.B) {
	h := groupHandler(&groupStore{}, 0)
	body, _ := json.Marshal(map[string]any{"query": `query G($ids: [ID!]!) { groupStandings(month: "2026-11", playerIds: $ids) {
	groupRank standing { rank score total final player { id name } } } }`, "variables": map[string]any{"ids": ids(200)}})
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"groupRank":200`) {
				b.Fatalf("%d %.300s", w.Code, w.Body)
			}
		}
	})
}

// closedGroupPlayers is the size of BenchmarkGroupStandingsClosed's month,
// as issue 38's target states it.
const closedGroupPlayers = 10_000_000

var closedGroupMonth = sync.OnceValue(func() *closedperiods.Frozen {
	m, _ := leaderboard.ParseMonth("2026-10")
	at := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	f, err := closedperiods.Build(m, closedGroupPlayers, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		for i := range closedGroupPlayers {
			id := fmt.Sprintf("player-%08d", i)
			if err := entry(leaderboard.RankEntry{Rank: i + 1, Score: 60000 - i/200, ReachedAt: at, Player: leaderboard.Player{ID: id}}); err != nil {
				return err
			}
		}
		for i := range closedGroupPlayers {
			if err := name(fmt.Sprintf("player-%08d", i), fmt.Sprintf("Player %d", i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return f
})

// BenchmarkGroupStandingsClosed is the Go side of one groupStandings read of
// 200 random ids over HTTP, as `make bench`'s groups suite sends it, on a
// closed month of 10M players held in memory by the closed periods' cache:
// the whole path but the socket. Run with
// go test -run '^$' -bench GroupStandingsClosed -benchmem ./resolvers/
func BenchmarkGroupStandingsClosed(b *testing.B) {
	cache := closedperiods.New(nil, closedGroupPlayers, time.UTC, slog.New(slog.DiscardHandler))
	defer cache.Close()
	if !cache.Install(closedGroupMonth(), 1) {
		b.Fatal("the month does not fit the cache")
	}
	r := &Resolver{GroupService: cache, BoardService: mainBoard, Logger: slog.New(slog.DiscardHandler)}
	h := NewHandler(r, HandlerOptions{})
	rng := rand.New(rand.NewPCG(38, 2))
	bodies := make([][]byte, 64)
	for i := range bodies {
		seen := map[int]bool{}
		var group []string
		for len(group) < 200 {
			if k := rng.IntN(closedGroupPlayers); !seen[k] {
				seen[k] = true
				group = append(group, fmt.Sprintf("player-%08d", k))
			}
		}
		bodies[i], _ = json.Marshal(map[string]any{"query": `query Group($board: ID!, $period: String, $ids: [ID!]!) {
  groupStandings(board: $board, period: $period, playerIds: $ids) { groupRank standing { rank score final } }
}`, "variables": map[string]any{"board": "main", "period": "2026-10", "ids": group}})
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := bodies[next.Add(1)%int64(len(bodies))]
			req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"final":true}}]}}`) {
				b.Fatalf("%d %.300s", w.Code, w.Body)
			}
		}
	})
}

// reportCPU starts counting the CPU time the process spends, and returns
// the func that reports it per operation as cpu-ns/op: on a machine shared
// with other work, the time a request takes on the clock says little, the
// CPU it costs (the garbage collector's included) much more.
func reportCPU(b *testing.B) func() {
	start := processCPU(b)
	return func() { b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op") }
}

// processCPU returns the CPU time the process has spent, user and system.
func processCPU(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
