package db_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// leagueBoard is a WEEK board from November 2026 with cohorts of size in
// three leagues: bronze promotes 2, silver promotes 1 and demotes 1, gold
// demotes 1.
func leagueBoard(id string, size int) leaderboard.BoardSpec {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	return leaderboard.BoardSpec{ID: id, Name: "Weekly league", Reset: leaderboard.ResetWeek, TimeZone: new("UTC"),
		CloseGrace: new(0), StartsAt: &start, CohortSize: new(size),
		Tiers: []leaderboard.Tier{{Name: "top", TopPercent: 50}},
		Leagues: []leaderboard.League{{Name: "bronze", Promote: 2}, {Name: "silver", Promote: 1, Demote: 1},
			{Name: "gold", Demote: 1}}}
}

func TestCreateBoard_LeaguesRoundTrip(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	spec := leagueBoard("league", 30)
	created, err := store.CreateBoard(ctx, spec)
	if err != nil || !created.Created {
		t.Fatalf("create: %+v, %v", created, err)
	}
	b, err := store.Board(ctx, "league")
	if err != nil {
		t.Fatal(err)
	}
	if b.CohortSize == nil || *b.CohortSize != 30 || !slices.Equal(b.Leagues, spec.Leagues) {
		t.Fatalf("read back cohortSize %v, leagues %+v", b.CohortSize, b.Leagues)
	}
	if again, err := store.CreateBoard(ctx, spec); err != nil || again.Created {
		t.Fatalf("identical request: %+v, %v", again, err)
	}
	other := leagueBoard("league", 30)
	other.Leagues[1].Demote = 2
	if _, err := store.CreateBoard(ctx, other); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Fatalf("other leagues: %v, want CONFLICT", err)
	}
	plain, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil || plain.CohortSize != nil || plain.Leagues == nil || len(plain.Leagues) != 0 {
		t.Fatalf("main: cohortSize %v, leagues %#v, %v", plain.CohortSize, plain.Leagues, err)
	}
}

func TestCreateBoard_LeaguesErrBadInputWritesNothing(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	for name, edit := range map[string]func(*leaderboard.BoardSpec){
		"cohortSize 1":          func(s *leaderboard.BoardSpec) { s.CohortSize = new(1) },
		"cohortSize 1001":       func(s *leaderboard.BoardSpec) { s.CohortSize = new(1001) },
		"leagues without size":  func(s *leaderboard.BoardSpec) { s.CohortSize = nil },
		"leagues on NONE":       func(s *leaderboard.BoardSpec) { s.Reset = leaderboard.ResetNone },
		"promote+demote > size": func(s *leaderboard.BoardSpec) { s.CohortSize = new(2); s.Leagues[0].Promote = 3 },
		"duplicate names":       func(s *leaderboard.BoardSpec) { s.Leagues[1].Name = "gold" },
	} {
		t.Run(name, func(t *testing.T) {
			s := leagueBoard("bad", 30)
			edit(&s)
			if _, err := store.CreateBoard(ctx, s); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
				t.Fatalf("create: %v, want BAD_USER_INPUT", err)
			}
			if b, err := store.Board(ctx, "bad"); err != nil || b != nil {
				t.Fatalf("the refused board was stored: %+v, %v", b, err)
			}
		})
	}
}

// cohortCounts returns the members of each cohort of period key of board by
// "league-cohort", and how many cohorts each player is in.
func cohortCounts(t *testing.T, board, key string) (cohorts map[string]int, playerCohorts map[string]int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const q = `SELECT m.league, m.cohort, m.player_id FROM cohort_members m
		JOIN periods p ON p.id = m.period_id WHERE p.board_id = $1 AND p.key = $2`
	rows, err := conn.Query(ctx, q, board, key)
	if err != nil {
		t.Fatal(err)
	}
	cohorts, playerCohorts = map[string]int{}, map[string]int{}
	var (
		league int16
		cohort int32
		player string
	)
	_, err = pgx.ForEachRow(rows, []any{&league, &cohort, &player}, func() error {
		cohorts[leaderboard.CohortID(int(league), int(cohort))]++
		playerCohorts[player]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cohorts, playerCohorts
}

// Sixteen writers through two instances, with players that more than one
// of them submit at once, fill cohorts of 7: every player with a score is
// in exactly one cohort, every cohort but the league's last holds 7, and
// none holds more.
func TestCohorts_FilledBySixteenWritersThroughTwoInstances(t *testing.T) {
	clock := db.WithClock(func() time.Time { return testNow })
	first := mustOpenDB(t, clock)
	second, err := db.Open(context.Background(), pg.URL, clock)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ctx := context.Background()
	const size, writers, players = 7, 16, 300
	if _, err := first.CreateBoard(ctx, leagueBoard("league", size)); err != nil {
		t.Fatal(err)
	}
	stores := []*db.DB{first, second}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 38))
			for call := range 12 {
				var events []leaderboard.ScoreEvent
				for n := range 1 + rng.IntN(6) {
					player := fmt.Sprintf("p%03d", rng.IntN(players))
					events = append(events, boardEvent("league", fmt.Sprintf("w%d-%d-%d", w, call, n), player,
						leaderboard.ModeAdd, 1+rng.IntN(100), nil))
				}
				if _, err := stores[w%2].SubmitScores(ctx, events); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("submit: %v", errs)
	}
	page, err := first.PeriodLeaderboard(ctx, mustBoard(t, first, "league"), "2026-W47", 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	cohorts, playerCohorts := cohortCounts(t, "league", "2026-W47")
	if len(playerCohorts) != len(page.Edges) {
		t.Fatalf("%d players in cohorts, %d with a score", len(playerCohorts), len(page.Edges))
	}
	for _, e := range page.Edges {
		if n := playerCohorts[e.Entry.Player.ID]; n != 1 {
			t.Errorf("player %s is in %d cohorts", e.Entry.Player.ID, n)
		}
	}
	for n := 1; n <= len(cohorts); n++ {
		got, want := cohorts[leaderboard.CohortID(0, n)], size
		if n == len(cohorts) {
			want = len(playerCohorts) - size*(n-1)
		}
		if got != want {
			t.Errorf("cohort %d of %d holds %d, want %d (cohorts %v)", n, len(cohorts), got, want, cohorts)
		}
	}
	t.Logf("%d players in %d cohorts of at most %d", len(playerCohorts), len(cohorts), size)
}

// submitLeagueScores submits one ADD event of each of players' scores to
// board, in order, and fails the test unless each is APPLIED.
func submitLeagueScores(t *testing.T, store *db.DB, board, prefix string, players []string, scores []int, at *time.Time) {
	t.Helper()
	for i, p := range players {
		r := mustSubmit(t, store, boardEvent(board, fmt.Sprintf("%s-%s", prefix, p), p, leaderboard.ModeAdd, scores[i], at))
		if r[0].Status != leaderboard.StatusApplied {
			t.Fatalf("event of %s: %+v", p, r[0])
		}
	}
}

// Each cohort's table is the board's table restricted to its members (a
// plain filter of the period's order), and each player's CohortRef names
// their cohort, their place in it and its size.
func TestCohort_TablesAreTheBoardsOrderWithinEachCohort(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	const size, players = 7, 40
	if _, err := store.CreateBoard(ctx, leagueBoard("league", size)); err != nil {
		t.Fatal(err)
	}
	b := mustBoard(t, store, "league")
	rng := rand.New(rand.NewPCG(38, 3))
	ids, scores := make([]string, players), make([]int, players)
	for i := range players {
		ids[i], scores[i] = fmt.Sprintf("p%02d", i), rng.IntN(10) // ties on purpose
	}
	submitLeagueScores(t, store, "league", "e", ids, scores, nil)
	page, err := store.PeriodLeaderboard(ctx, b, "2026-W47", 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	cohortOf := map[string]string{}
	for i, id := range ids {
		cohortOf[id] = leaderboard.CohortID(0, i/size+1) // arrival order
	}
	want := map[string][]string{}
	for _, e := range page.Edges {
		c := cohortOf[e.Entry.Player.ID]
		want[c] = append(want[c], e.Entry.Player.ID)
	}
	for id, members := range want {
		c, err := store.Cohort(ctx, b, "2026-W47", id)
		if err != nil || c == nil {
			t.Fatalf("cohort %s: %+v, %v", id, c, err)
		}
		if c.Size != len(members) || *c.League != "bronze" || c.Board != "league" || c.Period != "2026-W47" {
			t.Errorf("cohort %s: %+v", id, c)
		}
		for i, e := range c.Members {
			if e.Player.ID != members[i] || e.Rank != i+1 {
				t.Errorf("cohort %s, rank %d: %s (rank %d), want %s", id, i+1, e.Player.ID, e.Rank, members[i])
			}
			ref, err := store.CohortOf(ctx, b, "2026-W47", e.Player.ID)
			if err != nil || ref == nil || ref.ID != id || ref.Rank != i+1 || ref.Size != len(members) ||
				*ref.League != "bronze" || ref.NextLeague != nil {
				t.Errorf("CohortOf(%s) = %+v, %v; want %s rank %d of %d", e.Player.ID, ref, err, id, i+1, len(members))
			}
		}
	}
	for _, none := range []string{"1-99", "2-1", "x", "0-1"} {
		if c, err := store.Cohort(ctx, b, "2026-W47", none); c != nil || err != nil {
			t.Errorf("cohort %s: %+v, %v; want none", none, c, err)
		}
	}
	if ref, err := store.CohortOf(ctx, b, "2026-W47", "stranger"); ref != nil || err != nil {
		t.Errorf("CohortOf(stranger) = %+v, %v", ref, err)
	}
	// A group's cohorts in one statement answer as CohortOf does for each.
	all, err := store.CohortsOf(ctx, b, "2026-W47", append([]string{"stranger"}, ids...))
	if err != nil || len(all) != players {
		t.Fatalf("CohortsOf: %d cohorts, %v; want %d", len(all), err, players)
	}
	for _, id := range ids {
		one, err := store.CohortOf(ctx, b, "2026-W47", id)
		if got := all[id]; err != nil || got == nil || got.ID != one.ID || got.Rank != one.Rank || got.Size != one.Size ||
			*got.League != *one.League || got.NextLeague != nil {
			t.Errorf("CohortsOf[%s] = %+v; CohortOf: %+v, %v", id, got, one, err)
		}
	}
	if ref, err := store.CohortOf(ctx, mustBoard(t, store, leaderboard.MainBoard), "2026-11", "p01"); ref != nil || err != nil {
		t.Errorf("main: %+v, %v", ref, err)
	}
}

// cohortOf returns the id and size of player's cohort in period key of
// board, "-" for none.
func cohortOf(t *testing.T, store *db.DB, board, key, player string) string {
	t.Helper()
	ref, err := store.CohortOf(context.Background(), mustBoard(t, store, board), key, player)
	if err != nil {
		t.Fatal(err)
	}
	if ref == nil {
		return "-"
	}
	return fmt.Sprintf("%s/%d", ref.ID, ref.Size)
}

// A score an admin gives a player with no standing in an open period of a
// league board joins a cohort, as a first applied event does: the next in
// the filling cohort, counted, so the next player fills the cohort and
// the one after opens a new one.
func TestLeagues_AdminGivenFirstScoreJoinsACohort(t *testing.T) {
	store := openLeagueOfThree(t)
	ctx := context.Background()
	const key = "2026-W45"
	if _, err := store.CorrectScore(ctx, "league", key, "d", new(40), "granted"); err != nil {
		t.Fatal(err)
	}
	submitLeagueScores(t, store, "league", "w45", []string{"e"}, []int{5}, nil)
	want := map[string]string{"a": "1-1/2", "b": "1-1/2", "c": "1-2/2", "d": "1-2/2", "e": "1-3/1"}
	for player, w := range want {
		if got := cohortOf(t, store, "league", key, player); got != w {
			t.Errorf("cohort of %s: %s, want %s", player, got, w)
		}
	}
}

// A cleared period keeps no cohorts: its memberships and fill rows go with
// its scores, and the players who come back fill cohorts from the first,
// in their new order of arrival.
func TestLeagues_ClearPeriodRemovesItsCohorts(t *testing.T) {
	store := openLeagueOfThree(t)
	ctx := context.Background()
	const key = "2026-W45"
	if _, err := store.ClearPeriod(ctx, "league", key, "season reset"); err != nil {
		t.Fatal(err)
	}
	const count = `SELECT (SELECT count(*) FROM cohort_members m JOIN periods p ON p.id = m.period_id
			WHERE p.board_id = 'league'),
		(SELECT count(*) FROM period_cohort_fill f JOIN periods p ON p.id = f.period_id WHERE p.board_id = 'league')`
	if rows := mustQuery(t, count); rows[0][0] != "0" || rows[0][1] != "0" {
		t.Fatalf("after the clear: %v members and fill rows", rows[0])
	}
	submitLeagueScores(t, store, "league", "again", []string{"c", "a"}, []int{10, 30}, nil)
	want := map[string]string{"a": "1-1/2", "b": "-", "c": "1-1/2"}
	for player, w := range want {
		if got := cohortOf(t, store, "league", key, player); got != w {
			t.Errorf("cohort of %s: %s, want %s", player, got, w)
		}
	}
}

// openLeagueOfThree returns a store whose league board "league" (cohorts of
// 2) has a b c (scores 30 20 10) in its open week 2026-W45: a b in cohort
// 1-1, c in 1-2.
func openLeagueOfThree(t *testing.T) *db.DB {
	t.Helper()
	clock := &weekClock{}
	clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
	store := mustOpenDB(t, db.WithClock(clock.get))
	if _, err := store.CreateBoard(context.Background(), leagueBoard("league", 2)); err != nil {
		t.Fatal(err)
	}
	submitLeagueScores(t, store, "league", "w45", []string{"a", "b", "c"}, []int{30, 20, 10}, nil)
	return store
}
