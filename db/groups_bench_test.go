package db_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
	"github.com/gamebackend/leaderboard/db"
)

// cacheSource is the db as the closed periods' source, as app wires it.
type cacheSource struct{ *db.DB }

func (s cacheSource) LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
	admit func(int, time.Time) bool) (closedperiods.FrozenPeriod, error) {
	p, err := s.DB.LoadClosedPeriod(ctx, b, key, admit)
	if p == nil {
		return nil, err
	}
	return p, err
}

// BenchmarkPeriodGroup reads groups of 200 random seeded players (a
// friends list) from 8 clients at once: in main's month and a DAY board's
// period of LEADERBOARD_BENCH_PLAYERS players (default 200,000), open
// (one statement a group), closed from PostgreSQL (the same statement), and
// closed from memory (closedperiods). ns/op is the wall time per group with
// 8 clients, so 1e9 / ns/op is groups a second; us/id is that per player of
// the group. Run with
// go test -run '^$' -bench PeriodGroup -benchtime 3s -count 3 -timeout 30m ./db/
func BenchmarkPeriodGroup(b *testing.B) {
	players := 200_000
	if n, err := strconv.Atoi(os.Getenv("LEADERBOARD_BENCH_PLAYERS")); err == nil && n > 0 {
		players = n
	}
	const groupSize, clients = 200, 8
	store := mustOpenDB(b)
	ctx := context.Background()
	mainBoard, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil {
		b.Fatal(err)
	}
	day := mustCreateBoard(b, store, leaderboard.BoardSpec{ID: "friends", Name: "Friends", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	periods := []struct {
		name  string
		board *leaderboard.Board
		key   string
	}{{"main", mainBoard, november.String()}, {"day", day, "2026-11-20"}}
	for _, p := range periods {
		if _, err := store.SeedPeriod(ctx, p.board.ID, p.key, players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, groups leaderboard.GroupService, board *leaderboard.Board, key string) {
		// RunParallel runs parallelism × GOMAXPROCS goroutines: clients.
		b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
			ids := make([]string, groupSize)
			for pb.Next() {
				for i := range ids {
					ids[i] = db.SeedPlayerID(1 + rng.IntN(players))
				}
				group, err := groups.PeriodGroup(ctx, board, key, ids)
				if err != nil || len(group) == 0 {
					b.Errorf("group: %d standings, %v", len(group), err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/groupSize, "us/id")
	}
	for _, p := range periods {
		b.Run(p.name+"/open", func(b *testing.B) { run(b, store, p.board, p.key) })
	}
	if _, err := closeMonth(store, november); err != nil {
		b.Fatal(err)
	}
	if _, err := store.ClosePeriod(ctx, day.ID, "2026-11-20"); err != nil {
		b.Fatal(err)
	}
	for _, p := range periods {
		b.Run(p.name+"/closed from PostgreSQL", func(b *testing.B) { run(b, store, p.board, p.key) })
	}
	cache := closedperiods.New(cacheSource{store}, 2*players, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer cache.Close()
	for _, p := range periods {
		if _, err := cache.PeriodGroup(ctx, p.board, p.key, []string{db.SeedPlayerID(1)}); err != nil {
			b.Fatal(err)
		}
		for deadline := time.Now().Add(time.Minute); !cache.PeriodLoaded(p.board.ID, p.key); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("period %s of %s did not load", p.key, p.board.ID)
			}
		}
	}
	for _, p := range periods {
		b.Run(p.name+"/closed from memory", func(b *testing.B) { run(b, cache, p.board, p.key) })
	}
}
