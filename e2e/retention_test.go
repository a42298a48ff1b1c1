package e2e_test

import (
	"context"
	"fmt"
	"strings"
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
	s.mustDo(t, adminToken, `mutation { createBoard(id: "ranked", name: "Ranked", reset: SEASON, retainPeriods: 1,
		startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	for i, key := range []string{"s1", "s2"} {
		vars := map[string]any{"k": key, "start": fmt.Sprintf("2026-0%d-01T00:00:00Z", i+1),
			"end": fmt.Sprintf("2026-0%d-01T00:00:00Z", i+2)}
		s.mustDo(t, adminToken, `mutation($k: String!, $start: Time!, $end: Time!) {
			createSeason(board: "ranked", key: $k, startsAt: $start, endsAt: $end) { key } }`, vars, nil)
		s.mustDo(t, adminToken, `mutation($k: String!) { closePeriod(board: "ranked", period: $k) { status } }`,
			map[string]any{"k": key}, nil)
	}

	keeping, _ := startInstance(t, func(c *app.Config) { c.RetainMonths = 1 })
	var seasons struct {
		Board struct {
			Periods []struct {
				Key string `json:"key"`
			} `json:"periods"`
		} `json:"board"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		keeping.mustDo(t, "", `{ board(id: "ranked") { periods { key } } }`, nil, &seasons)
		if (keeping.month(t, old) == nil && len(seasons.Board.Periods) == 1) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if info := keeping.month(t, old); info != nil {
		t.Fatalf("month %s, older than those kept, is still there: %+v", old, info)
	}
	if info := keeping.month(t, kept); info == nil || info.Status != "CLOSED" {
		t.Fatalf("month %s, kept, reads as %+v", kept, info)
	}
	if len(seasons.Board.Periods) != 1 || seasons.Board.Periods[0].Key != "s2" {
		t.Fatalf("seasons kept %+v, want s2 alone", seasons.Board.Periods)
	}
	var tables int
	pattern := "%" + strings.ReplaceAll(old, "-", "_") + "%"
	err := sqlConn(t).QueryRow(context.Background(),
		`SELECT count(*) FROM pg_class WHERE relname LIKE $1 AND relkind IN ('r', 'p')`, pattern).Scan(&tables)
	if err != nil || tables != 0 {
		t.Fatalf("%d tables of month %s left, %v", tables, old, err)
	}
}
