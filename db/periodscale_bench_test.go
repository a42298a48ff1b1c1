package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// BenchmarkPeriodAtScale seeds a day of a board with a million players, then
// times its close (ClosePeriod, from OPEN to CLOSED) and the load of the
// closed period into memory (LoadClosedPeriod), reported as close-s and
// load-s. Medians of three with
// go test -run '^$' -bench PeriodAtScale -benchtime 1x -count 3 -timeout 30m ./db/
func BenchmarkPeriodAtScale(b *testing.B) {
	const players = 1_000_000
	now := testNow
	store := mustOpenDB(b, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	var closeTime, loadTime time.Duration
	b.StopTimer()
	for i := range b.N {
		id := fmt.Sprintf("scale-%d", i)
		board := mustCreateBoard(b, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
		if _, err := store.SeedPeriod(ctx, id, "2026-11-20", players, db.SeedOptions{RandomSeed: 1}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := store.ClosePeriod(ctx, id, "2026-11-20"); err != nil {
			b.Fatal(err)
		}
		closeTime += time.Since(start)
		start = time.Now()
		p, err := store.LoadClosedPeriod(ctx, board, "2026-11-20", func(int, time.Time) bool { return true })
		if err != nil || p == nil || p.Players() != players {
			b.Fatalf("load: %v, %v", p, err)
		}
		loadTime += time.Since(start)
		b.StopTimer()
	}
	b.ReportMetric(closeTime.Seconds()/float64(b.N), "close-s")
	b.ReportMetric(loadTime.Seconds()/float64(b.N), "load-s")
}
