package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// BenchmarkClosePeriod_TopHundredMetadata closes periods of 100 players with
// no metadata, and with 1 KB of it each (the shapes that grow most in
// PostgreSQL's text), side by side: the close of issue 36's target, whose
// message carries every one of them. Run with
// go test -run '^$' -bench ClosePeriod_TopHundred -benchtime 30x ./db/
func BenchmarkClosePeriod_TopHundredMetadata(b *testing.B) {
	heavy := []string{
		`{"a":[` + strings.TrimSuffix(strings.Repeat("0,", 505), ",") + `]}`,
		`{"s":"` + strings.Repeat("<", 168) + `"}`,
	}
	for _, kind := range []string{"plain", "heavy"} {
		b.Run(kind, func(b *testing.B) {
			now := testNow
			store := mustOpenDB(b, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
			ctx := context.Background()
			b.StopTimer()
			for i := range b.N {
				id := fmt.Sprintf("%s-%d", kind, i)
				mustCreateBoard(b, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
					TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
				events := make([]leaderboard.ScoreEvent, 100)
				for p := range events {
					player := fmt.Sprintf("p%03d", p)
					events[p] = boardEvent(id, "e"+player, player, leaderboard.ModeSet, 1000-p, utc(11, 20, 9))
					if kind == "heavy" {
						events[p].Metadata = json.RawMessage(heavy[p%len(heavy)])
					}
				}
				mustSubmit(b, store, events...)
				b.StartTimer()
				if _, err := store.ClosePeriod(ctx, id, "2026-11-20"); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
			}
		})
	}
}
