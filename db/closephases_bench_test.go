package db_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// BenchmarkClosePhases seeds main's month and two DAY boards' day (ASC,
// SUBSCORE_ASC, 0..2,000,000,000) with the same players, then closes them,
// main first, each through ClosePeriod, timing each phase by
// the phases the closes themselves name (db.PhaseClock): one board's final
// ranks go to a partition of their own (Limits.OwnPartitionPlayers at its
// default, when the players reach it), the other's to the shared partition
// of their month, the two in turns seeded and closed first. It prints each phase's seconds
// and reports the wholes (own-close-s, shared-close-s, main-close-s) and
// each board's ratio to main. The players come from CLOSE_PHASES_PLAYERS
// (default 100000); CLOSE_PHASES_BOARDS=own leaves the shared board out (at
// ten million players its seed and close alone take most of an hour), and
// CLOSE_PHASES_BOARDS=none both boards, for main's close alone:
// CLOSE_PHASES_PLAYERS=1000000 go test -run '^$' -bench ClosePhases -benchtime 1x -count 3 -timeout 60m ./db/
func BenchmarkClosePhases(b *testing.B) {
	players := 100_000
	if s := os.Getenv("CLOSE_PHASES_PLAYERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		players = n
	}
	ctx := context.Background()
	b.StopTimer()
	for i := range b.N {
		phases := &db.PhaseClock{}
		store := mustOpenDB(b, db.WithSettlement(true), phases.Option())
		shared, err := db.Open(ctx, pg.URL, db.WithSettlement(true), phases.Option(),
			db.WithClock(func() time.Time { return testNow }), db.WithLimits(db.Limits{OwnPartitionPlayers: players + 1}))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := store.SeedPeriod(ctx, leaderboard.MainBoard, "2026-11", players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
		closers := map[string]*db.DB{"own": store, "shared": shared}
		// The board seeded last has the more of its rows still cached:
		// each run seeds and closes them in the same order.
		order := []string{"own", "shared"}
		if i%2 == 1 {
			order = []string{"shared", "own"}
		}
		switch os.Getenv("CLOSE_PHASES_BOARDS") {
		case "own":
			order = []string{"own"}
		case "none":
			order = nil
		}
		for _, id := range order {
			mustCreateBoard(b, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
				Order: new(leaderboard.OrderAsc), TieBreak: new(leaderboard.TieBreakSubscoreAsc),
				MinScore: new(0), MaxScore: new(2_000_000_000),
				TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
			if _, err := store.SeedPeriod(ctx, id, "2026-11-20", players, db.SeedOptions{RandomSeed: 1}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := store.ClosePeriod(ctx, leaderboard.MainBoard, november.String()); err != nil {
			b.Fatalf("close of %s: %v", november, err)
		}
		mainTotal := report(b, "main", phases.Take())
		totals := map[string]time.Duration{}
		for _, id := range order {
			if _, err := closers[id].ClosePeriod(ctx, id, "2026-11-20"); err != nil {
				b.Fatal(err)
			}
			totals[id] = report(b, id, phases.Take())
		}
		fmt.Printf("run %d, %d players: main close %.2f s\n", i, players, mainTotal.Seconds())
		b.ReportMetric(mainTotal.Seconds(), "main-close-s")
		for _, id := range order {
			fmt.Printf("run %d, %d players: %s close %.2f s, %.2f times main's\n",
				i, players, id, totals[id].Seconds(), totals[id].Seconds()/mainTotal.Seconds())
			b.ReportMetric(totals[id].Seconds(), id+"-close-s")
			b.ReportMetric(totals[id].Seconds()/mainTotal.Seconds(), id+"-ratio")
		}
		shared.Close()
		store.Close()
	}
}

// report logs each phase of times and returns the sum of those that are
// part of the close (their names hold no parenthesis).
func report(b *testing.B, who string, times *db.ClosePhaseTimes) time.Duration {
	var total time.Duration
	for _, name := range times.Names {
		d := times.Times[name]
		fmt.Printf("%s %-32s %7.3f s\n", who, name, d.Seconds())
		if !strings.ContainsRune(name, '(') {
			total += d
		}
	}
	return total
}

// BenchmarkFinalRanksWrites copies a DAY board's final ranks into tables of
// each index layout and prints each copy's seconds; the players as
// BenchmarkClosePhases.
func BenchmarkFinalRanksWrites(b *testing.B) {
	players := 100_000
	if s := os.Getenv("CLOSE_PHASES_PLAYERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		players = n
	}
	ctx := context.Background()
	store := mustOpenDB(b)
	mustCreateBoard(b, store, leaderboard.BoardSpec{ID: "w", Name: "w", Reset: leaderboard.ResetDay,
		Order: new(leaderboard.OrderAsc), TieBreak: new(leaderboard.TieBreakSubscoreAsc),
		MinScore: new(0), MaxScore: new(2_000_000_000),
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	if _, err := store.SeedPeriod(ctx, "w", "2026-11-20", players, db.SeedOptions{RandomSeed: 1}); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		reads, err := store.ReadVariants(ctx, "w", "2026-11-20")
		if err != nil {
			b.Fatal(err)
		}
		report(b, "read", reads)
		times, err := store.WriteVariants(ctx, "w", "2026-11-20")
		if err != nil {
			b.Fatal(err)
		}
		report(b, "write", times)
	}
}
