package db_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// readEvery paces the reader of BenchmarkErasePlayer: a hundred reads a
// second of the boards being erased from, as players would ask meanwhile.
const readEvery = 10 * time.Millisecond

// BenchmarkErasePlayer_ThousandClosedAndTenOpenPeriods times the erasure of
// a player present in 1,000 closed days of a board (100 players each) and
// in 10 open days of ten other boards (the target: 30 s), reported
// as erase-s, while a reader asks for standings in those closed days,
// reported as read-p99-ms. Medians of three with
// go test -run '^$' -bench ErasePlayer -benchtime 1x -count 3 -timeout 30m ./db/
// ERASE_PERIOD_PLAYERS and ERASE_CLOSED_DAYS change the players of a day
// and the closed days.
func BenchmarkErasePlayer_ThousandClosedAndTenOpenPeriods(b *testing.B) {
	const openBoards = 10
	closedDays, players := envInt(b, "ERASE_CLOSED_DAYS", 1000), envInt(b, "ERASE_PERIOD_PLAYERS", 100)
	first := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	now := first
	store := mustOpenDB(b, db.WithClock(func() time.Time { return now }), db.WithSettlement(true),
		db.WithErasureKey(erasureKey))
	ctx := context.Background()
	var eraseTime time.Duration
	var reads []time.Duration
	b.StopTimer()
	for n := range b.N {
		now = first
		board := mustCreateBoard(b, store, leaderboard.BoardSpec{ID: fmt.Sprintf("days-%d", n), Name: "Days",
			Reset: leaderboard.ResetDay, TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: &first})
		erased := fmt.Sprintf("erased-%d", n)
		var keys []string
		for d := range closedDays {
			now = first.AddDate(0, 0, d)
			events := make([]leaderboard.ScoreEvent, players)
			for i := range events {
				player := fmt.Sprintf("p%d", i)
				if i == 0 {
					player = erased
				}
				events[i] = boardEvent(board.ID, fmt.Sprintf("e%d-%d-%d", n, d, i), player, leaderboard.ModeSet,
					(i*7919+d)%1000, &now)
			}
			for chunk := range slices.Chunk(events, 1000) { // a call's most
				mustSubmit(b, store, chunk...)
			}
			key := now.Format(time.DateOnly)
			if _, err := store.ClosePeriod(ctx, board.ID, key); err != nil {
				b.Fatal(err)
			}
			keys = append(keys, key)
		}
		now = first.AddDate(0, 0, closedDays)
		for o := range openBoards {
			id := fmt.Sprintf("open-%d-%d", n, o)
			mustCreateBoard(b, store, leaderboard.BoardSpec{ID: id, Name: "Open", Reset: leaderboard.ResetDay,
				TimeZone: new("UTC"), StartsAt: &first})
			mustSubmit(b, store, boardEvent(id, "o-"+id, erased, leaderboard.ModeSet, 5, &now),
				boardEvent(id, "o2-"+id, "p1", leaderboard.ModeSet, 4, &now))
		}

		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			tick := time.NewTicker(readEvery)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				start := time.Now()
				if _, err := store.PeriodStanding(ctx, board, keys[rng.IntN(len(keys))], "p1", 10, 10); err != nil {
					b.Error(err)
					return
				}
				reads = append(reads, time.Since(start))
			}
		})
		b.StartTimer()
		start := time.Now()
		e, err := store.ErasePlayer(ctx, erased, "benchmark")
		eraseTime += time.Since(start)
		b.StopTimer()
		close(stop)
		wg.Wait()
		if err != nil || e.Periods != closedDays+openBoards || e.CorrectedPeriods != closedDays {
			b.Fatalf("erasure %+v, %v", e, err)
		}
	}
	b.ReportMetric(eraseTime.Seconds()/float64(b.N), "erase-s")
	slices.Sort(reads)
	if len(reads) > 0 {
		b.ReportMetric(float64(reads[len(reads)*99/100].Microseconds())/1000, "read-p99-ms")
	}
	b.ReportMetric(0, "ns/op")
}

// envInt returns the positive integer in environment variable name, or def
// when it is unset.
func envInt(tb testing.TB, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		tb.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}
