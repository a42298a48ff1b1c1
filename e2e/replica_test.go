package e2e_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
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
	if err := sqlConn(t).QueryRow(context.Background(), `SELECT count(*) FROM score_events`).Scan(&stored); err != nil || stored != 1 {
		t.Errorf("the primary holds %d events, %v", stored, err)
	}
}
