package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// An erasure on a league board: the player leaves the cohort of the open
// week (its place is not given again) and of the closed one, whose cohort
// is ranked again without them, moving the others' next leagues and the
// period.corrected message's counts; their next league goes, so a new start
// begins in the lowest league.
func TestErasePlayer_GoneFromTheCohortsOfALeagueBoard(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		clock := &weekClock{}
		clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
		store := mustOpenDB(t, append(own, db.WithClock(clock.get), db.WithSettlement(true), db.WithErasureKey(erasureKey))...)
		ctx := context.Background()
		if _, err := store.CreateBoard(ctx, leagueBoard("league", 4)); err != nil {
			t.Fatal(err)
		}
		b := mustBoard(t, store, "league")
		// Week 45, closed: the erased player first and promoted with b.
		submitErasedLeagueScore(t, store, "w45-first", 60)
		submitLeagueScores(t, store, "league", "w45", []string{"b", "c", "d"}, []int{50, 40, 30}, nil)
		clock.set(time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC))
		if _, err := store.ClosePeriod(ctx, "league", "2026-W45"); err != nil {
			t.Fatal(err)
		}
		// Week 46, open: the erased player and b in a silver cohort, c in bronze.
		submitErasedLeagueScore(t, store, "w46-first", 9)
		submitLeagueScores(t, store, "league", "w46", []string{"b", "c"}, []int{8, 7}, nil)

		e, err := store.ErasePlayer(ctx, erasedID, "GDPR request 5678")
		if err != nil || e.Periods != 2 || e.CorrectedPeriods != 1 {
			t.Fatalf("erasure %+v, %v", e, err)
		}
		if found := rowsHolding(t, erasedID); len(found) != 0 {
			t.Errorf("after the erasure: %v", found)
		}

		// The closed week's cohort ranked again: c is promoted in their place.
		assertWeek45WithoutA(t, store, b, "b:1 c:1")

		// The open week: b's silver cohort lost the erased player and gained c,
		// moved up by the correction; the erased place is not given again.
		for _, player := range []string{"b", "c"} {
			ref, err := store.CohortOf(ctx, b, "2026-W46", player)
			if err != nil || ref == nil || *ref.League != "silver" || ref.ID != leaderboard.CohortID(1, 1) || ref.Size != 2 {
				t.Errorf("%s in week 46 after the erasure: %+v, %v", player, ref, err)
			}
		}
		fill := mustQuery(t, `SELECT f.cohort, f.size FROM period_cohort_fill f JOIN periods p ON p.id = f.period_id
		WHERE p.key = '2026-W46' AND f.league = 1`)
		if fmt.Sprint(fill) != "[[1 3]]" {
			t.Errorf("week 46's silver fill: %v; want cohort 1 with 3 places given", fill)
		}

		// A new start joins the lowest league.
		submitErasedLeagueScore(t, store, "w46-again", 5)
		if ref, err := store.CohortOf(ctx, b, "2026-W46", erasedID); err != nil || ref == nil || *ref.League != "bronze" {
			t.Errorf("the new start's cohort: %+v, %v", ref, err)
		}
	})
}

// submitErasedLeagueScore submits an ADD event of the erased player's score
// to the league board, its id not naming them (an erasure keeps event ids),
// and fails the test unless it is APPLIED.
func submitErasedLeagueScore(t *testing.T, store *db.DB, id string, score int) {
	t.Helper()
	if r := mustSubmit(t, store, boardEvent("league", id, erasedID, leaderboard.ModeAdd, score, nil)); r[0].Status != leaderboard.StatusApplied {
		t.Fatalf("event %s: %+v", id, r[0])
	}
}
