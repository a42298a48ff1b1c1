package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/db"
)

// Every read of a closed league board's final standing tiers it within the
// cohort: e is fifth of 6 on the board (83 %: no tier) but first of its
// cohort of 2 (top), c third of 6 (50 %: top) but third of its cohort of 4
// (none). PeriodStanding, PeriodGroup, the period loaded for memory,
// UnclaimedRewards and ClaimReward (the stored claim) agree, and a
// correction that moves nobody's cohort place changes no claim.
func TestLeagues_EveryReadTiersWithinTheCohort(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		store := closedLeagueOfSix(t, own...)
		ctx := context.Background()
		const key = "2026-W45"
		b, err := store.Board(ctx, "league")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"a": "top", "b": "top", "c": "-", "d": "-", "e": "top", "f": "-"}
		tierOf := func(tier *string) string {
			if tier == nil {
				return "-"
			}
			return *tier
		}
		check := func(what, player string, tier *string) {
			t.Helper()
			if got := tierOf(tier); got != want[player] {
				t.Errorf("%s of %s: tier %s, want %s", what, player, got, want[player])
			}
		}
		loaded, err := store.LoadClosedPeriod(ctx, b, key, func(int, time.Time) bool { return true })
		if err != nil || loaded == nil {
			t.Fatalf("load: %v, %v", loaded, err)
		}
		for player := range want {
			s, err := store.PeriodStanding(ctx, b, key, player, 1, 1)
			if err != nil || s == nil {
				t.Fatalf("standing of %s: %v, %v", player, s, err)
			}
			check("PeriodStanding", player, s.Tier)
			check("the loaded period's standing", player, loaded.Standing(b, player, 1, 1).Tier)
		}
		group, err := store.PeriodGroup(ctx, b, key, []string{"a", "b", "c", "d", "e", "f"})
		if err != nil || len(group) != 6 {
			t.Fatalf("group: %v, %v", group, err)
		}
		for _, s := range group {
			check("PeriodGroup", s.Player.ID, s.Tier)
		}
		for _, player := range []string{"c", "e"} {
			unclaimed, err := store.UnclaimedRewards(ctx, player, 10)
			if err != nil || len(unclaimed) != 1 {
				t.Fatalf("unclaimed of %s: %v, %v", player, unclaimed, err)
			}
			check("UnclaimedRewards", player, unclaimed[0].Tier)
			for range 2 {
				c, err := store.ClaimReward(ctx, "league", key, player, "g1")
				if err != nil || c.Standing == nil {
					t.Fatalf("claim of %s: %+v, %v", player, c, err)
				}
				check("ClaimReward", player, c.Standing.Tier)
			}
		}

		// f's score drops, f stays last of its cohort and of the board: no
		// claim's rank, score or cohort tier changes.
		if _, err := store.CorrectScore(ctx, "league", key, "f", new(5), "cheat"); err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, pg.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var body string
		const corrected = `SELECT body FROM outbox WHERE board_id = 'league' AND type = 'period.corrected'`
		if err := conn.QueryRow(ctx, corrected).Scan(&body); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, "changedClaims") {
			t.Fatalf("the correction changed claims: %s", body)
		}
		for _, player := range []string{"c", "e"} {
			s, err := store.PeriodStanding(ctx, b, key, player, 0, 0)
			if err != nil || s == nil {
				t.Fatalf("standing of %s: %v, %v", player, s, err)
			}
			check("PeriodStanding after the correction", player, s.Tier)
		}
	})
}

// A correction's changedClaims tier the claimed standings within the cohort
// as ranked again: with a removed, c is second of 5 on the board (40 %:
// top) but second of 3 in its cohort (none), and e fourth of 5 (80 %: none)
// but still first of its cohort of 2 (top).
func TestLeagues_CorrectionChangedClaimsTierWithinTheCohort(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		store := closedLeagueOfSix(t, own...)
		ctx := context.Background()
		const key = "2026-W45"
		for _, player := range []string{"c", "e"} {
			if _, err := store.ClaimReward(ctx, "league", key, player, "g-"+player); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := store.CorrectScore(ctx, "league", key, "a", nil, "cheat"); err != nil {
			t.Fatal(err)
		}
		var body struct {
			ChangedClaims []struct {
				PlayerID string `json:"playerId"`
				After    *struct {
					Rank int     `json:"rank"`
					Tier *string `json:"tier"`
				} `json:"after"`
			} `json:"changedClaims"`
		}
		rows := mustQuery(t, `SELECT body FROM outbox WHERE board_id = 'league' AND type = 'period.corrected'`)
		if len(rows) != 1 {
			t.Fatalf("corrected messages: %v", rows)
		}
		if err := json.Unmarshal([]byte(rows[0][0]), &body); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"c": "2 -", "e": "4 top"}
		got := map[string]string{}
		for _, c := range body.ChangedClaims {
			if c.After == nil {
				t.Fatalf("claim of %s removed: %s", c.PlayerID, rows[0][0])
			}
			tier := "-"
			if c.After.Tier != nil {
				tier = *c.After.Tier
			}
			got[c.PlayerID] = fmt.Sprintf("%d %s", c.After.Rank, tier)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("changedClaims after: %v, want %v (%s)", got, want, rows[0][0])
		}
	})
}

// A closed league board's standing reads its rank and its cohort tier from
// one snapshot: while corrections move f between last (e fifth of 6, first
// of its cohort of 2: top) and first (e sixth, second of 2: no tier), every
// read of e's standing and group pairs the rank with its own version's tier.
func TestLeagues_StandingTierAndRankFromOneSnapshot(t *testing.T) {
	store := closedLeagueOfSix(t)
	ctx := context.Background()
	const key = "2026-W45"
	b := mustBoard(t, store, "league")
	valid := map[string]bool{"5 top": true, "6 -": true}
	pair := func(rank int, tier *string) string {
		if tier == nil {
			return fmt.Sprintf("%d -", rank)
		}
		return fmt.Sprintf("%d %s", rank, *tier)
	}
	done := make(chan struct{})
	var reads, mixed int
	go func() {
		defer close(done)
		for i := 0; i < 40; i++ {
			score := 100
			if i%2 == 1 {
				score = 10
			}
			if _, err := store.CorrectScore(ctx, "league", key, "f", &score, "toggle"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		s, err := store.PeriodStanding(ctx, b, key, "e", 0, 0)
		if err != nil || s == nil {
			t.Fatalf("standing: %v, %v", s, err)
		}
		group, err := store.PeriodGroup(ctx, b, key, []string{"e"})
		if err != nil || len(group) != 1 {
			t.Fatalf("group: %v, %v", group, err)
		}
		for _, p := range []string{pair(s.Rank, s.Tier), pair(group[0].Rank, group[0].Tier)} {
			reads++
			if !valid[p] {
				mixed++
				t.Errorf("e read as %q: a rank and a tier of two versions", p)
			}
		}
	}
	t.Logf("%d reads, %d mixed", reads, mixed)
}

// closedLeagueOfSix returns a store, with settlement, whose league board
// "league" (cohorts of 4) has week 2026-W45 closed: cohort 1-1 holds a b c
// d (scores 60 50 40 30), 1-2 e f (20 10); opts are the store's options more.
func closedLeagueOfSix(t *testing.T, opts ...db.Option) *db.DB {
	t.Helper()
	clock := &weekClock{}
	clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
	store := mustOpenDB(t, append(opts, db.WithClock(clock.get), db.WithSettlement(true))...)
	ctx := context.Background()
	if _, err := store.CreateBoard(ctx, leagueBoard("league", 4)); err != nil {
		t.Fatal(err)
	}
	submitLeagueScores(t, store, "league", "w45", []string{"a", "b", "c", "d", "e", "f"}, []int{60, 50, 40, 30, 20, 10}, nil)
	clock.set(time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC))
	if _, err := store.ClosePeriod(ctx, "league", "2026-W45"); err != nil {
		t.Fatal(err)
	}
	return store
}
