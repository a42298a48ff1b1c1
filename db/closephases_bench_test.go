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

// BenchmarkClosePhases seeds main's month and a DAY board's day (ASC,
// SUBSCORE_ASC, 0..2,000,000,000) with the same players, then closes both,
// main first, through TryCloseMonth and ClosePeriod, timing each phase by
// the phases the closes themselves name (db.PhaseClock); it prints each
// phase's seconds and reports the wholes (board-close-s, main-close-s,
// ratio). The players come from CLOSE_PHASES_PLAYERS (default 100000):
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
		id := fmt.Sprintf("phases-%d", i)
		mustCreateBoard(b, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			Order: new(leaderboard.OrderAsc), TieBreak: new(leaderboard.TieBreakSubscoreAsc),
			MinScore: new(0), MaxScore: new(2_000_000_000),
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
		if _, err := store.SeedPeriod(ctx, leaderboard.MainBoard, "2026-11", players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
		if _, err := store.SeedPeriod(ctx, id, "2026-11-20", players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
		if _, ran, err := store.TryCloseMonth(ctx, november, leaderboard.CloseHooks{}); err != nil || !ran {
			b.Fatalf("close of %s: ran %t, %v", november, ran, err)
		}
		mainTimes := phases.Take()
		if _, err := store.ClosePeriod(ctx, id, "2026-11-20"); err != nil {
			b.Fatal(err)
		}
		boardTimes := phases.Take()
		mainTotal, boardTotal := report(b, "main", mainTimes), report(b, "board", boardTimes)
		fmt.Printf("run %d, %d players: board close %.2f s, main close %.2f s, ratio %.2f\n", i, players,
			boardTotal.Seconds(), mainTotal.Seconds(), boardTotal.Seconds()/mainTotal.Seconds())
		b.ReportMetric(boardTotal.Seconds(), "board-close-s")
		b.ReportMetric(mainTotal.Seconds(), "main-close-s")
		b.ReportMetric(boardTotal.Seconds()/mainTotal.Seconds(), "ratio")
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
