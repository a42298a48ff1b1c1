package e2e_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
)

// With LEADERBOARD_RETAIN_MONTHS, the one retention task drops main's old
// months as it drops the periods other boards no longer keep: a closed
// month older than those kept goes with its partitions, the month kept
// stays, and the board keeps its newest season.
func TestRetention_OneTaskDropsMainsOldMonthsAndBoardsPeriods(t *testing.T) {
	s := startServer(t)
	start := monthStart(time.Now())
	old, kept := start.AddDate(0, -3, 0).Format("2006-01"), start.AddDate(0, -1, 0).Format("2006-01")
	for _, month := range []string{old, kept} {
		seedMonthAt(t, pg.URL, month, 50)
		if info := s.closeMonth(t, month); info.Status != "CLOSED" {
			t.Fatalf("closeMonth(%s) answered %s", month, info.Status)
		}
	}
	createClosedSeasons(t, s, "ranked", "s1", "s2")

	keeping, _ := startInstance(t, func(c *app.Config) { c.RetainMonths = 1 })
	seasons := waitForPeriodKeys(t, keeping, "ranked", func(keys []string) bool {
		return keeping.month(t, old) == nil && len(keys) == 1
	})
	if info := keeping.month(t, old); info != nil {
		t.Fatalf("month %s, older than those kept, is still there: %+v", old, info)
	}
	if info := keeping.month(t, kept); info == nil || info.Status != "CLOSED" {
		t.Fatalf("month %s, kept, reads as %+v", kept, info)
	}
	if fmt.Sprint(seasons) != "[s2]" {
		t.Fatalf("seasons kept %v, want s2 alone", seasons)
	}
	// The dropped month's rows are purged in batches after its drop: no
	// score, event or final rank of a period that is gone stays behind.
	const orphans = `SELECT (SELECT count(*) FROM board_scores s WHERE NOT EXISTS (SELECT 1 FROM periods p WHERE p.id = s.period_id))
		+ (SELECT count(*) FROM board_score_events e WHERE NOT EXISTS (SELECT 1 FROM periods p WHERE p.id = e.period_id))
		+ (SELECT count(*) FROM board_final_ranks f WHERE NOT EXISTS (SELECT 1 FROM periods p WHERE p.id = f.period_id))`
	var left int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := sqlConn(t).QueryRow(context.Background(), orphans).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rows of the dropped month %s and season left after 30 s", left, old)
		}
	}
}

// createClosedSeasons creates board, a SEASON board that keeps one closed
// period, and a season of it for each key, a month each from January 2026,
// each closed at once.
func createClosedSeasons(t *testing.T, s *server, board string, keys ...string) {
	t.Helper()
	s.mustDo(t, adminToken, `mutation($b: ID!) { createBoard(id: $b, name: "Ranked", reset: SEASON, retainPeriods: 1,
		startsAt: "2026-01-01T00:00:00Z") { created } }`, map[string]any{"b": board}, nil)
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	for i, key := range keys {
		vars := map[string]any{"b": board, "k": key, "start": start.AddDate(0, i, 0), "end": start.AddDate(0, i+1, 0)}
		s.mustDo(t, adminToken, `mutation($b: ID!, $k: String!, $start: Time!, $end: Time!) {
			createSeason(board: $b, key: $k, startsAt: $start, endsAt: $end) { key } }`, vars, nil)
		s.mustDo(t, adminToken, `mutation($b: ID!, $k: String!) { closePeriod(board: $b, period: $k) { status } }`,
			map[string]any{"b": board, "k": key}, nil)
	}
}

// waitForPeriodKeys returns the keys of board's periods once done accepts
// them, or as they are after 10 s.
func waitForPeriodKeys(t *testing.T, s *server, board string, done func(keys []string) bool) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got struct {
			Board struct {
				Periods []struct {
					Key string `json:"key"`
				} `json:"periods"`
			} `json:"board"`
		}
		s.mustDo(t, "", `query($b: ID!) { board(id: $b) { periods { key } } }`, map[string]any{"b": board}, &got)
		keys := make([]string, len(got.Board.Periods))
		for i, p := range got.Board.Periods {
			keys[i] = p.Key
		}
		if done(keys) || time.Now().After(deadline) {
			return keys
		}
		time.Sleep(50 * time.Millisecond)
	}
}
