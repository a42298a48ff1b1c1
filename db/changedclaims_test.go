package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// changedClaimsOf returns the changedClaims of a message body, one line
// each, "player claim before -> after", and whether the body has the field.
func changedClaimsOf(t *testing.T, body string) (string, bool) {
	t.Helper()
	type standing struct {
		Rank, Score int
		Tier        *string
	}
	var msg struct {
		ChangedClaims *[]struct {
			PlayerID, ClaimID string
			ClaimedAt         time.Time
			Before            standing
			After             *standing
		}
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatal(err)
	}
	if msg.ChangedClaims == nil {
		return "", false
	}
	show := func(rank, score int, tier *string) string {
		if tier == nil {
			return fmt.Sprintf("#%d %d -", rank, score)
		}
		return fmt.Sprintf("#%d %d %s", rank, score, *tier)
	}
	var lines []string
	for _, c := range *msg.ChangedClaims {
		if c.ClaimedAt.IsZero() {
			t.Errorf("changed claim of %s without claimedAt: %s", c.PlayerID, body)
		}
		after := "null"
		if c.After != nil {
			after = show(c.After.Rank, c.After.Score, c.After.Tier)
		}
		lines = append(lines, fmt.Sprintf("%s %s %s -> %s", c.PlayerID, c.ClaimID,
			show(c.Before.Rank, c.Before.Score, c.Before.Tier), after))
	}
	return strings.Join(lines, "; "), true
}

// claimsRows is the claims table, one "player rank score tier" each.
func claimsRows(t *testing.T) string {
	t.Helper()
	return fmt.Sprint(mustQuery(t, `SELECT player_id, rank, score, COALESCE(tier, '-') FROM claims ORDER BY player_id`))
}

func TestCorrectPeriodScore_ClosedPeriodListsTheClaimsItChanged(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		store := mustOpenDB(t, append(own, db.WithSettlement(true))...)
		ctx := context.Background()
		const key = "2026-11-20"
		mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
		// p00 1000 (#1 gold) ... p09 100 (#10 bronze): gold is the top 10 %,
		// silver the top 50 %.
		for i := range 10 {
			mustSubmit(t, store, boardEvent("laps", fmt.Sprint("e", i), fmt.Sprintf("p%02d", i), leaderboard.ModeSet,
				100*(10-i), utc(11, 20, 9)))
		}
		if _, err := store.ClosePeriod(ctx, "laps", key); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"p00", "p04", "p05", "p07", "p08"} {
			assertClaim(t, mustClaim(t, store, "laps", key, p, "g-"+p), leaderboard.ClaimClaimed, "g-"+p)
		}
		claimed := claimsRows(t)

		// p07 from 300 (#8) to 650 (#5): p04 falls from silver to bronze, p05
		// one rank; p00 and p08 keep theirs and are not listed.
		if _, err := store.CorrectScore(ctx, "laps", key, "p07", new(650), "missed lap"); err != nil {
			t.Fatal(err)
		}
		// p05 removed: nine participants, so #1 is 11 % and no longer gold, #5
		// is 56 % and no longer silver; p08 moves up; p04 and p07 still differ
		// from their claims.
		if _, err := store.CorrectScore(ctx, "laps", key, "p05", nil, "cheating"); err != nil {
			t.Fatal(err)
		}
		msgs := mustQuery(t, `SELECT type, body FROM outbox WHERE board_id = 'laps' ORDER BY created_at`)
		if len(msgs) != 3 || msgs[0][0] != "period.closed" || msgs[1][0] != "period.corrected" || msgs[2][0] != "period.corrected" {
			t.Fatalf("messages %v", msgs)
		}
		if _, ok := changedClaimsOf(t, msgs[0][1]); ok {
			t.Errorf("period.closed lists changedClaims: %s", msgs[0][1])
		}
		for i, want := range []string{
			"p04 g-p04 #5 600 silver -> #6 600 bronze; " +
				"p05 g-p05 #6 500 bronze -> #7 500 bronze; " +
				"p07 g-p07 #8 300 bronze -> #5 650 silver",
			"p00 g-p00 #1 1000 gold -> #1 1000 silver; " +
				"p04 g-p04 #5 600 silver -> #6 600 bronze; " +
				"p05 g-p05 #6 500 bronze -> null; " +
				"p07 g-p07 #8 300 bronze -> #5 650 bronze; " +
				"p08 g-p08 #9 200 bronze -> #8 200 bronze",
		} {
			got, ok := changedClaimsOf(t, msgs[i+1][1])
			if !ok || got != want {
				t.Errorf("correction %d: changedClaims\n%s\nwant\n%s", i+1, got, want)
			}
		}
		if !strings.Contains(msgs[2][1], `"after":null`) {
			t.Errorf("a removed player's after is not null: %s", msgs[2][1])
		}

		// The claims are kept as claimed, and a retry still answers CLAIMED
		// with the claimed standing, the removed player's too.
		if got := claimsRows(t); got != claimed {
			t.Errorf("claims after the corrections %s, claimed %s", got, claimed)
		}
		retry := mustClaim(t, store, "laps", key, "p05", "g-p05")
		assertClaim(t, retry, leaderboard.ClaimClaimed, "g-p05")
		if retry.Standing.Rank != 6 || retry.Standing.Score != 500 {
			t.Errorf("the removed player's claim %+v", retry.Standing)
		}
	})
}

func TestCorrectScore_ClosedMonthListsTheClaimsItChanged(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	ctx := context.Background()
	for i := range 5 {
		mustSubmit(t, store, event(fmt.Sprint("e", i), fmt.Sprint("m", i), leaderboard.ModeSet, 50-10*i, at(i)))
	}
	mustClose(t, store, november)
	// Without claims the month.corrected body is the one it always was.
	if _, err := store.CorrectScore(ctx, leaderboard.MainBoard, november.String(), "m4", new(15), "late match"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"m0", "m2", "m3"} {
		assertClaim(t, mustClaim(t, store, "main", "2026-11", p, "g-"+p), leaderboard.ClaimClaimed, "g-"+p)
	}
	claimed := claimsRows(t)
	// m1 removed: m0 keeps #1, m2 and m3 move up. Then m3 to 45 (#2): m2
	// is back at its claimed #3 and is no longer listed.
	if _, err := store.CorrectScore(ctx, leaderboard.MainBoard, november.String(), "m1", nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CorrectScore(ctx, leaderboard.MainBoard, november.String(), "m3", new(45), "missed match"); err != nil {
		t.Fatal(err)
	}
	msgs := mustQuery(t, `SELECT o.type, o.body FROM outbox o JOIN periods p ON p.id = o.period_id
		WHERE p.board_id = 'main' AND p.key = '2026-11' ORDER BY o.created_at`)
	if len(msgs) != 4 || msgs[1][0] != "month.corrected" || msgs[3][0] != "month.corrected" {
		t.Fatalf("messages %v", msgs)
	}
	if _, ok := changedClaimsOf(t, msgs[1][1]); ok {
		t.Errorf("a correction of a month without claims lists changedClaims: %s", msgs[1][1])
	}
	for i, want := range []string{
		"m2 g-m2 #3 30 - -> #2 30 -; m3 g-m3 #4 20 - -> #3 20 -",
		"m3 g-m3 #4 20 - -> #2 45 -",
	} {
		got, ok := changedClaimsOf(t, msgs[i+2][1])
		if !ok || got != want {
			t.Errorf("correction %d with claims: changedClaims\n%s\nwant\n%s", i+1, got, want)
		}
	}
	if got := claimsRows(t); got != claimed {
		t.Errorf("claims after the corrections %s, claimed %s", got, claimed)
	}
}

// Claims made while corrections of their period run: each claim commits
// wholly before a correction, which then compares it with its new ranks, or
// wholly after, and then holds the corrected standing. So once both are
// done, every claim either holds the period's final standing as it now is,
// or is listed in the last correction's changedClaims with the standing it
// holds; a claim that read the ranks before a correction and committed
// after it would be neither. Only a race with the last correction shows, so
// the test runs rounds, a board each.
func TestCorrectPeriodScore_ClaimsInFlightAreListedOrCorrected(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	for round := range 6 {
		claimBesideCorrections(t, store, fmt.Sprint("laps", round), int64(round))
	}
}

// claimBesideCorrections closes today's period of a new board, claims its
// standings while it corrects them, and checks what the claims hold.
func claimBesideCorrections(t *testing.T, store *db.DB, board string, seed int64) {
	t.Helper()
	ctx := context.Background()
	const (
		key      = "2026-11-20"
		players  = 60
		claimers = 4
	)
	mustCreateBoard(t, store, rewardBoard(board, leaderboard.OrderDesc))
	for i := range players {
		mustSubmit(t, store, boardEvent(board, fmt.Sprint("e", i), fmt.Sprintf("p%02d", i), leaderboard.ModeSet,
			10*(i+1), utc(11, 20, 9)))
	}
	if _, err := store.ClosePeriod(ctx, board, key); err != nil {
		t.Fatal(err)
	}

	var (
		claiming    sync.WaitGroup
		corrections int
		corrected   = make(chan struct{}) // closed by the first correction
		done        = make(chan struct{}) // closed once every claim is answered
		correcting  = make(chan struct{}) // closed once the corrections stop
	)
	for g := range claimers {
		claiming.Go(func() {
			<-corrected
			for i := g; i < players; i += claimers {
				p := fmt.Sprintf("p%02d", i)
				if _, err := store.ClaimReward(ctx, board, key, p, "g-"+p); err != nil {
					t.Errorf("claim of %s: %v", p, err)
				}
			}
		})
	}
	go func() {
		defer close(correcting)
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		for {
			p := fmt.Sprintf("p%02d", rng.IntN(players))
			_, err := store.CorrectScore(ctx, board, key, p, new(rng.IntN(1000)), "replay review")
			if corrections == 0 {
				close(corrected)
			}
			if err != nil {
				t.Errorf("correction of %s: %v", p, err)
				return
			}
			corrections++
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	claiming.Wait()
	close(done)
	<-correcting
	if t.Failed() {
		t.FailNow()
	}

	last := mustQuery(t, `SELECT body FROM outbox WHERE board_id = $1 AND type = 'period.corrected'
		ORDER BY created_at DESC LIMIT 1`, board)
	listed, _ := changedClaimsOf(t, last[0][0])
	stale := 0
	for _, r := range mustQuery(t, `SELECT c.player_id, c.rank, c.score, COALESCE(c.tier, '-'), f.rank, f.score
		FROM claims c JOIN periods p ON p.id = c.period_id
		JOIN board_final_ranks f ON f.bucket = p.final_bucket AND f.period_id = p.id AND f.player_id = c.player_id
		WHERE c.board_id = $1 ORDER BY c.player_id`, board) {
		if r[1] == r[4] && r[2] == r[5] {
			continue
		}
		stale++
		before := fmt.Sprintf("%s g-%s #%s %s %s ->", r[0], r[0], r[1], r[2], r[3])
		if !strings.Contains(listed, before) {
			t.Errorf("%s: claim %v differs from its final standing (#%s %s) and the last correction does not list it",
				board, r[:4], r[4], r[5])
		}
	}
	if n := mustQuery(t, `SELECT count(*) FROM claims WHERE board_id = $1`, board); n[0][0] != fmt.Sprint(players) {
		t.Fatalf("%s: %s claims, want %d", board, n[0][0], players)
	}
	t.Logf("%s: %d corrections beside %d claims; %d claims differ from the final standings, each listed",
		board, corrections, players, stale)
}
