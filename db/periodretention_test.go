package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func TestDropOldPeriods_KeepsEachBoardsNewestClosedPeriodsAndUnsettledOnes(t *testing.T) {
	now := *utc(11, 15, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0), RetainPeriods: new(2)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "all", Name: "Keeps all", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	for day := 15; day <= 19; day++ {
		now = *utc(11, day, 12)
		key := fmt.Sprintf("2026-11-%d", day)
		for _, board := range []string{"daily", "all"} {
			mustSubmit(t, store, boardEvent(board, fmt.Sprint("a", day), "ann", leaderboard.ModeSet, day, utc(11, day, 10)),
				boardEvent(board, fmt.Sprint("b", day), "bob", leaderboard.ModeSet, 2*day, utc(11, day, 11)))
		}
		// A correction and a removed player, so that every table holds a row of the period.
		if _, err := store.CorrectPeriodScore(ctx, "daily", key, "bob", nil, "cheating"); err != nil {
			t.Fatal(err)
		}
		now = *utc(11, day+1, 1)
		for _, board := range []string{"daily", "all"} {
			if _, err := store.ClosePeriod(ctx, board, key); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The 15th and 16th were settled; the 17th's message is still pending.
	mustQuery(t, `UPDATE outbox o SET delivered_at = now(), next_attempt_at = NULL FROM periods p
		WHERE p.board_id = o.board_id AND p.id = o.period_id AND p.key IN ('2026-11-15', '2026-11-16')`)
	ids := map[string]string{}
	for _, r := range mustQuery(t, `SELECT key, id FROM periods WHERE board_id = 'daily'`) {
		ids[r[0]] = r[1]
	}

	// Bounded: one at a time, the oldest first.
	dropped, err := store.DropOldPeriods(ctx, 1)
	if err != nil || len(dropped) != 1 || dropped[0].Board != "daily" || dropped[0].Key != "2026-11-15" {
		t.Fatalf("first drop: %+v, %v", dropped, err)
	}
	dropped, err = store.DropOldPeriods(ctx, 100)
	if err != nil || len(dropped) != 1 || dropped[0].Key != "2026-11-16" {
		t.Fatalf("second drop: %+v, %v", dropped, err)
	}
	if dropped, err := store.DropOldPeriods(ctx, 100); err != nil || len(dropped) != 0 {
		t.Fatalf("third drop: %+v, %v", dropped, err)
	}

	got := mustQuery(t, `SELECT board_id, string_agg(key, ' ' ORDER BY key) FROM periods GROUP BY board_id ORDER BY board_id`)
	if want := "[[all 2026-11-15 2026-11-16 2026-11-17 2026-11-18 2026-11-19] [daily 2026-11-17 2026-11-18 2026-11-19]]"; fmt.Sprint(got) != want {
		t.Fatalf("periods left %v, want %s", got, want)
	}
	for _, key := range []string{"2026-11-15", "2026-11-16"} {
		id := ids[key]
		for _, table := range []string{"board_scores", "board_score_events", "board_final_ranks", "board_removed_players",
			"corrections", "outbox"} {
			if n := mustQuery(t, `SELECT count(*) FROM `+table+` WHERE period_id = $1`, id); n[0][0] != "0" {
				t.Errorf("%s keeps %s rows of %s", table, n[0][0], key)
			}
		}
	}
	// The other board's periods of the same month keep their final ranks,
	// and a kept period of the board reads as before.
	if n := mustQuery(t, `SELECT count(*) FROM board_final_ranks f JOIN periods p ON p.id = f.period_id WHERE p.board_id = 'all'`); n[0][0] != "10" {
		t.Fatalf("the other board's final ranks: %s rows", n[0][0])
	}
	if s := standingOf(t, store, "daily", "2026-11-17", "ann"); s == nil || s.Rank != 1 || !s.Final {
		t.Fatalf("a kept period: %+v", s)
	}
}

// Claims made while retention drops their period: each commits wholly
// before the drop, which deletes it with the period, or finds no period and
// answers GONE; no claim outlives its period.
func TestDropOldPeriods_ClaimsInFlightGoWithTheirPeriod(t *testing.T) {
	now := *utc(11, 20, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	const players = 40
	for round := range 4 {
		board := fmt.Sprint("laps", round)
		spec := rewardBoard(board, leaderboard.OrderDesc)
		spec.RetainPeriods = new(0)
		now = *utc(11, 20, 12)
		mustCreateBoard(t, store, spec)
		for i := range players {
			mustSubmit(t, store, boardEvent(board, fmt.Sprint("e", i), fmt.Sprintf("p%02d", i), leaderboard.ModeSet,
				10*(i+1), utc(11, 20, 9)))
		}
		if _, err := store.ClosePeriod(ctx, board, "2026-11-20"); err != nil {
			t.Fatal(err)
		}
		now = *utc(11, 22, 0)

		var (
			claiming sync.WaitGroup
			mu       sync.Mutex
			statuses = map[leaderboard.ClaimStatus]int{}
		)
		for g := range 4 {
			claiming.Go(func() {
				for i := g; i < players; i += 4 {
					p := fmt.Sprintf("p%02d", i)
					c, err := store.ClaimReward(ctx, board, "2026-11-20", p, "g-"+p)
					if err != nil {
						t.Errorf("claim of %s: %v", p, err)
						return
					}
					mu.Lock()
					statuses[c.Status]++
					mu.Unlock()
				}
			})
		}
		time.Sleep(time.Duration(round) * 5 * time.Millisecond)
		dropped, err := store.DropOldPeriods(ctx, 10)
		claiming.Wait()
		if err != nil || len(dropped) != 1 {
			t.Fatalf("%s: retention dropped %+v, %v", board, dropped, err)
		}
		if statuses[leaderboard.ClaimClaimed]+statuses[leaderboard.ClaimGone] != players {
			t.Fatalf("%s: answers %v, want CLAIMED or GONE", board, statuses)
		}
		if n := mustQuery(t, `SELECT count(*) FROM claims WHERE board_id = $1`, board); n[0][0] != "0" {
			t.Fatalf("%s: %s claims outlived their period (answers %v)", board, n[0][0], statuses)
		}
		t.Logf("%s: %v", board, statuses)
	}
}
