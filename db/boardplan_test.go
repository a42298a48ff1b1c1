package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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

// TestBoardStanding_ACrowdedScoreSumsFewCounterRows reads the standing of a
// player in the middle of 3,000 players on one score, each with a subscore
// of their own, on a DAY ASC SUBSCORE_ASC 0..2,000,000,000 board: the rank
// is right, and it sums far fewer counter rows than the players ahead at
// that score. Summing one tie cell per earlier subscore (1,500 here) cost a
// 1M-player period's crowded reads 7 to 12 ms each (docs/PERFORMANCE.md,
// "where a DAY board's read went").
func TestBoardStanding_ACrowdedScoreSumsFewCounterRows(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	spec := leaderboard.BoardSpec{ID: "crowd", Name: "Crowd", Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderAsc),
		TieBreak: new(leaderboard.TieBreakSubscoreAsc), MinScore: new(0), MaxScore: new(2_000_000_000),
		TimeZone: new("UTC"), CloseGrace: new(3600), StartsAt: utc(11, 1, 0)}
	b := mustCreateBoard(t, store, spec)
	key, _, err := b.PeriodOf(testNow)
	if err != nil {
		t.Fatal(err)
	}
	const (
		crowd, ahead, behind = 3000, 200, 300
		crowdScore           = 20_000_000
	)
	instant := testNow.Add(-2 * time.Hour)
	var events []leaderboard.ScoreEvent
	add := func(player string, score, subscore int) {
		events = append(events, leaderboard.ScoreEvent{EventID: "e-" + player, Board: b.ID, PlayerID: player,
			Mode: leaderboard.ModeSet, Value: score, Subscore: new(subscore), OccurredAt: new(instant)})
	}
	for i := range crowd {
		add(fmt.Sprintf("crowd%04d", i), crowdScore, i*333) // subscores spread over every subscore level
	}
	for i := range ahead {
		add(fmt.Sprintf("ahead%03d", i), crowdScore-1-i*7919, i)
	}
	for i := range behind {
		add(fmt.Sprintf("behind%03d", i), crowdScore+1+i*7919, i)
	}
	for len(events) > 0 {
		n := min(len(events), leaderboard.MaxBatch)
		mustSubmit(t, store, events[:n]...)
		events = events[n:]
	}
	const middle = crowd / 2
	player := fmt.Sprintf("crowd%04d", middle)
	s, err := store.PeriodStanding(ctx, b, key, player, 10, 10)
	if err != nil || s == nil {
		t.Fatalf("standing of %s: %+v, %v", player, s, err)
	}
	if want := ahead + middle + 1; s.Rank != want || s.Total != crowd+ahead+behind {
		t.Errorf("standing of %s: rank %d of %d, want %d of %d", player, s.Rank, s.Total, want, crowd+ahead+behind)
	}
	rows, err := store.BoardStandingCounterRows(ctx, b, key, player)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(middle / 4); rows > limit {
		t.Errorf("standing of %s, %d players ahead at its score: %d counter rows summed, want at most %d", player, middle, rows, limit)
	}
	t.Logf("%d counter rows summed", rows)
}
