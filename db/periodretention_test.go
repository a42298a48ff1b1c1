package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
		if _, err := store.CorrectScore(ctx, "daily", key, "bob", nil, "cheating"); err != nil {
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
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 1})
	if err != nil || len(dropped) != 1 || dropped[0].Board != "daily" || dropped[0].Key != "2026-11-15" {
		t.Fatalf("first drop: %+v, %v", dropped, err)
	}
	dropped, err = store.DropOldPeriods(ctx, db.Retention{Limit: 100})
	if err != nil || len(dropped) != 1 || dropped[0].Key != "2026-11-16" {
		t.Fatalf("second drop: %+v, %v", dropped, err)
	}
	if dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 100}); err != nil || len(dropped) != 0 {
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
		dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
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

// mustCloseSeededPeriod seeds period 2026-11-20 of a new DAY board that keeps
// no closed period with players, gives each an accepted event and removes
// one, closes it, and returns its id and its rows in the tables the purge
// empties.
func mustCloseSeededPeriod(t *testing.T, store *db.DB, now *time.Time, board string, players int) (id string, rows int) {
	t.Helper()
	ctx := context.Background()
	*now = *utc(11, 20, 12)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: board, Name: board, Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0), RetainPeriods: new(0)})
	if _, err := store.SeedPeriod(ctx, board, "2026-11-20", players, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	mustQuery(t, `INSERT INTO board_score_events (board_id, event_id, period_id, player_id, mode, value, subscore,
			occurred_at, received_at, status, old_score, new_score)
		SELECT $1, 'e-' || player_id, period_id, player_id, 'SET', score, subscore, reached_at, reached_at, 'APPLIED', NULL, score
		FROM board_scores s JOIN periods p ON p.id = s.period_id WHERE p.board_id = $1`, board)
	if _, err := store.CorrectScore(ctx, board, "2026-11-20", db.SeedPlayerID(1), nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	*now = *utc(11, 21, 1)
	if _, err := store.ClosePeriod(ctx, board, "2026-11-20"); err != nil {
		t.Fatal(err)
	}
	id = mustQuery(t, `SELECT id FROM periods WHERE board_id = $1`, board)[0][0]
	return id, periodRows(t, id)
}

// periodRows counts the rows of period id in the tables the purge empties.
func periodRows(t *testing.T, id string) int {
	t.Helper()
	n := 0
	for _, table := range []string{"board_scores", "board_score_events", "board_final_ranks", "board_removed_players",
		"period_rank_counts"} {
		var rows int
		fmt.Sscan(mustQuery(t, `SELECT count(*) FROM `+table+` WHERE period_id = $1`, id)[0][0], &rows)
		n += rows
	}
	return n
}

func TestDropOldPeriods_PurgesABigPeriodInBoundedBatches(t *testing.T) {
	var now time.Time
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{RetentionBatch: 1000}))
	ctx := context.Background()
	id, rows := mustCloseSeededPeriod(t, store, &now, "big", 25_000)
	if rows < 75_000 {
		t.Fatalf("the period holds %d rows, want its scores, events and final ranks", rows)
	}
	// Another board's period of the same month keeps its rows.
	mustCreateBoard(t, store, rewardBoard("kept", leaderboard.OrderDesc))
	now = *utc(11, 20, 12)
	mustSubmit(t, store, boardEvent("kept", "k1", "ann", leaderboard.ModeSet, 5, utc(11, 20, 9)))
	now = *utc(11, 21, 1)
	if _, err := store.ClosePeriod(ctx, "kept", "2026-11-20"); err != nil {
		t.Fatal(err)
	}
	keptRows := periodRows(t, mustQuery(t, `SELECT id FROM periods WHERE board_id = 'kept'`)[0][0])
	// Each statement that deletes rows of these tables records its
	// transaction and the rows it deleted.
	mustQuery(t, `CREATE TABLE purge_log (xid xid8, tbl text, n bigint)`)
	mustQuery(t, `CREATE FUNCTION log_purge() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO purge_log SELECT pg_current_xact_id(), TG_TABLE_NAME, count(*) FROM old_rows;
			RETURN NULL;
		END $$`)
	for _, table := range []string{"board_scores", "board_score_events", "board_final_ranks", "board_removed_players",
		"period_rank_counts"} {
		mustQuery(t, `CREATE TRIGGER log_purge AFTER DELETE ON `+table+
			` REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_purge()`)
	}

	now = *utc(11, 22, 1)
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
	if err != nil || len(dropped) != 1 || dropped[0].Board != "big" {
		t.Fatalf("dropped %+v, %v", dropped, err)
	}
	if n := periodRows(t, id); n != 0 {
		t.Fatalf("%d rows of the dropped period are left", n)
	}
	if n := mustQuery(t, `SELECT count(*) FROM period_purges`); n[0][0] != "0" {
		t.Fatalf("%s purges still queued", n[0][0])
	}
	got := mustQuery(t, `SELECT count(*), sum(n)::bigint, max(n) FROM (SELECT xid, sum(n) AS n FROM purge_log GROUP BY xid) x`)
	var txs, deleted, largest int
	fmt.Sscan(got[0][0], &txs)
	fmt.Sscan(got[0][1], &deleted)
	fmt.Sscan(got[0][2], &largest)
	if deleted != rows || largest > 1000 || txs < rows/1000 {
		t.Fatalf("%d transactions deleted %d rows, at most %d each; want all %d, at most 1000 each", txs, deleted, largest, rows)
	}
	if n := periodRows(t, mustQuery(t, `SELECT id FROM periods WHERE board_id = 'kept'`)[0][0]); n != keptRows {
		t.Fatalf("the other board's period holds %d rows, had %d", n, keptRows)
	}
	t.Logf("%d rows purged in %d transactions", deleted, txs)
}

// A purge cut short (here by a row lock it waits for, then a cancelled
// context) leaves the period gone to readers from the drop's commit, and
// the next run of retention finishes it.
func TestDropOldPeriods_InterruptedPurgeGoesOnAtTheNextRun(t *testing.T) {
	var now time.Time
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{RetentionBatch: 1000}))
	id, _ := mustCloseSeededPeriod(t, store, &now, "big", 5_000)
	player := db.SeedPlayerID(2)
	if s := standingOf(t, store, "big", "2026-11-20", player); s == nil || !s.Final {
		t.Fatalf("standing before the drop: %+v", s)
	}

	// The final ranks go last: locked, they stop the purge after the
	// batches of the other tables.
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	lock, err := conn.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback(context.Background())
	if _, err := lock.Exec(context.Background(), `SELECT FROM board_final_ranks WHERE period_id = $1 FOR UPDATE`, id); err != nil {
		t.Fatal(err)
	}
	now = *utc(11, 22, 1)
	ctx, cancel := context.WithCancel(context.Background())
	type outcome struct {
		dropped []leaderboard.Period
		err     error
	}
	done := make(chan outcome, 1)
	go func() {
		dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
		done <- outcome{dropped, err}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		waiting := mustQuery(t, `SELECT count(*) FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM board_final_ranks%'`)
		if waiting[0][0] != "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the purge never reached the final ranks")
		}
	}
	cancel()
	first := <-done
	if first.err == nil || len(first.dropped) != 1 {
		t.Fatalf("interrupted run: dropped %+v, %v", first.dropped, first.err)
	}

	// Gone from the drop's commit, with rows still to purge: the batches
	// committed before the lock emptied the scores and events; the one cut
	// short rolled back.
	left := mustQuery(t, `SELECT (SELECT count(*) FROM board_scores WHERE period_id = $1),
		(SELECT count(*) FROM board_score_events WHERE period_id = $1),
		(SELECT count(*) FROM board_final_ranks WHERE period_id = $1)`, id)[0]
	if left[0] != "0" || left[1] != "0" || left[2] != "4999" {
		t.Fatalf("scores, events and final ranks left after the interrupted purge: %v", left)
	}
	if n := mustQuery(t, `SELECT count(*) FROM period_purges WHERE period_id = $1`, id); n[0][0] != "1" {
		t.Fatal("the interrupted purge is not queued")
	}
	if p, err := store.Period(context.Background(), "big", "2026-11-20"); err != nil || p != nil {
		t.Fatalf("the dropped period reads as %+v, %v", p, err)
	}
	if s := standingOf(t, store, "big", "2026-11-20", player); s != nil {
		t.Fatalf("a standing of the dropped period: %+v", s)
	}
	page, err := store.PeriodLeaderboard(context.Background(), mustBoard(t, store, "big"), "2026-11-20", 10, "")
	if err != nil || page.Total != 0 || len(page.Edges) != 0 {
		t.Fatalf("a page of the dropped period: %+v, %v", page, err)
	}
	if c := mustClaim(t, store, "big", "2026-11-20", player, "c1"); c.Status != leaderboard.ClaimGone {
		t.Fatalf("a claim of the dropped period: %+v", c)
	}

	if err := lock.Rollback(context.Background()); err != nil {
		t.Fatal(err)
	}
	dropped, err := store.DropOldPeriods(context.Background(), db.Retention{Limit: 10})
	if err != nil || len(dropped) != 0 {
		t.Fatalf("next run: dropped %+v, %v", dropped, err)
	}
	if n := periodRows(t, id); n != 0 {
		t.Fatalf("%d rows of the dropped period are left after the next run", n)
	}
	if n := mustQuery(t, `SELECT count(*) FROM period_purges`); n[0][0] != "0" {
		t.Fatalf("%s purges still queued", n[0][0])
	}
}
