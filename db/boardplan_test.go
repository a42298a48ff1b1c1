package db_test

import (
	"context"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// A board's reads are written so that PostgreSQL keeps their generic plan
// instead of planning each read afresh, which cost as much as running it
// (design.md, "Live ranks of a period"): from the sixth run on a
// connection at the latest, every run is generic (a statement the other
// board prepared first may go generic sooner).
func TestBoardReads_KeepTheirGenericPlans(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	for _, spec := range []leaderboard.BoardSpec{
		{ID: "week", Name: "Week", Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderDesc),
			MinScore: new(0), MaxScore: new(10_000)},
		{ID: "day", Name: "Day", Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderAsc),
			TieBreak: new(leaderboard.TieBreakSubscoreAsc), MinScore: new(0), MaxScore: new(2_000_000_000)},
	} {
		spec.TimeZone, spec.CloseGrace, spec.StartsAt = new("UTC"), new(3600), utc(11, 1, 0)
		b := mustCreateBoard(t, store, spec)
		key, _, err := b.PeriodOf(testNow)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.SeedPeriod(ctx, b.ID, key, 2000, db.SeedOptions{RandomSeed: 1}); err != nil {
			t.Fatal(err)
		}
		const reads = 10
		generic, err := store.BoardReadGenericPlans(ctx, b, key, "player-00001000", reads)
		if err != nil {
			t.Fatal(err)
		}
		for _, read := range []string{"standing", "top", "next", "rowsUpTo", "total"} {
			if want := int64(reads - 5); generic[read] < want {
				t.Errorf("board %s, %s: %d of %d runs with a generic plan, want %d", b.ID, read, generic[read], reads, want)
			}
		}
	}
}
