package e2e_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// otherDatabase creates an empty, migrated database beside the test's and
// returns its URL.
func otherDatabase(t *testing.T, name string) string {
	t.Helper()
	conn := sqlConn(t)
	if _, err := conn.Exec(context.Background(), `DROP DATABASE IF EXISTS `+name); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), `CREATE DATABASE `+name); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	if _, _, err := db.Migrate(u.String(), db.MigrateUp); err != nil {
		t.Fatal(err)
	}
	return u.String()
}

// With DATABASE_READ_URL, public reads come from the replica and writes,
// with the ranks they answer, from the primary. The "replica" here is a
// database that never receives the primary's changes, which shows where
// each call went.
func TestReplica_ReadsFromTheReplicaWritesAndTheirRanksFromThePrimary(t *testing.T) {
	pg.Reset(t)
	replica := otherDatabase(t, "replica")
	s, _ := startInstance(t, func(c *app.Config) { c.DatabaseReadURL = replica })
	month := currentMonth(t)
	r := s.submit(t, ev("e1", "alice", "SET", 50, month.at(1)))[0]
	checkResult(t, r, "APPLIED", 50, 1) // the rank was read on the primary
	if st := s.standing(t, month.month, "alice"); st != nil {
		t.Errorf("a public read came from the primary: %+v", st)
	}
	if info := s.month(t, month.month); info != nil {
		t.Errorf("month() came from the primary: %+v", info)
	}
	var stored int
	if err := sqlConn(t).QueryRow(context.Background(), `SELECT count(*) FROM board_score_events WHERE board_id = 'main'`).Scan(&stored); err != nil || stored != 1 {
		t.Errorf("the primary holds %d events, %v", stored, err)
	}

	// Every other board is read as main is: its submit's rank on the
	// primary, its public reads on the replica.
	s.mustDo(t, adminToken, `mutation { createBoard(id: "daily", name: "Daily", reset: DAY, timeZone: "UTC",
		startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	b := s.submitRaw(t, map[string]any{"eventId": "d1", "playerId": "alice", "mode": "SET", "value": 7, "board": "daily"})[0]
	if b.Status != "APPLIED" || b.Rank == nil || *b.Rank != 1 {
		t.Errorf("a board's submit: %s rank %v, want APPLIED with rank 1 read on the primary", b.Status, b.Rank)
	}
	var read struct {
		Standing    *boardStanding      `json:"standing"`
		Leaderboard struct{ Total int } `json:"leaderboard"`
	}
	s.mustDo(t, "", `{ standing(board: "daily", playerId: "alice") { rank }
		leaderboard(board: "daily") { total } }`, nil, &read)
	if read.Standing != nil || read.Leaderboard.Total != 0 {
		t.Errorf("a board's public reads came from the primary: %+v", read)
	}
}

// With a real streaming standby (pg_basebackup -R from the primary), public
// reads come from the standby and show the primary's writes once the standby
// has replayed them; a submit's rank is read on the primary at once, and a
// close runs on the primary and reaches the standby's readers as CLOSED.
func TestReplica_StreamingStandbyServesReadsAfterItReplays(t *testing.T) {
	pair := pgtest.StartPair(t)
	standbyConn, err := pgx.Connect(t.Context(), pair.StandbyURL)
	if err != nil {
		t.Fatal(err)
	}
	defer standbyConn.Close(context.Background())
	var recovering bool
	if err := standbyConn.QueryRow(t.Context(), `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil || !recovering {
		t.Fatalf("the standby is not in recovery (%v): not a standby", err)
	}

	s, _ := startInstance(t, func(c *app.Config) {
		c.DatabaseURL, c.DatabaseReadURL = pair.PrimaryURL, pair.StandbyURL
	})
	open, past := currentMonth(t), previousMonth(t)
	var events []scoreEvent
	var want []string // the past month's players in rank order
	for i := range 30 {
		player := fmt.Sprintf("p%02d", i)
		events = append(events, ev("o"+player, player, "SET", 100+i, open.at(i)),
			ev("c"+player, player, "SET", 1000-i*10, past.at(i)))
		want = append(want, player)
	}
	results := s.submit(t, events...)
	checkResult(t, results[len(results)-2], "APPLIED", 129, 1) // the rank comes from the primary

	// The standby catches up by itself; until then a read may be behind.
	started := time.Now()
	for s.standing(t, open.month, "p29") == nil {
		if time.Since(started) > 10*time.Second {
			t.Fatal("the standby did not show the primary's writes within 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the standby showed the writes %s after the submit answered", time.Since(started).Round(time.Millisecond))
	if st := s.mustStanding(t, open.month, "p29"); st.Rank != 1 || st.Total != 30 {
		t.Errorf("standing read on the standby: rank %d of %d, want 1 of 30", st.Rank, st.Total)
	}

	if info := s.closeMonth(t, past.month); info.Status != "CLOSED" {
		t.Fatalf("closeMonth: %s", info.Status)
	}
	for started = time.Now(); s.month(t, past.month) == nil || s.month(t, past.month).Status != "CLOSED"; time.Sleep(20 * time.Millisecond) {
		if time.Since(started) > 10*time.Second {
			t.Fatal("the standby did not show the close within 10 s")
		}
	}
	checkOrder(t, s.table(t, past.month), want...)
	if st := s.mustStanding(t, past.month, "p00"); !st.Final || st.Rank != 1 {
		t.Errorf("final standing: %+v", st)
	}
	if _, err := standbyConn.Exec(t.Context(), `CREATE TABLE written_on_standby (id int)`); err == nil {
		t.Error("the standby took a write")
	}
}
