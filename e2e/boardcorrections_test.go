package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/settlement"
)

// boardCorrection is a Correction of a board's period.
type boardCorrection struct {
	ID       string `json:"id"`
	Board    string `json:"board"`
	Period   string `json:"period"`
	PlayerID string `json:"playerId"`
	Before   *int   `json:"before"`
	After    *int   `json:"after"`
	Cleared  bool   `json:"cleared"`
	Reason   string `json:"reason"`
}

const boardCorrectionFields = `id board period playerId before after cleared reason`

// correctOnBoard runs correctScore on period of board as the admin; period
// "" names none (the current period).
func (s *server) correctOnBoard(t *testing.T, board, period, player string, score *int, reason string) boardCorrection {
	t.Helper()
	var got struct {
		CorrectScore boardCorrection `json:"correctScore"`
	}
	vars := map[string]any{"b": board, "p": player, "s": score, "r": reason}
	if period != "" {
		vars["k"] = period
	}
	s.mustDo(t, adminToken, `mutation($b: ID, $k: String, $p: ID!, $s: Int, $r: String!) {
		correctScore(board: $b, period: $k, playerId: $p, score: $s, reason: $r) { `+boardCorrectionFields+` } }`,
		vars, &got)
	return got.CorrectScore
}

// A weekly board's period is corrected like main's months: on the open week
// a total moves and a removed player's events are FORBIDDEN; once closed, a
// correction rebuilds the final ranks, changes the digest and delivers a
// period.corrected message; corrections lists them all, oldest first; bad
// arguments are BAD_USER_INPUT, and main answers as before.
func TestBoardCorrections_CorrectAWeekOpenThenClosed(t *testing.T) {
	receiver := newWebhookReceiver(t, 0)
	s := startServer(t, withLifecycle(receiver))
	s.mustDo(t, adminToken, `mutation { createBoard(id: "pvp", name: "PvP", reset: WEEK, maxScore: 1000,
		startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	var events []map[string]any
	for i := range 4 {
		events = append(events, map[string]any{"eventId": fmt.Sprintf("e%d", i), "playerId": fmt.Sprintf("p%d", i),
			"mode": "SET", "value": 100 * (i + 1), "board": "pvp"})
	}
	week := *s.submitRaw(t, events...)[0].Period

	// The open week: neither period nor month is the current week.
	c := s.correctOnBoard(t, "pvp", "", "p0", new(900), "missed match")
	if c.Board != "pvp" || c.Period != week || c.PlayerID != "p0" || *c.Before != 100 || *c.After != 900 {
		t.Fatalf("correction %+v", c)
	}
	var top struct {
		Standing *boardStanding `json:"standing"`
	}
	s.mustDo(t, "", `{ standing(board: "pvp", playerId: "p0") { rank score } }`, nil, &top)
	if top.Standing == nil || top.Standing.Rank != 1 || top.Standing.Score != 900 {
		t.Fatalf("p0 after the correction: %+v", top.Standing)
	}
	s.mustDo(t, adminToken, `mutation($k: String) { correctScore(board: "pvp", period: $k, playerId: "p1", reason: "cheating") { id } }`,
		map[string]any{"k": week}, nil)
	late := s.submitRaw(t, map[string]any{"eventId": "again", "playerId": "p1", "mode": "SET", "value": 5, "board": "pvp"})
	if late[0].Status != "REJECTED" || late[0].Code == nil || *late[0].Code != "FORBIDDEN" {
		t.Fatalf("an event of a removed player: %+v", late[0])
	}

	var closed struct {
		ClosePeriod struct {
			Digest string `json:"digest"`
		} `json:"closePeriod"`
	}
	s.mustDo(t, adminToken, `mutation($k: String!) { closePeriod(board: "pvp", period: $k) { digest } }`,
		map[string]any{"k": week}, &closed)
	s.correctOnBoard(t, "pvp", week, "p3", new(1000), "bonus round")
	var period struct {
		Period struct {
			Participants int    `json:"participants"`
			Digest       string `json:"digest"`
			Settlement   struct {
				Status string `json:"status"`
			} `json:"settlement"`
		} `json:"period"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mustDo(t, "", `query($k: String!) { period(board: "pvp", key: $k) { participants digest settlement { status } } }`,
			map[string]any{"k": week}, &period)
		if period.Period.Settlement.Status == "DELIVERED" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if p := period.Period; p.Participants != 3 || p.Digest == closed.ClosePeriod.Digest || p.Settlement.Status != "DELIVERED" {
		t.Fatalf("the corrected week %+v (closed with digest %s)", p, closed.ClosePeriod.Digest)
	}
	var types []string
	for _, d := range receiver.received() {
		types = append(types, d.eventType)
		if !settlement.Verify([]byte(webhookSecret), d.body, d.signature) {
			t.Errorf("delivery %s: bad signature", d.id)
		}
	}
	if !slices.Equal(types, []string{"period.closed", "period.corrected"}) {
		t.Fatalf("deliveries %v", types)
	}
	var body struct {
		Board, Period, Digest string
		Top                   []struct{ PlayerID string }
		Correction            struct{ PlayerID, Reason string }
	}
	if err := json.Unmarshal(receiver.received()[1].body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Board != "pvp" || body.Period != week || body.Digest != period.Period.Digest || len(body.Top) != 3 ||
		body.Top[0].PlayerID != "p3" || body.Correction.PlayerID != "p3" || body.Correction.Reason != "bonus round" {
		t.Fatalf("period.corrected %s", receiver.received()[1].body)
	}

	var list struct {
		Corrections []boardCorrection `json:"corrections"`
	}
	s.mustDo(t, adminToken, `query($k: String) { corrections(board: "pvp", period: $k) { `+boardCorrectionFields+` } }`,
		map[string]any{"k": week}, &list)
	var reasons []string
	for _, c := range list.Corrections {
		reasons = append(reasons, c.PlayerID+":"+c.Reason)
	}
	if !slices.Equal(reasons, []string{"p0:missed match", "p1:cheating", "p3:bonus round"}) {
		t.Fatalf("corrections %v", reasons)
	}

	for _, bad := range []struct{ query, code string }{
		{`mutation { correctScore(board: "pvp", period: "2026-W01", month: "2026-01", playerId: "p0", score: 1, reason: "r") { id } }`, "BAD_USER_INPUT"},
		{`mutation { correctScore(board: "pvp", month: "2026-01", playerId: "p0", score: 1, reason: "r") { id } }`, "BAD_USER_INPUT"},
		{`mutation { correctScore(board: "pvp", playerId: "p0", score: 1001, reason: "r") { id } }`, "BAD_USER_INPUT"},
		{`mutation { correctScore(board: "nope", playerId: "p0", score: 1, reason: "r") { id } }`, "NOT_FOUND"},
		{`{ corrections(board: "pvp", month: "2026-01") { id } }`, "BAD_USER_INPUT"},
	} {
		s.expectError(t, adminToken, bad.query, nil, bad.code)
	}
	if resp := s.do(t, serverToken, `{ corrections(board: "pvp") { id } }`, nil); len(resp.Codes()) != 1 || resp.Codes()[0] != "FORBIDDEN" {
		t.Errorf("corrections with the game server's token: %s", resp.Body)
	}

	// main, named by its month as before or by nothing (its current month).
	month := currentMonth(t)
	s.submit(t, ev("m1", "ann", "SET", 10, month.at(1)))
	var mainList struct {
		CorrectScore boardCorrection   `json:"correctScore"`
		Corrections  []boardCorrection `json:"corrections"`
	}
	s.mustDo(t, adminToken, `mutation { correctScore(playerId: "ann", score: 20, reason: "r") { `+boardCorrectionFields+` } }`, nil, &mainList)
	if c := mainList.CorrectScore; c.Board != "main" || c.Period != month.month || *c.After != 20 {
		t.Fatalf("main's correction %+v", c)
	}
	s.mustDo(t, adminToken, `query($m: Month!) { corrections(month: $m) { `+boardCorrectionFields+` } }`,
		map[string]any{"m": month.month}, &mainList)
	if len(mainList.Corrections) != 1 || mainList.Corrections[0].PlayerID != "ann" {
		t.Fatalf("main's corrections %+v", mainList.Corrections)
	}
}

// The scheduler drops the closed periods a board's retainPeriods no longer
// keeps: of three closed seasons, the newest stays.
func TestBoardRetention_TheSchedulerDropsPeriodsTheBoardNoLongerKeeps(t *testing.T) {
	s := startServer(t)
	createClosedSeasons(t, s, "ranked", "s1", "s2", "s3")
	kept := waitForPeriodKeys(t, s, "ranked", func(keys []string) bool { return len(keys) == 1 })
	if fmt.Sprint(kept) != "[s3]" {
		t.Fatalf("periods kept %v, want s3 alone", kept)
	}
}

// seed --board --period fills a board's open week that the service then
// ranks; it refuses main, a closed period and one with scores before it
// prints a random seed.
func TestSeedBoard_FillsAnOpenWeekAndRefusesFirst(t *testing.T) {
	s := startServer(t)
	s.mustDo(t, adminToken, `mutation { createBoard(id: "pvp", name: "PvP", reset: WEEK, startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	var current struct {
		Board struct {
			Current struct {
				Key string `json:"key"`
			} `json:"current"`
		} `json:"board"`
	}
	s.mustDo(t, "", `{ board(id: "pvp") { current { key } } }`, nil, &current)
	week := current.Board.Current.Key
	t.Setenv("DATABASE_URL", pg.URL)
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		cmd := app.NewCommand(slog.New(slog.NewTextHandler(&out, nil)))
		cmd.SetArgs(args)
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		err := cmd.Execute()
		return out.String(), err
	}

	out, err := run("seed", "--board", "pvp", "--period", week, "--players", "50", "--seed", "3")
	if err != nil || !strings.Contains(out, "seeded 50 players in period "+week+" of pvp (50 new)") ||
		!strings.Contains(out, "copied 50/50 players") || !strings.Contains(out, "vacuumed and analyzed the seeded tables in") {
		t.Fatalf("seed: %v\n%s", err, out)
	}
	var page struct {
		Leaderboard struct {
			Total int `json:"total"`
		} `json:"leaderboard"`
	}
	s.mustDo(t, "", `{ leaderboard(board: "pvp") { total } }`, nil, &page)
	if page.Leaderboard.Total != 50 {
		t.Fatalf("the seeded week has %d players", page.Leaderboard.Total)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--board", "pvp", "--period", week}, "period " + week + " of pvp already has scores: only a period without scores can be seeded"},
		{[]string{"--board", "main", "--period", "2026-11"}, "main's periods are its months: seed them with --month"},
		{[]string{"--board", "nope", "--period", week}, "no board nope"},
		{[]string{"--board", "pvp", "--period", "2026-W01"}, "board pvp has no period 2026-W01"},
		{[]string{"--board", "pvp", "--period", week}, "period " + week + " of pvp is CLOSED: only an open period can be seeded"},
	} {
		if c.want == "period "+week+" of pvp is CLOSED: only an open period can be seeded" {
			s.mustDo(t, adminToken, `mutation($k: String!) { closePeriod(board: "pvp", period: $k) { status } }`, map[string]any{"k": week}, nil)
		}
		out, err := run(append([]string{"seed", "--players", "10"}, c.args...)...)
		if leaderboard.ErrorMessage(err) != c.want || strings.Contains(out, "random seed") {
			t.Errorf("seed %v: %v, want %q\n%s", c.args, err, c.want, out)
		}
	}
	if _, err := run("seed", "--month", "2026-11", "--board", "pvp", "--period", week, "--players", "10"); err == nil {
		t.Errorf("seed with --month and --board ran")
	}
}

// The rows of a period whose drop committed but whose purge a stop or a
// crash cut short stay queued; the next instance's scheduler purges them at
// its start.
func TestBoardRetention_AnInstanceFinishesAPurgeLeftQueued(t *testing.T) {
	pg.Reset(t)
	conn := sqlConn(t)
	const gone = 4242 // a period id no period has: its row went with the drop
	for _, q := range []string{
		`INSERT INTO period_purges (period_id) VALUES ($1)`,
		`INSERT INTO board_removed_players (period_id, player_id) SELECT $1, 'p' || i FROM generate_series(1, 30) i`,
		`INSERT INTO period_rank_counts (period_id, level, bucket, sub, players) SELECT $1, 0, i, 0, 1 FROM generate_series(1, 30) i`,
	} {
		if _, err := conn.Exec(context.Background(), q, gone); err != nil {
			t.Fatal(err)
		}
	}
	startInstance(t, func(c *app.Config) { c.RetentionBatch = 7 })
	var left int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		const q = `SELECT (SELECT count(*) FROM period_purges) + (SELECT count(*) FROM board_removed_players)
			+ (SELECT count(*) FROM period_rank_counts)`
		if err := conn.QueryRow(context.Background(), q).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			return
		}
	}
	t.Fatalf("%d rows of the purge are left", left)
}
