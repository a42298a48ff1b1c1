package db_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// leagueModel is the plain model of a league board: players' leagues, and
// cohorts filled per league in arrival order, ranked by score (the test's
// scores are distinct), moved as the contract says.
type leagueModel struct {
	size    int
	leagues []leaderboard.League
	league  map[string]int // a player's league; absent: the first
}

// period returns each participant's cohort id, rank in it, cohort size and
// next league, for players in arrival order with their scores.
func (m *leagueModel) period(players []string, scores map[string]int) map[string]cohortRow {
	byCohort := map[string][]string{}
	filled := map[int]int{} // league -> players placed
	out := map[string]cohortRow{}
	for _, p := range players {
		l := m.league[p]
		id := leaderboard.CohortID(l, filled[l]/m.size+1)
		filled[l]++
		byCohort[id] = append(byCohort[id], p)
		out[p] = cohortRow{id: id, league: l}
	}
	for _, members := range byCohort {
		for _, p := range members {
			r := out[p]
			r.size, r.rank = len(members), 1
			for _, o := range members {
				if scores[o] > scores[p] {
					r.rank++
				}
			}
			lg, k := m.leagues[r.league], len(m.leagues)
			r.next = r.league
			switch {
			case r.rank <= lg.Promote && r.league < k-1:
				r.next = r.league + 1
			case r.size >= lg.Promote+lg.Demote && r.rank > r.size-lg.Demote && r.league > 0:
				r.next = r.league - 1
			}
			out[p] = r
		}
	}
	return out
}

type cohortRow struct {
	id                       string
	league, rank, size, next int
}

// weekClock is a clock the test moves from week to week.
type weekClock struct{ now atomic.Pointer[time.Time] }

func (c *weekClock) set(t time.Time) { c.now.Store(&t) }
func (c *weekClock) get() time.Time  { return *c.now.Load() }

// Three weeks of a league board against the plain model: each week a
// random part of 60 players plays once, in a random order with distinct
// scores; after each close every player's cohort, rank, size and next
// league are the model's, and the next week puts them in the league the
// model moved them to (players who sat a week out keep theirs).
func TestLeagues_PromotionAndDemotionOverThreePeriodsMatchAPlainModel(t *testing.T) {
	clock := &weekClock{}
	store := mustOpenDB(t, db.WithClock(clock.get))
	ctx := context.Background()
	spec := leagueBoard("league", 5)
	spec.Leagues = []leaderboard.League{{Name: "bronze", Promote: 2}, {Name: "silver", Promote: 1, Demote: 2},
		{Name: "gold", Promote: 3, Demote: 2}}
	clock.set(time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC))
	if _, err := store.CreateBoard(ctx, spec); err != nil {
		t.Fatal(err)
	}
	b := mustBoard(t, store, "league")
	model := &leagueModel{size: 5, leagues: spec.Leagues, league: map[string]int{}}
	rng := rand.New(rand.NewPCG(38, 2))
	for week, key := range []string{"2026-W45", "2026-W46", "2026-W47"} {
		monday := time.Date(2026, 11, 2+7*week, 12, 0, 0, 0, time.UTC)
		clock.set(monday)
		var players []string
		scores := map[string]int{}
		for _, i := range rng.Perm(60) {
			if rng.IntN(4) > 0 {
				p := fmt.Sprintf("p%02d", i)
				players, scores[p] = append(players, p), 1+len(players)*7%61+rng.IntN(2)*100
			}
		}
		ordered := make([]int, len(players))
		for i, p := range players {
			ordered[i] = scores[p]
		}
		distinct := map[int]bool{}
		for _, s := range ordered {
			if distinct[s] {
				t.Fatalf("scores are not distinct: %v", ordered)
			}
			distinct[s] = true
		}
		submitLeagueScores(t, store, "league", key, players, ordered, nil)
		want := model.period(players, scores)
		for p, w := range want {
			ref, err := store.CohortOf(ctx, b, key, p)
			if err != nil || ref == nil || ref.ID != w.id || ref.Rank != w.rank || ref.Size != w.size ||
				*ref.League != spec.Leagues[w.league].Name || ref.NextLeague != nil {
				t.Fatalf("%s, open: CohortOf(%s) = %+v, %v; want %+v", key, p, ref, err, w)
			}
		}
		clock.set(monday.Add(7 * 24 * time.Hour))
		if _, err := store.ClosePeriod(ctx, "league", key); err != nil {
			t.Fatal(err)
		}
		moved := 0
		for p, w := range want {
			ref, err := store.CohortOf(ctx, b, key, p)
			if err != nil || ref == nil || ref.ID != w.id || ref.Rank != w.rank || ref.Size != w.size ||
				ref.NextLeague == nil || *ref.NextLeague != spec.Leagues[w.next].Name {
				t.Fatalf("%s, closed: CohortOf(%s) = %+v, %v; want %+v", key, p, ref, err, w)
			}
			if w.next != w.league {
				moved++
			}
			model.league[p] = w.next
		}
		t.Logf("%s: %d players, %d moved", key, len(players), moved)
	}
}

// A close whose promotion fails half-way (PostgreSQL refuses the write of
// the next leagues) rolls back whole: run again it moves each player once,
// and its period.closed message counts the cohorts and the moves.
func TestLeagues_CloseKilledMidPromotionPromotesNobodyTwice(t *testing.T) {
	clock := &weekClock{}
	clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
	store := mustOpenDB(t, db.WithClock(clock.get), db.WithSettlement(true))
	ctx := context.Background()
	spec := leagueBoard("league", 4)
	if _, err := store.CreateBoard(ctx, spec); err != nil {
		t.Fatal(err)
	}
	players := []string{"a", "b", "c", "d", "e", "f"}
	submitLeagueScores(t, store, "league", "w45", players, []int{60, 50, 40, 30, 20, 10}, nil)
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const refuse = `CREATE FUNCTION refuse_leagues() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'cut off mid-promotion'; END $$;
		CREATE TRIGGER refuse_leagues BEFORE INSERT OR UPDATE ON board_player_leagues
			FOR EACH ROW EXECUTE FUNCTION refuse_leagues()`
	if _, err := conn.Exec(ctx, refuse); err != nil {
		t.Fatal(err)
	}
	clock.set(time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC))
	if _, err := store.ClosePeriod(ctx, "league", "2026-W45"); err == nil {
		t.Fatal("the close went through a refused promotion")
	}
	if _, err := conn.Exec(ctx, `DROP TRIGGER refuse_leagues ON board_player_leagues`); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second finds it CLOSED
		if p, err := store.ClosePeriod(ctx, "league", "2026-W45"); err != nil || p.Status != leaderboard.PeriodClosed {
			t.Fatalf("close again: %+v, %v", p, err)
		}
	}
	// Cohort 1-1 is a, b, c, d: the top 2 go up to silver; cohort 1-2 is e,
	// f: bronze demotes nobody.
	leagues := map[string]int16{}
	rows, err := conn.Query(ctx, `SELECT player_id, league FROM board_player_leagues WHERE board_id = 'league'`)
	if err != nil {
		t.Fatal(err)
	}
	var (
		p string
		l int16
	)
	if _, err := pgx.ForEachRow(rows, []any{&p, &l}, func() error { leagues[p] = l; return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(leagues) != "map[a:1 b:1 e:1 f:1]" {
		t.Fatalf("leagues after the close: %v", leagues)
	}
	var body []byte
	if err := conn.QueryRow(ctx, `SELECT body FROM outbox WHERE board_id = 'league' AND type = 'period.closed'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Cohorts *int
		Leagues []struct {
			Name                       string
			Players, Promoted, Demoted int
		}
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Cohorts == nil || *msg.Cohorts != 2 || fmt.Sprint(msg.Leagues) != "[{bronze 6 4 0} {silver 0 0 0} {gold 0 0 0}]" {
		t.Fatalf("period.closed: %s", body)
	}
}

// A player who plays the next week while the last one is still to close
// (its close grace) joins a cohort of their old league, and the close moves
// them to a cohort of the league it gives them; the scheduler's group close
// (TryClosePeriods) promotes as ClosePeriod does.
func TestLeagues_GroupCloseMovesEarlyPlayersOfTheNextPeriod(t *testing.T) {
	clock := &weekClock{}
	clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
	store := mustOpenDB(t, db.WithClock(clock.get))
	ctx := context.Background()
	spec := leagueBoard("league", 4)
	spec.CloseGrace = new(3600)
	if _, err := store.CreateBoard(ctx, spec); err != nil {
		t.Fatal(err)
	}
	b := mustBoard(t, store, "league")
	submitLeagueScores(t, store, "league", "w45", []string{"a", "b", "c", "d"}, []int{40, 30, 20, 10}, nil)
	clock.set(time.Date(2026, 11, 9, 0, 30, 0, 0, time.UTC)) // W46, W45 in its grace
	submitLeagueScores(t, store, "league", "w46", []string{"a", "c"}, []int{5, 6}, nil)
	if ref, err := store.CohortOf(ctx, b, "2026-W46", "a"); err != nil || ref.ID != "1-1" || *ref.League != "bronze" {
		t.Fatalf("a before the close: %+v, %v", ref, err)
	}
	clock.set(time.Date(2026, 11, 9, 1, 30, 0, 0, time.UTC))
	due, err := store.PeriodsToClose(ctx, true, 10)
	if err != nil || len(due) != 1 {
		t.Fatalf("due: %+v, %v", due, err)
	}
	if closed, err := store.TryClosePeriods(ctx, due); err != nil || len(closed) != 1 {
		t.Fatalf("group close: %+v, %v", closed, err)
	}
	if ref, err := store.CohortOf(ctx, b, "2026-W45", "b"); err != nil || *ref.NextLeague != "silver" {
		t.Fatalf("b in W45: %+v, %v", ref, err)
	}
	for player, want := range map[string]string{"a": "2-1", "c": "1-1"} {
		ref, err := store.CohortOf(ctx, b, "2026-W46", player)
		if err != nil || ref == nil || ref.ID != want || ref.Size != 1 || ref.Rank != 1 {
			t.Errorf("%s in W46: %+v, %v; want cohort %s of 1", player, ref, err, want)
		}
	}
	submitLeagueScores(t, store, "league", "w46", []string{"b", "d"}, []int{7, 8}, nil)
	for player, want := range map[string]string{"b": "2-1", "d": "1-1"} {
		if ref, err := store.CohortOf(ctx, b, "2026-W46", player); err != nil || ref == nil || ref.ID != want {
			t.Errorf("%s in W46: %+v, %v; want cohort %s", player, ref, err, want)
		}
	}
}

// A league board's export adds each player's cohort, league, rank in the
// cohort and next league, and its tiers are the cohort's (rank / cohort
// size); its period.closed message's top carries those tiers.
func TestLeagues_ExportAndMessageTierWithinTheCohort(t *testing.T) {
	store := closedLeagueOfSix(t)
	ctx := context.Background()
	var buf bytes.Buffer
	if err := store.ExportStandings(ctx, "league", "2026-W45", leaderboard.PeriodExport, &buf); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(records[0], ","); got != db.PeriodExportHeader+db.CohortExportColumns {
		t.Fatalf("header %q", got)
	}
	// The tier "top" is the top 50%: ranks 1..2 of 4, rank 1 of 2.
	want := []string{"a:top:1-1:bronze:1:silver", "b:top:1-1:bronze:2:silver", "c::1-1:bronze:3:bronze",
		"d::1-1:bronze:4:bronze", "e:top:1-2:bronze:1:silver", "f::1-2:bronze:2:silver"}
	for i, r := range records[1:] {
		got := strings.Join([]string{r[1], r[7], r[9], r[10], r[11], r[12]}, ":")
		if got != want[i] {
			t.Errorf("row %d: %s, want %s", i+1, got, want[i])
		}
	}
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var body []byte
	if err := conn.QueryRow(ctx, `SELECT body FROM outbox WHERE board_id = 'league'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Top []struct {
			PlayerID string
			Tier     *string
		}
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatal(err)
	}
	var tiers []string
	for _, e := range msg.Top {
		tier := ""
		if e.Tier != nil {
			tier = *e.Tier
		}
		tiers = append(tiers, e.PlayerID+":"+tier)
	}
	if got := strings.Join(tiers, " "); got != "a:top b:top c: d: e:top f:" {
		t.Fatalf("message top tiers: %s", got)
	}
}

// Retention's purge of a dropped period of a league board takes its
// cohorts with it; the players' leagues stay, for the periods to come.
func TestLeagues_RetentionPurgesADroppedPeriodsCohorts(t *testing.T) {
	clock := &weekClock{}
	clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
	store := mustOpenDB(t, db.WithClock(clock.get))
	ctx := context.Background()
	spec := leagueBoard("league", 2)
	spec.RetainPeriods = new(1)
	if _, err := store.CreateBoard(ctx, spec); err != nil {
		t.Fatal(err)
	}
	for week, key := range []string{"2026-W45", "2026-W46"} {
		clock.set(time.Date(2026, 11, 3+7*week, 12, 0, 0, 0, time.UTC))
		submitLeagueScores(t, store, "league", key, []string{"a", "b", "c"}, []int{3, 2, 1}, nil)
		clock.set(time.Date(2026, 11, 10+7*week, 12, 0, 0, 0, time.UTC))
		if _, err := store.ClosePeriod(ctx, "league", key); err != nil {
			t.Fatal(err)
		}
	}
	first := mustQuery(t, `SELECT id FROM periods WHERE board_id = 'league' AND key = '2026-W45'`)[0][0]
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
	if err != nil || len(dropped) != 1 {
		t.Fatalf("dropped %+v, %v", dropped, err)
	}
	left := mustQuery(t, `SELECT (SELECT count(*) FROM cohort_members WHERE period_id = `+first+`),
		(SELECT count(*) FROM period_cohort_fill WHERE period_id = `+first+`),
		(SELECT count(*) FROM cohort_members), (SELECT count(*) FROM board_player_leagues)`)[0]
	if fmt.Sprint(left) != "[0 0 3 3]" {
		t.Fatalf("rows left (the dropped period's members and fills, all members, players' leagues): %v", left)
	}
}

// A correction that removes a promoted player from a closed period ranks
// its cohort again: the next in line moves up in their place, and the
// removed player keeps the league they played the period in.
func TestLeagues_CorrectionRanksTheCohortsAgain(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		clock := &weekClock{}
		clock.set(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC))
		store := mustOpenDB(t, append(own, db.WithClock(clock.get), db.WithSettlement(true))...)
		ctx := context.Background()
		if _, err := store.CreateBoard(ctx, leagueBoard("league", 4)); err != nil {
			t.Fatal(err)
		}
		b := mustBoard(t, store, "league")
		submitLeagueScores(t, store, "league", "w45", []string{"a", "b", "c", "d"}, []int{60, 50, 40, 30}, nil)
		clock.set(time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC))
		if _, err := store.ClosePeriod(ctx, "league", "2026-W45"); err != nil {
			t.Fatal(err)
		}
		if _, err := store.CorrectScore(ctx, "league", "2026-W45", "a", nil, "cheating"); err != nil {
			t.Fatal(err)
		}
		assertWeek45WithoutA(t, store, b, "a:0 b:1 c:1")
	})
}

// The close (closePeriod's and the scheduler's group close), and the
// correction an erasure makes of a closed period, rank a period's cohorts in time proportional to its players whatever the
// planner's statistics say: a period's rows are always newer than the
// statistics (its period id lies past their histogram, estimated at a row
// or two), and a statement that joined its members to their ranks by a
// nested loop re-sorted every cohort once a member (5,000 members: minutes,
// where it takes a fraction of a second).
func TestLeagues_CloseOfAPeriodNewerThanTheStatisticsIsLinear(t *testing.T) {
	clock := &weekClock{}
	clock.set(testNow)
	store := mustOpenDB(t, db.WithErasureKey(erasureKey), db.WithClock(clock.get))
	ctx := context.Background()
	for _, board := range []struct {
		id      string
		players int
	}{{"old", 300}, {"league", 5000}, {"due", 5000}} {
		if _, err := store.CreateBoard(ctx, leagueBoard(board.id, 30)); err != nil {
			t.Fatal(err)
		}
		if _, err := store.SeedPeriod(ctx, board.id, "2026-W47", board.players, db.SeedOptions{RandomSeed: 1}); err != nil {
			t.Fatal(err)
		}
		placeSeededPlayers(t, board.id, 3)
		if board.id == "old" {
			mustQuery(t, `ANALYZE cohort_members`)
			mustQuery(t, `ANALYZE board_scores`)
			mustQuery(t, `ANALYZE board_final_ranks`)
		}
	}
	deadline, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	start := time.Now()
	p, err := store.ClosePeriod(deadline, "league", "2026-W47")
	if took := time.Since(start); err != nil || p.Status != leaderboard.PeriodClosed || took > 10*time.Second {
		t.Fatalf("close: %+v, %v after %v; want CLOSED within 10 s", p, err, took)
	}
	player := mustQuery(t, `SELECT m.player_id FROM cohort_members m JOIN periods p ON p.id = m.period_id
		WHERE p.board_id = 'league' ORDER BY m.player_id LIMIT 1`)[0][0]
	start = time.Now()
	e, err := store.ErasePlayer(deadline, player, "linear")
	if took := time.Since(start); err != nil || e.CorrectedPeriods != 1 || took > 10*time.Second {
		t.Fatalf("erasure: %+v, %v after %v; want one period corrected within 10 s", e, err, took)
	}
	// The scheduler closes a period of fewer than 10,000 players in a group,
	// its cohorts ranked by SQL.
	clock.set(time.Date(2026, 11, 23, 0, 1, 0, 0, time.UTC))
	start = time.Now()
	closed, err := store.TryClosePeriods(deadline, []leaderboard.Period{{Board: "due", Key: "2026-W47"}})
	if took := time.Since(start); err != nil || len(closed) != 1 || took > 10*time.Second {
		t.Fatalf("group close: %+v, %v after %v; want one period closed within 10 s", closed, err, took)
	}
	// The erased player was seeded in every board: each has 4,999 left.
	for board, want := range map[string]string{"league": "4999", "due": "4999"} {
		if n := mustQuery(t, `SELECT count(*) FROM board_final_ranks f JOIN periods p ON p.id = f.period_id
			WHERE p.board_id = $1 AND f.next_league IS NOT NULL`, board); n[0][0] != want {
			t.Errorf("%s: %s members ranked, want %s", board, n[0][0], want)
		}
	}
}

// assertWeek45WithoutA checks the bronze cohort of board b's closed week 45
// once player a left it (a correction or an erasure): b, c and d ranked
// again, b and c promoted, the players' leagues as leagues lists them, and
// the period.corrected message saying so.
func assertWeek45WithoutA(t *testing.T, store *db.DB, b *leaderboard.Board, leagues string) {
	t.Helper()
	for player, want := range map[string]string{"b": "1 silver", "c": "2 silver", "d": "3 bronze"} {
		ref, err := store.CohortOf(context.Background(), b, "2026-W45", player)
		if err != nil || ref == nil || fmt.Sprintf("%d %s", ref.Rank, *ref.NextLeague) != want || ref.Size != 3 {
			t.Errorf("%s in week 45 without a: %+v, %v; want %s of 3", player, ref, err, want)
		}
	}
	got := mustQuery(t, `SELECT string_agg(player_id || ':' || league, ' ' ORDER BY player_id) FROM board_player_leagues`)
	if got[0][0] != leagues {
		t.Errorf("players' leagues: %s, want %s", got[0][0], leagues)
	}
	body := mustQuery(t, `SELECT body FROM outbox WHERE type = 'period.corrected'`)[0][0]
	if !strings.Contains(body, `"cohorts":1,"leagues":[{"name":"bronze","players":3,"promoted":2,"demoted":0}`) {
		t.Errorf("period.corrected: %s", body)
	}
}
