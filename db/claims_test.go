package db_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// rewardBoard is a DAY board in UTC with tiers gold (top 10 %), silver (top
// 50 %) and bronze (everyone), in order.
func rewardBoard(id string, order leaderboard.SortOrder) leaderboard.BoardSpec {
	return leaderboard.BoardSpec{ID: id, Name: "Rewards " + id, Reset: leaderboard.ResetDay, Order: &order,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0),
		Tiers: []leaderboard.Tier{{Name: "gold", TopPercent: 10}, {Name: "silver", TopPercent: 50}, {Name: "bronze", TopPercent: 100}}}
}

// mustClaim claims and fails the test on an error.
func mustClaim(t *testing.T, store *db.DB, board, key, player, claimID string) *leaderboard.Claim {
	t.Helper()
	c, err := store.ClaimReward(context.Background(), board, key, player, claimID)
	if err != nil {
		t.Fatalf("claim %s of %s in %s/%s: %v", claimID, player, board, key, err)
	}
	return c
}

// assertClaim checks a claim's status and, when claimed, its winner.
func assertClaim(t *testing.T, c *leaderboard.Claim, status leaderboard.ClaimStatus, winner string) {
	t.Helper()
	if c.Status != status {
		t.Fatalf("status %s, want %s (%+v)", c.Status, status, c)
	}
	switch status {
	case leaderboard.ClaimClaimed, leaderboard.ClaimAlreadyClaimed:
		if c.ClaimID == nil || *c.ClaimID != winner || c.ClaimedAt == nil || c.Standing == nil {
			t.Fatalf("claim %+v, want one won by %s", c, winner)
		}
	default:
		if c.ClaimID != nil || c.ClaimedAt != nil || c.Standing != nil {
			t.Fatalf("%s answered a claim: %+v", status, c)
		}
	}
}

// standingKey is what a claim's or an unclaimed standing says, in one line.
func standingKey(s leaderboard.Standing) string {
	tier := "-"
	if s.Tier != nil {
		tier = *s.Tier
	}
	return fmt.Sprintf("%s/%s %s #%d/%d %d %s final=%v", s.Board, s.Period, s.Player.ID, s.Rank, s.Total, s.Score, tier, s.Final)
}

// unclaimedKeys returns the player's first unclaimed rewards, each as key
// writes it.
func unclaimedKeys(t *testing.T, store *db.DB, player string, first int, key func(leaderboard.Standing) string) []string {
	t.Helper()
	got, err := store.UnclaimedRewards(context.Background(), player, first)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, s := range got {
		keys = append(keys, key(s))
	}
	return keys
}

func TestClaimReward_ThirtyTwoClaimIDsThroughTwoInstancesOneWins(t *testing.T) {
	now := *utc(11, 19, 1)
	clock := db.WithClock(func() time.Time { return now })
	store := mustOpenDB(t, clock)
	ctx := context.Background()
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	for i := range 4 {
		mustSubmit(t, store, boardEvent("laps", fmt.Sprint("e", i), fmt.Sprint("p", i), leaderboard.ModeSet, 10*(i+1), utc(11, 19, 0)))
	}
	if _, err := store.ClosePeriod(ctx, "laps", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	other, err := db.Open(ctx, pg.URL, clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	instances := []*db.DB{store, other}

	const claimers, retries = 32, 3
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = map[string][]*leaderboard.Claim{}
		start   = make(chan struct{})
	)
	for i := range claimers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			id := fmt.Sprintf("grant-%02d", i)
			for r := range retries {
				c, err := instances[(i+r)%2].ClaimReward(ctx, "laps", "2026-11-19", "p2", id)
				if err != nil {
					t.Errorf("claim %s: %v", id, err)
					return
				}
				mu.Lock()
				answers[id] = append(answers[id], c)
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}

	var winners []string
	for id, cs := range answers {
		if cs[0].Status == leaderboard.ClaimClaimed {
			winners = append(winners, id)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("claim ids that won: %v, want one", winners)
	}
	winner := winners[0]
	first := answers[winner][0]
	for id, cs := range answers {
		want := leaderboard.ClaimAlreadyClaimed
		if id == winner {
			want = leaderboard.ClaimClaimed
		}
		for _, c := range cs {
			assertClaim(t, c, want, winner)
			if !c.ClaimedAt.Equal(*first.ClaimedAt) || standingKey(*c.Standing) != standingKey(*first.Standing) {
				t.Fatalf("%s answered %v %s, the first answer %v %s", id, c.ClaimedAt, standingKey(*c.Standing),
					first.ClaimedAt, standingKey(*first.Standing))
			}
		}
	}
	if got := standingKey(*first.Standing); got != "laps/2026-11-19 p2 #2/4 30 silver final=true" {
		t.Fatalf("claimed standing %s", got)
	}
	if got := mustQuery(t, `SELECT claim_id FROM claims`); len(got) != 1 || got[0][0] != winner {
		t.Fatalf("claims %v, want the one of %s", got, winner)
	}

	// A retry long after, whose first answer was lost, still gets the
	// committed claimedAt; so does the export.
	now = now.Add(time.Hour)
	again := mustClaim(t, other, "laps", "2026-11-19", "p2", winner)
	assertClaim(t, again, leaderboard.ClaimClaimed, winner)
	if !again.ClaimedAt.Equal(*first.ClaimedAt) || !first.ClaimedAt.Equal(*utc(11, 19, 1)) {
		t.Fatalf("retry claimedAt %v, first %v", again.ClaimedAt, first.ClaimedAt)
	}
	for _, rec := range exportRows(t, store, "laps", "2026-11-19") {
		want := ""
		if rec[1] == "p2" {
			want = "2026-11-19T01:00:00.000000Z"
		}
		if rec[len(rec)-1] != want {
			t.Fatalf("export row %v: claimed_at %q, want %q", rec, rec[len(rec)-1], want)
		}
	}
	if at, err := store.ClaimedAt(ctx, "laps", "2026-11-19", "p2"); err != nil || at == nil || !at.Equal(*first.ClaimedAt) {
		t.Fatalf("ClaimedAt %v, %v", at, err)
	}
	if at, err := store.ClaimedAt(ctx, "laps", "2026-11-19", "p1"); err != nil || at != nil {
		t.Fatalf("ClaimedAt of an unclaimed standing %v, %v", at, err)
	}
}

func TestClaimReward_StatusesOfEveryOtherCase(t *testing.T) {
	now := *utc(11, 18, 23)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithCloseGrace(15*time.Minute))
	ctx := context.Background()
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "forever", Name: "Forever", Reset: leaderboard.ResetNone,
		StartsAt: utc(11, 1, 0)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "seasons", Name: "Seasons", Reset: leaderboard.ResetSeason,
		StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store, boardEvent("laps", "l1", "ann", leaderboard.ModeSet, 10, utc(11, 18, 22)))
	now = *utc(11, 19, 12)
	mustSubmit(t, store,
		boardEvent("laps", "l2", "ann", leaderboard.ModeSet, 10, utc(11, 19, 11)),
		boardEvent("forever", "f1", "ann", leaderboard.ModeSet, 10, utc(11, 19, 0)),
		event("m1", "ann", leaderboard.ModeSet, 10, utc(11, 19, 0)))

	claim := func(board, key, player string) *leaderboard.Claim {
		t.Helper()
		return mustClaim(t, store, board, key, player, "g1")
	}
	// Before the close: NOT_FINAL, with or without a row, main and a NONE
	// board's live period included.
	assertClaim(t, claim("laps", "2026-11-18", "ann"), leaderboard.ClaimNotFinal, "")
	assertClaim(t, claim("laps", "2026-11-19", "ann"), leaderboard.ClaimNotFinal, "")
	assertClaim(t, claim("laps", "2026-11-25", "ann"), leaderboard.ClaimNotFinal, "")
	assertClaim(t, claim("forever", "all", "ann"), leaderboard.ClaimNotFinal, "")
	assertClaim(t, claim(leaderboard.MainBoard, "2026-11", "ann"), leaderboard.ClaimNotFinal, "")
	assertClaim(t, claim(leaderboard.MainBoard, "2026-12", "ann"), leaderboard.ClaimNotFinal, "")

	// GONE: no board, a season it does not have, a past period no event
	// opened, a month no event opened.
	assertClaim(t, claim("nope", "2026-11-18", "ann"), leaderboard.ClaimGone, "")
	assertClaim(t, claim("seasons", "s1", "ann"), leaderboard.ClaimGone, "")
	assertClaim(t, claim("laps", "2026-11-02", "ann"), leaderboard.ClaimGone, "")
	assertClaim(t, claim(leaderboard.MainBoard, "2026-10", "ann"), leaderboard.ClaimGone, "")

	// Malformed input.
	for _, c := range [][4]string{
		{"Laps", "2026-11-18", "ann", "g1"}, {"laps", "2026-11-18x", "ann", "g1"}, {"laps", "2026-11-18", "", "g1"},
		{"laps", "2026-11-18", "ann", ""}, {"laps", "2026-11-18", "ann", "g\x00"}, {"nope", "a b", "ann", "g1"},
		{leaderboard.MainBoard, "2026-13", "ann", "g1"}, {"laps", "2026-11-18", "ann\u202e", "g1"},
	} {
		_, err := store.ClaimReward(ctx, c[0], c[1], c[2], c[3])
		assertCode(t, err, leaderboard.EBADINPUT)
	}

	if _, err := store.ClosePeriod(ctx, "laps", "2026-11-18"); err != nil {
		t.Fatal(err)
	}
	if _, err := closeMonth(store, november); err != nil {
		t.Fatal(err)
	}
	assertClaim(t, claim("laps", "2026-11-18", "bob"), leaderboard.ClaimNoStanding, "")
	assertClaim(t, claim(leaderboard.MainBoard, "2026-11", "bob"), leaderboard.ClaimNoStanding, "")
	c := claim(leaderboard.MainBoard, "2026-11", "ann")
	assertClaim(t, c, leaderboard.ClaimClaimed, "g1")
	if got := standingKey(*c.Standing); got != "main/2026-11 ann #1/1 10 - final=true" || c.Standing.Month != november {
		t.Fatalf("main's claimed standing %s in %s", got, c.Standing.Month)
	}
	c = claim("laps", "2026-11-18", "ann")
	assertClaim(t, c, leaderboard.ClaimClaimed, "g1")
	if got := standingKey(*c.Standing); got != "laps/2026-11-18 ann #1/1 10 bronze final=true" {
		t.Fatalf("claimed standing %s", got)
	}

	// Retention drops a period or a month, long past, with its claims:
	// GONE after.
	now = *utc(12, 10, 0)
	mustQuery(t, `UPDATE boards SET retain_periods = 0 WHERE id = 'laps'`)
	dropped, err := store.DropOldPeriods(ctx, db.Retention{MainMonths: new(0), Limit: 10})
	if err != nil || len(dropped) != 2 || dropped[0].Board != leaderboard.MainBoard || dropped[0].Key != "2026-11" ||
		dropped[1].Board != "laps" || dropped[1].Key != "2026-11-18" {
		t.Fatalf("retention dropped %+v, %v", dropped, err)
	}
	assertClaim(t, claim("laps", "2026-11-18", "ann"), leaderboard.ClaimGone, "")
	assertClaim(t, claim(leaderboard.MainBoard, "2026-11", "ann"), leaderboard.ClaimGone, "")
	if got := mustQuery(t, `SELECT count(*) FROM claims`); got[0][0] != "0" {
		t.Fatalf("%s claims left after their periods were dropped", got[0][0])
	}
}

// The claim writer keeps the boards it has read; a board's end brought
// forward by another instance still decides a claim of a period without a
// row, and a board made after a claim named it is found.
func TestClaimReward_KeptBoardsAnswerAsTheirRowsDo(t *testing.T) {
	now := *utc(11, 18, 23)
	clock := db.WithClock(func() time.Time { return now })
	store := mustOpenDB(t, clock)
	ctx := context.Background()
	other, err := db.Open(ctx, pg.URL, clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)

	assertClaim(t, mustClaim(t, store, "laps", "2026-11-25", "ann", "g1"), leaderboard.ClaimGone, "")
	mustCreateBoard(t, other, rewardBoard("laps", leaderboard.OrderDesc))
	assertClaim(t, mustClaim(t, store, "laps", "2026-11-25", "ann", "g1"), leaderboard.ClaimNotFinal, "")
	mustSubmit(t, store, boardEvent("laps", "l1", "ann", leaderboard.ModeSet, 10, utc(11, 18, 22)))
	now = *utc(11, 19, 12)
	if _, err := other.ClosePeriod(ctx, "laps", "2026-11-18"); err != nil {
		t.Fatal(err)
	}
	c := mustClaim(t, store, "laps", "2026-11-18", "ann", "g1")
	assertClaim(t, c, leaderboard.ClaimClaimed, "g1")
	if got := standingKey(*c.Standing); got != "laps/2026-11-18 ann #1/1 10 bronze final=true" || c.Standing.Month != november {
		t.Fatalf("claimed standing %s in %s", got, c.Standing.Month)
	}

	// The other instance ends the board before the 25th: no period starts
	// after its end, so a claim of one is GONE, not NOT_FINAL.
	if _, err := other.EndBoard(ctx, "laps", utc(11, 20, 0)); err != nil {
		t.Fatal(err)
	}
	assertClaim(t, mustClaim(t, store, "laps", "2026-11-25", "ann", "g1"), leaderboard.ClaimGone, "")
	assertClaim(t, mustClaim(t, store, "laps", "2026-11-18", "ann", "g2"), leaderboard.ClaimAlreadyClaimed, "g1")
}

func TestClaimReward_TiersAtBoundaries(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		now := *utc(11, 18, 1)
		store := mustOpenDB(t, append(own, db.WithClock(func() time.Time { return now }))...)
		ctx := context.Background()
		mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderAsc))
		// Ten players; p00 and p01 tie on the best time, p00 reached it first.
		for i := range 10 {
			occurred := utc(11, 18, 0).Add(time.Duration(i) * time.Minute)
			mustSubmit(t, store, boardEvent("laps", fmt.Sprint("e", i), fmt.Sprintf("p%02d", i), leaderboard.ModeSet,
				max(100, 100*i), &occurred))
		}
		now = *utc(11, 19, 1)
		mustSubmit(t, store, boardEvent("laps", "solo", "ann", leaderboard.ModeSet, 500, utc(11, 19, 0)))
		for _, key := range []string{"2026-11-18", "2026-11-19"} {
			if _, err := store.ClosePeriod(ctx, "laps", key); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct{ key, player, want string }{
			{"2026-11-18", "p00", "#1/10 100 gold"},    // 10 %: the last of gold
			{"2026-11-18", "p01", "#2/10 100 silver"},  // tied with gold, ranked after it
			{"2026-11-18", "p04", "#5/10 400 silver"},  // 50 %: the last of silver
			{"2026-11-18", "p05", "#6/10 500 bronze"},  // 60 %
			{"2026-11-18", "p09", "#10/10 900 bronze"}, // 100 %
			{"2026-11-19", "ann", "#1/1 500 bronze"},   // one participant: 100 %
		} {
			got := mustClaim(t, store, "laps", c.key, c.player, "g-"+c.player)
			want := fmt.Sprintf("laps/%s %s %s final=true", c.key, c.player, c.want)
			if standingKey(*got.Standing) != want {
				t.Errorf("claimed %s, want %s", standingKey(*got.Standing), want)
			}
		}
		// The export's tiers agree with the claims'.
		for _, rec := range exportRows(t, store, "laps", "2026-11-18") {
			if rec[1] == "p01" && (rec[7] != "silver" || rec[8] == "") {
				t.Fatalf("export row %v", rec)
			}
		}
	})
}

func TestUnclaimedRewards_AcrossBoardsNewestFirstBeforeAndAfterClaims(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		now := *utc(11, 10, 12)
		store := mustOpenDB(t, append(own, db.WithClock(func() time.Time { return now }))...)
		ctx := context.Background()
		mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderAsc))
		weekly := rewardBoard("weekly", leaderboard.OrderDesc)
		weekly.Reset = leaderboard.ResetWeek
		weekly.Tiers = nil
		mustCreateBoard(t, store, weekly)

		mustSubmit(t, store,
			boardEvent("weekly", "w1", "ann", leaderboard.ModeSet, 50, utc(11, 10, 0)),
			boardEvent("weekly", "w2", "bob", leaderboard.ModeSet, 70, utc(11, 10, 1)))
		now = *utc(11, 18, 12)
		mustSubmit(t, store,
			boardEvent("laps", "l1", "ann", leaderboard.ModeSet, 300, utc(11, 18, 0)),
			boardEvent("laps", "l2", "bob", leaderboard.ModeSet, 200, utc(11, 18, 1)))
		now = *utc(11, 19, 12)
		mustSubmit(t, store, boardEvent("laps", "l3", "ann", leaderboard.ModeSet, 100, utc(11, 19, 0)))
		now = testNow
		mustSubmit(t, store,
			boardEvent("laps", "l4", "ann", leaderboard.ModeSet, 100, utc(11, 20, 0)), // stays OPEN
			event("m1", "ann", leaderboard.ModeSet, 5, at(10)),
			event("m2", "bob", leaderboard.ModeSet, 9, at(11)))
		for _, p := range [][2]string{{"weekly", "2026-W46"}, {"laps", "2026-11-18"}, {"laps", "2026-11-19"}} {
			if _, err := store.ClosePeriod(ctx, p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}

		unclaimed := func(player string, first int) []string {
			return unclaimedKeys(t, store, player, first, standingKey)
		}
		assertList := func(got []string, want ...string) {
			t.Helper()
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("unclaimed:\n got  %q\n want %q", got, want)
			}
		}
		var (
			annLaps19  = "laps/2026-11-19 ann #1/1 100 bronze final=true"
			annLaps18  = "laps/2026-11-18 ann #2/2 300 bronze final=true"
			annWeekly  = "weekly/2026-W46 ann #2/2 50 - final=true"
			annMain    = "main/2026-11 ann #2/2 5 - final=true"
			bobMain    = "main/2026-11 bob #1/2 9 - final=true"
			bobLaps18  = "laps/2026-11-18 bob #1/2 200 silver final=true"
			bobWeekly  = "weekly/2026-W46 bob #1/2 70 - final=true"
			annBoards  = []string{annLaps19, annLaps18, annWeekly}
			annWithout = func(drop string) []string {
				return slices.DeleteFunc(slices.Clone(annBoards), func(s string) bool { return s == drop })
			}
		)
		// main's open month is not final: boards only, the period that ended
		// last first.
		assertList(unclaimed("ann", 50), annBoards...)
		assertList(unclaimed("ann", 2), annLaps19, annLaps18)
		assertList(unclaimed("nobody", 50))
		if _, err := closeMonth(store, november); err != nil {
			t.Fatal(err)
		}
		// main's November ends last.
		assertList(unclaimed("ann", 50), append([]string{annMain}, annBoards...)...)
		assertList(unclaimed("bob", 50), bobMain, bobLaps18, bobWeekly)
		assertList(unclaimed("ann", 1), annMain)

		assertClaim(t, mustClaim(t, store, "laps", "2026-11-18", "ann", "g1"), leaderboard.ClaimClaimed, "g1")
		assertList(unclaimed("ann", 50), append([]string{annMain}, annWithout(annLaps18)...)...)
		assertClaim(t, mustClaim(t, store, leaderboard.MainBoard, "2026-11", "ann", "g2"), leaderboard.ClaimClaimed, "g2")
		assertList(unclaimed("ann", 50), annWithout(annLaps18)...)
		assertList(unclaimed("bob", 50), bobMain, bobLaps18, bobWeekly)

		// Retention dropped the week: it is no one's reward any more.
		mustQuery(t, `UPDATE boards SET retain_periods = 0 WHERE id = 'weekly'`)
		if dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10}); err != nil || len(dropped) != 1 || dropped[0].Key != "2026-W46" {
			t.Fatalf("retention dropped %+v, %v", dropped, err)
		}
		assertList(unclaimed("ann", 50), annLaps19)
		assertList(unclaimed("bob", 50), bobMain, bobLaps18)
		assertClaim(t, mustClaim(t, store, "weekly", "2026-W46", "bob", "g3"), leaderboard.ClaimGone, "")
		_, err := store.UnclaimedRewards(ctx, "", 50)
		assertCode(t, err, leaderboard.EBADINPUT)
	})
}

// TestUnclaimedRewards_PageBeyondTheLatestPeriods reads a page that the walk
// of the periods that ended last does not fill (a player who stopped
// playing, or claimed the latest) as well as one it does.
func TestUnclaimedRewards_PageBeyondTheLatestPeriods(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		now := *utc(11, 1, 12)
		store := mustOpenDB(t, append(own, db.WithClock(func() time.Time { return now }))...)
		ctx := context.Background()
		mustCreateBoard(t, store, rewardBoard("daily", leaderboard.OrderDesc))
		// bob plays the 1st to the 19th of November, ann the 1st and 2nd only.
		const days = 19
		for d := 1; d <= days; d++ {
			now = *utc(11, d, 12)
			events := []leaderboard.ScoreEvent{boardEvent("daily", fmt.Sprintf("b%d", d), "bob", leaderboard.ModeSet, d, utc(11, d, 0))}
			if d <= 2 {
				events = append(events, boardEvent("daily", fmt.Sprintf("a%d", d), "ann", leaderboard.ModeSet, 100+d, utc(11, d, 1)))
			}
			mustSubmit(t, store, events...)
		}
		now = testNow
		for d := 1; d <= days; d++ {
			if _, err := store.ClosePeriod(ctx, "daily", fmt.Sprintf("2026-11-%02d", d)); err != nil {
				t.Fatal(err)
			}
		}
		unclaimed := func(player string, first int) []string {
			return unclaimedKeys(t, store, player, first, func(s leaderboard.Standing) string { return s.Period + " " + s.Player.ID })
		}
		assertList := func(got []string, want ...string) {
			t.Helper()
			if !slices.Equal(got, want) {
				t.Fatalf("unclaimed:\n got  %q\n want %q", got, want)
			}
		}
		// A page of one walks the ten periods that ended last: bob's is there,
		// ann's is not.
		assertList(unclaimed("bob", 1), "2026-11-19 bob")
		assertList(unclaimed("ann", 1), "2026-11-02 ann")
		assertList(unclaimed("ann", 50), "2026-11-02 ann", "2026-11-01 ann")
		// bob claims the ten latest: his page lies beyond the walk.
		for d := 10; d <= days; d++ {
			assertClaim(t, mustClaim(t, store, "daily", fmt.Sprintf("2026-11-%02d", d), "bob", fmt.Sprintf("g%d", d)),
				leaderboard.ClaimClaimed, fmt.Sprintf("g%d", d))
		}
		assertList(unclaimed("bob", 1), "2026-11-09 bob")
		assertList(unclaimed("bob", 2), "2026-11-09 bob", "2026-11-08 bob")
	})
}

// Many game servers claim every standing of several periods of two boards
// at once, through two instances that merge their claims into shared
// transactions: each standing has one winner, every answer names it with
// the same claimedAt and standing, and the claims that cannot be made
// (NOT_FINAL, NO_STANDING, GONE) are answered as alone.
func TestClaimReward_MergedClaimsOverPeriodsOneWinnerEach(t *testing.T) {
	now := *utc(11, 18, 1)
	clock := db.WithClock(func() time.Time { return now })
	limits := db.WithLimits(db.Limits{SubmitWriters: 1})
	store := mustOpenDB(t, clock, limits)
	ctx := context.Background()
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	mustCreateBoard(t, store, rewardBoard("arena", leaderboard.OrderDesc))
	type period struct{ board, key string }
	periods := []period{{"laps", "2026-11-18"}, {"laps", "2026-11-19"}, {"laps", "2026-11-20"}, {"arena", "2026-11-20"}}
	const players = 6
	for day := 18; day <= 21; day++ {
		now = *utc(11, day, 1)
		for _, p := range append(periods, period{"laps", "2026-11-21"}) {
			if p.key != fmt.Sprintf("2026-11-%d", day) {
				continue
			}
			for i := range players {
				mustSubmit(t, store, boardEvent(p.board, fmt.Sprint(p.board, day, i), fmt.Sprint("p", i), leaderboard.ModeSet,
					10*(i+1), utc(11, day, 0)))
			}
		}
	}
	for _, p := range periods {
		if _, err := store.ClosePeriod(ctx, p.board, p.key); err != nil {
			t.Fatal(err)
		}
	}
	other, err := db.Open(ctx, pg.URL, clock, limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	instances := []*db.DB{store, other}

	type standing struct{ board, key, player string }
	var standings []standing
	for _, p := range periods {
		for i := range players {
			standings = append(standings, standing{p.board, p.key, fmt.Sprint("p", i)})
		}
	}
	unclaimable := map[standing]leaderboard.ClaimStatus{
		{"laps", "2026-11-21", "p0"}:     leaderboard.ClaimNotFinal,
		{"laps", "2026-11-18", "nobody"}: leaderboard.ClaimNoStanding,
		{"laps", "2026-11-02", "p0"}:     leaderboard.ClaimGone,
		{"nope", "2026-11-18", "p0"}:     leaderboard.ClaimGone,
	}
	const claimers = 32
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = map[standing]map[string][]*leaderboard.Claim{}
		start   = make(chan struct{})
	)
	for g := range claimers {
		wg.Go(func() {
			<-start
			order := slices.Clone(standings)
			for u := range unclaimable {
				order = append(order, u)
			}
			rng := rand.New(rand.NewPCG(uint64(g), 27))
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			// The last claim retries the first, on the other instance.
			order = append(order, order[0])
			id := fmt.Sprintf("g%02d", g)
			for i, s := range order {
				c, err := instances[(g+i)%2].ClaimReward(ctx, s.board, s.key, s.player, id)
				if err != nil {
					t.Errorf("claim %s of %v: %v", id, s, err)
					return
				}
				mu.Lock()
				if answers[s] == nil {
					answers[s] = map[string][]*leaderboard.Claim{}
				}
				answers[s][id] = append(answers[s][id], c)
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}

	for u, status := range unclaimable {
		for _, cs := range answers[u] {
			for _, c := range cs {
				assertClaim(t, c, status, "")
			}
		}
	}
	winners := map[standing]string{}
	for _, s := range standings {
		for id, cs := range answers[s] {
			if cs[0].Status == leaderboard.ClaimClaimed {
				if w, ok := winners[s]; ok {
					t.Fatalf("%v won by %s and %s", s, w, id)
				}
				winners[s] = id
			}
		}
		winner, ok := winners[s]
		if !ok {
			t.Fatalf("%v won by nobody", s)
		}
		first := answers[s][winner][0]
		var i int
		fmt.Sscanf(s.player, "p%d", &i)
		if want := fmt.Sprintf("%s/%s %s #%d/%d %d", s.board, s.key, s.player, players-i, players, 10*(i+1)); !strings.HasPrefix(
			standingKey(*first.Standing), want+" ") {
			t.Fatalf("%v claimed as %s, want %s", s, standingKey(*first.Standing), want)
		}
		for id, cs := range answers[s] {
			want := leaderboard.ClaimAlreadyClaimed
			if id == winner {
				want = leaderboard.ClaimClaimed
			}
			for _, c := range cs {
				assertClaim(t, c, want, winner)
				if !c.ClaimedAt.Equal(*first.ClaimedAt) || standingKey(*c.Standing) != standingKey(*first.Standing) {
					t.Fatalf("%s of %v answered %v %s, the winner %v %s", id, s, c.ClaimedAt, standingKey(*c.Standing),
						first.ClaimedAt, standingKey(*first.Standing))
				}
			}
		}
	}
	rows := mustQuery(t, `SELECT board_id, period_key, player_id, claim_id FROM claims`)
	if len(rows) != len(standings) {
		t.Fatalf("%d claims rows, want %d", len(rows), len(standings))
	}
	for _, r := range rows {
		if w := winners[standing{r[0], r[1], r[2]}]; r[3] != w {
			t.Fatalf("claims row %v, want the claim of %s", r, w)
		}
	}
	// The claims were merged: some transaction wrote more than one.
	if got := mustQuery(t, `SELECT max(n) FROM (SELECT count(*) AS n FROM claims GROUP BY xmin::text) t`); got[0][0] == "1" {
		t.Fatalf("every claim was written in its own transaction")
	}
}

// A claim PostgreSQL refuses fails alone: the claims merged into its
// transaction are claimed again one by one, and succeed.
func TestClaimReward_RefusedClaimFailsAlone(t *testing.T) {
	now := *utc(11, 19, 1)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{SubmitWriters: 1}))
	ctx := context.Background()
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	for i := range 4 {
		mustSubmit(t, store, boardEvent("laps", fmt.Sprint("e", i), fmt.Sprint("p", i), leaderboard.ModeSet, 10*(i+1), utc(11, 19, 0)))
	}
	if _, err := store.ClosePeriod(ctx, "laps", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF NEW.claim_id = 'poison' THEN RAISE EXCEPTION 'poisoned claim'; END IF; RETURN NEW; END $$`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TRIGGER refuse_poison BEFORE INSERT ON claims FOR EACH ROW EXECUTE FUNCTION refuse_poison()`); err != nil {
		t.Fatal(err)
	}
	// The first claim waits for the period's claims lock, held here as a
	// correction holds it, in the writer's transaction; the others queue
	// behind it and are then claimed together.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const periodClaimsLockClass = 0x6c627263 // db's, "lbrc"
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, id) FROM periods WHERE board_id = 'laps'`,
		periodClaimsLockClass); err != nil {
		t.Fatal(err)
	}
	calls := [][2]string{{"p0", "blocked"}, {"p1", "poison"}, {"p2", "good"}, {"p3", "good"}}
	claims, errs := make([]*leaderboard.Claim, len(calls)), make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { claims[i], errs[i] = store.ClaimReward(ctx, "laps", "2026-11-19", c[0], c[1]) })
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if n := mustQuery(t, `SELECT count(*) FROM claims`); n[0][0] != "0" {
		t.Fatalf("%s claims made while their period's claims lock was held", n[0][0])
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, c := range calls {
		if c[1] == "poison" {
			if errs[i] == nil {
				t.Errorf("the poisoned claim answered %+v, want an error", claims[i])
			}
			continue
		}
		if errs[i] != nil {
			t.Fatalf("claim %v: %v", c, errs[i])
		}
		assertClaim(t, claims[i], leaderboard.ClaimClaimed, c[1])
	}
	if got := mustQuery(t, `SELECT player_id FROM claims ORDER BY player_id`); fmt.Sprint(got) != "[[p0] [p2] [p3]]" {
		t.Fatalf("claims of %v, want p0, p2 and p3", got)
	}
}

// One call of claim_board_rewards answers every claim of a closed period
// with one row: new claims, a retry of a committed claim, a second claimId
// for a player in the same call, a player without a final standing.
func TestClaimBoardRewards_OneCallAnswersEveryCase(t *testing.T) {
	now := *utc(11, 18, 1)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	for i, p := range []string{"p0", "p1", "p2", "p3", "p4"} {
		mustSubmit(t, store, boardEvent("laps", "e"+p, p, leaderboard.ModeSet, 10*(i+1), utc(11, 18, 0)))
	}
	if _, err := store.ClosePeriod(context.Background(), "laps", "2026-11-18"); err != nil {
		t.Fatal(err)
	}
	call := func(players, claims []string) map[string][]string {
		t.Helper()
		boards, keys := make([]string, len(players)), make([]string, len(players))
		for i := range players {
			boards[i], keys[i] = "laps", "2026-11-18"
		}
		answers := map[string][]string{}
		for _, r := range mustQuery(t, `SELECT i::text, COALESCE(claim_id, '-') || ' #' || COALESCE(rank, 0)
			FROM claim_board_rewards($1, $2, $3, $4, now())`, boards, keys, players, claims) {
			answers[r[0]] = append(answers[r[0]], r[1])
		}
		return answers
	}

	fresh := call([]string{"p0", "p1", "p2"}, []string{"a0", "a1", "a2"})
	want := map[string][]string{"1": {"a0 #5"}, "2": {"a1 #4"}, "3": {"a2 #3"}}
	if !maps.EqualFunc(fresh, want, slices.Equal) {
		t.Fatalf("new claims answered %v, want %v", fresh, want)
	}

	mixed := call([]string{"p0", "p3", "p3", "p4", "nobody"}, []string{"a0", "b3", "c3", "b4", "b5"})
	want = map[string][]string{"1": {"a0 #5"}, "2": {"b3 #2"}, "3": {"b3 #2"}, "4": {"b4 #1"}, "5": {"- #0"}}
	if !maps.EqualFunc(mixed, want, slices.Equal) {
		t.Fatalf("mixed claims answered %v, want %v", mixed, want)
	}
	if got := mustQuery(t, `SELECT count(*) FROM claims`); got[0][0] != "5" {
		t.Fatalf("%s claims rows, want 5", got[0][0])
	}
}

// A connection keeps the plans of claim_board_rewards from its first calls.
// Made while the claims table was analyzed empty, a plan that scans it would
// scan the whole table for each claim once it has grown (migration 15): the
// function's reads stay probes by key whatever the statistics said when
// they were planned.
func TestClaimBoardRewards_ProbesClaimsByKeyWithPlansFromAnEmptyTable(t *testing.T) {
	ctx := context.Background()
	now := *utc(11, 18, 1)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	mustCreateBoard(t, store, rewardBoard("laps", leaderboard.OrderDesc))
	players := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}
	for i, p := range players {
		mustSubmit(t, store, boardEvent("laps", "e"+p, p, leaderboard.ModeSet, 10*(i+1), utc(11, 18, 0)))
	}
	if _, err := store.ClosePeriod(ctx, "laps", "2026-11-18"); err != nil {
		t.Fatal(err)
	}
	mustQuery(t, `ANALYZE claims`)

	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	claim := func(q pgx.Tx, player string) string {
		t.Helper()
		var claimID string
		err := q.QueryRow(ctx, `SELECT claim_id FROM claim_board_rewards($1, $2, $3, $4, now())`,
			[]string{"laps"}, []string{"2026-11-18"}, []string{player}, []string{"c-" + player}).Scan(&claimID)
		if err != nil {
			t.Fatalf("claim of %s: %v", player, err)
		}
		return claimID
	}
	// More calls than PostgreSQL's five custom plans, so that the connection
	// keeps a generic plan of each statement, made from the empty table's
	// statistics.
	for _, p := range players[:6] {
		if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { claim(tx, p); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	mustQuery(t, `INSERT INTO claims (board_id, period_key, player_id, claim_id, claimed_at, rank, score, participants,
			reached_at, period_id)
		SELECT p.board_id, p.key, 'bulk-' || g, 'bulk', now(), 1, 1, 1, now(), p.id
		FROM periods p, generate_series(1, 5000) AS g WHERE p.board_id = 'laps' AND p.key = '2026-11-18'`)

	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	for _, p := range players[6:] {
		if got := claim(tx, p); got != "c-"+p {
			t.Fatalf("the claim of %s answered claim %s", p, got)
		}
	}
	var scans int
	const q = `SELECT COALESCE(sum(seq_scan), 0) FROM pg_stat_xact_user_tables WHERE relname = 'claims'`
	if err := tx.QueryRow(ctx, q).Scan(&scans); err != nil {
		t.Fatal(err)
	}
	if scans != 0 {
		t.Fatalf("two claims on a connection whose plans were made on an empty claims table scanned it %d times", scans)
	}
}
