//go:build record

package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// recordF2c7c5e is the path of a leaderboard binary built at release f2c7c5e.
// Given, TestUpgrade_RecordReleaseF2c7c5e rewrites testdata/release-f2c7c5e.sql
// and testdata/release-f2c7c5e-answers.json with that binary:
//
//	git worktree add /tmp/rel f2c7c5e
//	(cd /tmp/rel && go build -o /tmp/lb-f2c7c5e ./cmd/leaderboard)
//	go test -tags record ./e2e/ -run TestUpgrade_RecordReleaseF2c7c5e -count=1 -v -args -record-f2c7c5e=/tmp/lb-f2c7c5e
//
// It needs pg_dump (15, as the test image's server) on the PATH. The periods
// it writes follow the day it runs (a board's events are taken only near
// their period), so a new recording changes every period key and instant;
// its events lie up to three hours into the current day, week and month
// (UTC), and it refuses to place one in the future: record later in the day.
var recordF2c7c5e = flag.String("record-f2c7c5e", "", "a binary of release f2c7c5e: record its database and answers into testdata")

// webhookSecretOfRecordings signs the messages a recorded release left.
const webhookSecretOfRecordings = "upgrade-fixture-webhook-secret-0123456789"

// TestUpgrade_RecordReleaseF2c7c5e is the generator of the f2c7c5e fixture,
// not a test: it builds only with the tag record, so that no run of the
// suite skips it. The release's own
// commands and GraphQL API write a database with main's months open and
// closed (one corrected twice), boards of every reset, both orders, both
// subscore directions and a range of 0..2,000,000,000, open and closed
// periods, claims, corrections of closed periods, a cleared period, and the
// settlement messages of closes and corrections left pending (the webhook
// points at a closed port; one month is closed without it, its settlement
// DISABLED). A second start of the release without a webhook answers every
// read recorded in the answers file.
func TestUpgrade_RecordReleaseF2c7c5e(t *testing.T) {
	if *recordF2c7c5e == "" {
		t.Fatal("give the binary to record with: -args -record-f2c7c5e=BINARY")
	}
	emptyDatabase(t)
	rel := &release{t: t, binary: *recordF2c7c5e}
	t.Cleanup(rel.stop)
	rel.run("migrate", "up")
	sc := newScenario(time.Now().UTC())
	sc.write(rel)

	reader := rel.serve(false)
	fx := &releaseFixture{Release: "f2c7c5e", WebhookSecret: webhookSecretOfRecordings}
	sc.recordReads(t, reader, fx)
	sc.recordExports(t, reader, fx)
	rel.stop()
	fx.Pending = pendingMessages(t)

	writeAnswers(t, "testdata/release-f2c7c5e-answers.json", fx, sc.about())
	dump, err := exec.Command("pg_dump", "--no-owner", "--no-privileges", "--inserts", pg.URL).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	if err := os.WriteFile("testdata/release-f2c7c5e.sql", dump, 0o644); err != nil {
		t.Fatal(err)
	}
}

// release runs a release's binary against the test database.
type release struct {
	t       *testing.T
	binary  string
	serving *exec.Cmd
}

// env is the release's environment: this suite's secrets, the suite's
// grace of 45 days, nothing closed unasked, no rate limits.
func (r *release) env() []string {
	return append(os.Environ(),
		"DATABASE_URL="+pg.URL,
		"LEADERBOARD_TIMEZONE=UTC",
		"LEADERBOARD_CLOSE_GRACE=1080h",
		"LEADERBOARD_AUTO_CLOSE=false",
		"LEADERBOARD_ADMIN_TOKEN="+adminToken,
		"LEADERBOARD_SERVER_TOKEN="+serverToken,
		"LEADERBOARD_JWT_SECRET="+jwtSecret,
		"LEADERBOARD_RATE_LIMIT=0",
		"LEADERBOARD_SERVER_RATE_LIMIT=0",
		"LEADERBOARD_PLAYER_RATE_LIMIT=0",
		"LEADERBOARD_SNAPSHOT_PLAYERS=1000000",
	)
}

// run runs one command of the release to its end, without a webhook: a
// close it runs has its settlement DISABLED.
func (r *release) run(args ...string) {
	r.t.Helper()
	r.runWith(r.env(), args...)
}

// runWebhooked runs one command of the release with the webhook serve has:
// a close it runs leaves its message pending.
func (r *release) runWebhooked(args ...string) {
	r.t.Helper()
	r.runWith(append(r.env(), webhookEnv...), args...)
}

// runWith runs one command of the release in env to its end.
func (r *release) runWith(env []string, args ...string) {
	r.t.Helper()
	cmd := exec.Command(r.binary, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("release %v: %v\n%s", args, err, out)
	}
}

// serve starts the release's serve on a free port, its webhook a closed
// port when webhook is set (every message stays pending), none otherwise,
// stopping the one it ran before.
func (r *release) serve(webhook bool) *server {
	r.t.Helper()
	r.stop()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(r.binary, "serve")
	cmd.Env = append(r.env(), "LISTEN_ADDR="+addr)
	if webhook {
		cmd.Env = append(cmd.Env, webhookEnv...)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.serving = cmd
	s := &server{url: "http://" + addr, client: &http.Client{Timeout: 30 * time.Second}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, err := s.client.Get(s.url + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			r.stop()
			r.t.Fatal("the release did not get ready in 30 s")
		}
	}
}

// stop stops the release's serve, if one runs.
func (r *release) stop() {
	if r.serving == nil {
		return
	}
	r.serving.Process.Signal(os.Interrupt)
	r.serving.Wait()
	r.serving = nil
}

// webhookEnv points the release's webhook at a closed port.
var webhookEnv = []string{"LEADERBOARD_WEBHOOK_URL=http://127.0.0.1:1/hooks/rewards",
	"LEADERBOARD_WEBHOOK_SECRET=" + webhookSecretOfRecordings, "LEADERBOARD_WEBHOOK_BACKOFF=200ms",
	"LEADERBOARD_WEBHOOK_MAX_BACKOFF=1s"}

// target is one period the fixture reads: a month of main (board "") or a
// board's period.
type target struct {
	board, key string
	closed     bool
}

// scenario is what the recorder writes: periods placed around now, since a
// board takes events only up to a week after its period ends.
type scenario struct {
	now                              time.Time
	oldMonth, closedMonth, openMonth string // main's: closed, closed and corrected, open
	yesterday, today                 string // daily.laps, Europe/Berlin
	lastWeek, thisWeek               string // weekly.pvp
	thisMonth                        string // monthly.clan open, monthly.sprint closed early
	targets                          []target
}

// newScenario places the fixture's periods around now.
func newScenario(now time.Time) *scenario {
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	day := now.In(berlin)
	year, week := now.ISOWeek()
	lastYear, lastWeek := now.AddDate(0, 0, -7).ISOWeek()
	sc := &scenario{
		now:         now,
		oldMonth:    month.AddDate(0, -3, 0).Format("2006-01"),
		closedMonth: month.AddDate(0, -2, 0).Format("2006-01"),
		openMonth:   month.AddDate(0, -1, 0).Format("2006-01"),
		yesterday:   day.AddDate(0, 0, -1).Format("2006-01-02"),
		today:       day.Format("2006-01-02"),
		lastWeek:    fmt.Sprintf("%d-W%02d", lastYear, lastWeek),
		thisWeek:    fmt.Sprintf("%d-W%02d", year, week),
		thisMonth:   month.Format("2006-01"),
	}
	sc.targets = []target{
		{"", sc.oldMonth, true}, {"", sc.closedMonth, true}, {"", sc.openMonth, false},
		{"daily.laps", sc.yesterday, true}, {"daily.laps", sc.today, false},
		{"weekly.pvp", sc.lastWeek, true}, {"weekly.pvp", sc.thisWeek, false},
		{"monthly.sprint", sc.thisMonth, true}, {"monthly.clan", sc.thisMonth, false},
		{"forever", "all", false},
		{"season.cup", "s1", true}, {"season.cup", "s2", false},
	}
	return sc
}

// about describes the recording for the answers file.
func (sc *scenario) about() string {
	return fmt.Sprintf("Answers of release f2c7c5e (schema version 16) to the reads below, over the database dumped in "+
		"release-f2c7c5e.sql, both written on %s by TestUpgrade_RecordReleaseF2c7c5e (upgrade_record_test.go) with that "+
		"release's own binary, LEADERBOARD_CLOSE_GRACE=1080h, LEADERBOARD_TIMEZONE=UTC, LEADERBOARD_AUTO_CLOSE=false and the "+
		"suite's tokens and JWT secret. role: empty (public), admin, server (the game-server token) or player:ID. pending: "+
		"the outbox's undelivered messages, oldest first, as the release wrote them; webhookSecret signed them.",
		sc.now.Format("2006-01-02"))
}

// write makes the release write the fixture's database.
func (sc *scenario) write(rel *release) {
	t := rel.t
	rel.run("seed", "--month", sc.oldMonth, "--players", "24", "--seed", "2601")
	rel.run("seed", "--month", sc.closedMonth, "--players", "30", "--seed", "2602")
	rel.run("create-board", "daily.laps", "--name", "Daily lap times", "--reset", "DAY", "--order", "ASC",
		"--min-score", "0", "--max-score", "2000000000", "--tiebreak", "SUBSCORE_ASC", "--time-zone", "Europe/Berlin",
		"--close-grace", "48h", "--starts-at", sc.now.AddDate(0, -2, 0).Format(time.RFC3339),
		"--tier", "podium:5", "--tier", "top:25")
	rel.run("create-board", "weekly.pvp", "--name", "Weekly PvP ladder", "--reset", "WEEK", "--tiebreak", "SUBSCORE_DESC",
		"--close-grace", "168h", "--starts-at", sc.now.AddDate(0, -2, 0).Format(time.RFC3339),
		"--tier", "gold:1", "--tier", "silver:10", "--tier", "bronze:50")

	s := rel.serve(true)
	starts := sc.now.AddDate(0, -6, 0).Format(time.RFC3339)
	s.mustDo(t, adminToken, `mutation($s: Time!) { a: createBoard(id: "monthly.clan", name: "Clan month", reset: MONTH,
		closeGrace: 3600, startsAt: $s, tiers: [{name: "champion", topPercent: 10}]) { created }
		d: createBoard(id: "monthly.sprint", name: "Sprint month", reset: MONTH, order: ASC, closeGrace: 0, startsAt: $s) { created }
		b: createBoard(id: "forever", name: "All-time power", reset: NONE, minScore: 0, maxScore: 2000000000, startsAt: $s) { created }
		c: createBoard(id: "season.cup", name: "Season cup", reset: SEASON, order: ASC, minScore: 0, maxScore: 100000,
		tiebreak: SUBSCORE_DESC, closeGrace: 604800, startsAt: $s, retainPeriods: 5) { created } }`, map[string]any{"s": starts}, nil)
	// Seasons: a closed one, ended two days ago (still in its grace, as
	// seed needs), and the one open since.
	midnight := time.Date(sc.now.Year(), sc.now.Month(), sc.now.Day(), 0, 0, 0, 0, time.UTC)
	s1Start, s1End, s2End := midnight.AddDate(0, 0, -20), midnight.AddDate(0, 0, -2), midnight.AddDate(0, 6, 0)
	s.mustDo(t, adminToken, `mutation($a: Time!, $b: Time!, $c: Time!) {
		s1: createSeason(board: "season.cup", key: "s1", startsAt: $a, endsAt: $b) { key }
		s2: createSeason(board: "season.cup", key: "s2", startsAt: $b, endsAt: $c) { key } }`,
		map[string]any{"a": s1Start, "b": s1End, "c": s2End}, nil)

	// Closed periods: seeded (seed fills only a period that still takes
	// events), and one with a few events more; monthly.sprint's month is
	// closed before its end.
	rel.run("seed", "--board", "daily.laps", "--period", sc.yesterday, "--players", "20", "--seed", "3601")
	rel.run("seed", "--board", "weekly.pvp", "--period", sc.lastWeek, "--players", "25", "--seed", "3602")
	rel.run("seed", "--board", "monthly.sprint", "--period", sc.thisMonth, "--players", "15", "--seed", "3603")
	rel.run("seed", "--board", "season.cup", "--period", "s1", "--players", "18", "--seed", "3604")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	yesterday, _ := time.ParseInLocation("2006-01-02", sc.yesterday, berlin)
	sc.submit(t, s, "daily.laps", yesterday.Add(9*time.Hour), lapEvents("y", 8))

	// Open periods: events of every mode, ties, names in several scripts.
	openMonth, _ := time.Parse("2006-01", sc.openMonth)
	sc.submit(t, s, "main", openMonth.Add(36*time.Hour), mainEvents())
	today, _ := time.ParseInLocation("2006-01-02", sc.today, berlin)
	sc.submit(t, s, "daily.laps", today.Add(time.Hour), lapEvents("t", 14))
	week := isoWeekStart(sc.now)
	sc.submit(t, s, "weekly.pvp", week.Add(time.Hour), pvpEvents("a", 6))
	s.mustDo(t, adminToken, `mutation($p: String!) { clearPeriod(board: "weekly.pvp", period: $p, reason: "test phase") { key } }`,
		map[string]any{"p": sc.thisWeek}, nil)
	sc.submit(t, s, "weekly.pvp", week.Add(2*time.Hour), pvpEvents("b", 16))
	thisMonth, _ := time.Parse("2006-01", sc.thisMonth)
	sc.submit(t, s, "monthly.clan", thisMonth.Add(2*time.Hour), pvpEvents("c", 12))
	sc.submit(t, s, "forever", s1Start.Add(time.Hour), wideEvents())
	sc.submit(t, s, "season.cup", s1End.Add(time.Hour), lapEvents("s", 12))

	// Closes: by the commands and by the mutations.
	rel.run("close-month", sc.oldMonth)
	rel.runWebhooked("close-month", sc.closedMonth)
	rel.runWebhooked("close-period", "daily.laps", sc.yesterday)
	for _, p := range []struct{ board, key string }{{"weekly.pvp", sc.lastWeek}, {"monthly.sprint", sc.thisMonth}, {"season.cup", "s1"}} {
		var closed struct {
			ClosePeriod struct{ Status string } `json:"closePeriod"`
		}
		s.mustDo(t, adminToken, `mutation($b: ID!, $p: String!) { closePeriod(board: $b, period: $p) { status } }`,
			map[string]any{"b": p.board, "p": p.key}, &closed)
		if closed.ClosePeriod.Status != "CLOSED" {
			t.Fatalf("closePeriod %s %s: %s", p.board, p.key, closed.ClosePeriod.Status)
		}
	}

	// Claims before the corrections, so that a correction moves a claimed standing.
	for _, c := range sc.claims() {
		s.mustDo(t, serverToken, claimQuery, c, nil)
	}
	correct := `mutation($b: ID!, $p: String, $m: Month, $id: ID!, $s: Int, $r: String!) {
		correctScore(board: $b, period: $p, month: $m, playerId: $id, score: $s, reason: $r) { id } }`
	for _, c := range []map[string]any{
		{"b": "main", "m": sc.closedMonth, "id": "player-00000003", "s": 9999, "r": "restored after a lost connection"},
		{"b": "main", "m": sc.closedMonth, "id": "player-00000007", "s": nil, "r": "cheating"},
		{"b": "main", "m": sc.openMonth, "id": "bob", "s": 650, "r": "double-counted match"},
		{"b": "daily.laps", "p": sc.yesterday, "id": "player-00000002", "s": 5, "r": "timing fault"},
		{"b": "daily.laps", "p": sc.yesterday, "id": "y03", "s": nil, "r": "shortcut"},
		{"b": "weekly.pvp", "p": sc.lastWeek, "id": "player-00000005", "s": 10000, "r": "server crash"},
		{"b": "season.cup", "p": "s1", "id": "player-00000004", "s": nil, "r": "banned"},
	} {
		s.mustDo(t, adminToken, correct, c, nil)
	}
	waitForFailedAttempts(t)
}

// claimQuery claims a reward with the game-server token.
const claimQuery = `mutation($b: ID!, $p: String!, $id: ID!, $c: ID!) { claimReward(board: $b, period: $p, playerId: $id, claimId: $c) {
	status claimedAt claimId standing { ` + recordedStandingFields + ` } } }`

// claims are the rewards claimed, each once before the corrections and
// again (a retry, then another grant id) among the reads.
func (sc *scenario) claims() []map[string]any {
	return []map[string]any{
		{"b": "weekly.pvp", "p": sc.lastWeek, "id": "player-00000001", "c": "grant-1"},
		{"b": "weekly.pvp", "p": sc.lastWeek, "id": "player-00000005", "c": "grant-2"},
		{"b": "daily.laps", "p": sc.yesterday, "id": "y01", "c": "grant-3"},
		{"b": "monthly.sprint", "p": sc.thisMonth, "id": "player-00000009", "c": "grant-4"},
		{"b": "season.cup", "p": "s1", "id": "player-00000004", "c": "grant-5"},
	}
}

// waitForFailedAttempts waits until the oldest message of every period has
// failed at least once (a period's later ones wait for it), so that the
// fixture holds messages with attempts and an error stored.
func waitForFailedAttempts(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var untried int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM outbox o WHERE o.attempts = 0
			AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.created_at < o.created_at AND e.delivered_at IS NULL
				AND (e.month = o.month OR (e.board_id = o.board_id AND e.period_id = o.period_id)))`).Scan(&untried); err != nil {
			t.Fatal(err)
		}
		if untried == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages were not tried in 30 s", untried)
		}
	}
}

// isoWeekStart returns the Monday 00:00 UTC of t's ISO week.
func isoWeekStart(t time.Time) time.Time {
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}

// recordEvent is a ScoreEvent of any board.
type recordEvent struct {
	id, player, name, mode string
	value                  int
	subscore               *int
	metadata               map[string]any
	tick                   int // seconds after the batch's start
}

// submit sends events to board, each at start plus its tick, and fails on
// a rejection.
func (sc *scenario) submit(t *testing.T, s *server, board string, start time.Time, events []recordEvent) {
	t.Helper()
	var wire []map[string]any
	for _, e := range events {
		at := start.Add(time.Duration(e.tick) * time.Second)
		if at.After(sc.now) {
			t.Fatalf("event %s at %s lies after now: record later in the day", e.id, at)
		}
		w := map[string]any{"eventId": board + "/" + e.id, "playerId": e.player, "mode": e.mode, "value": e.value,
			"occurredAt": at, "board": board}
		if e.name != "" {
			w["playerName"] = e.name
		}
		if e.subscore != nil {
			w["subscore"] = *e.subscore
		}
		if e.metadata != nil {
			w["metadata"] = e.metadata
		}
		wire = append(wire, w)
	}
	var out struct {
		SubmitScores []scoreResult `json:"submitScores"`
	}
	s.mustDo(t, serverToken, `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { eventId status error } }`,
		map[string]any{"e": wire}, &out)
	for _, r := range out.SubmitScores {
		if r.Status == "REJECTED" {
			t.Fatalf("event %s rejected: %v", r.EventID, *r.Error)
		}
	}
}

// names are display names in several scripts.
var names = []string{"Alice", "Bob", "Carol", "Dave", "Émile", "Fatima", "Grzegorz Ż", "Hiroshi 広", "Ines", "Jonas",
	"Kateryna Ш", "Li Wei 李伟", "Mateo", "Nour نور", "Olivia", "Pál"}

// mainEvents are main's open month: ADD, SET, BEST, an unchanged BEST,
// ties on the score and on the instant.
func mainEvents() []recordEvent {
	ids := []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj"}
	var out []recordEvent
	for i, id := range ids {
		out = append(out, recordEvent{id: id + "-1", player: id, name: names[i], mode: "SET", value: []int{900, 300, 900, 10000, 0, 450, 450, 7, 900, 1200, 5, 450}[i], tick: i / 2})
	}
	return append(out,
		recordEvent{id: "bob-2", player: "bob", mode: "ADD", value: 400, tick: 20},
		recordEvent{id: "carol-2", player: "carol", mode: "BEST", value: 800, tick: 21},
		recordEvent{id: "dave-2", player: "dave", mode: "ADD", value: -9000, tick: 22},
		recordEvent{id: "erin-2", player: "erin", name: "Erin (renamed)", mode: "BEST", value: 450, tick: 23},
		recordEvent{id: "alice-2", player: "alice", name: "Alice A.", mode: "SET", value: 900, tick: 24})
}

// lapEvents are n lap times of an ASC board with subscores: ties on the
// time broken by the subscore both ways, one tie on both, the range's ends.
func lapEvents(prefix string, n int) []recordEvent {
	var out []recordEvent
	for i := range n {
		sub := (i * 37) % 5
		value := 61000 + (i%4)*250
		switch i {
		case 0:
			value = 0
		case n - 1:
			value = 100000
		}
		out = append(out, recordEvent{id: fmt.Sprintf("%s%02d-1", prefix, i+1), player: fmt.Sprintf("%s%02d", prefix, i+1),
			name: names[i%len(names)], mode: "BEST", value: value, subscore: &sub,
			metadata: map[string]any{"car": []string{"red", "blue", "green"}[i%3], "lap": i}, tick: i})
	}
	improved := 1
	return append(out, recordEvent{id: prefix + "02-2", player: prefix + "02", mode: "BEST", value: 60000, subscore: &improved, tick: 60},
		recordEvent{id: prefix + "03-2", player: prefix + "03", mode: "BEST", value: 99999, tick: 61})
}

// pvpEvents are n players of a DESC board: ADD and SET, subscores.
func pvpEvents(prefix string, n int) []recordEvent {
	var out []recordEvent
	for i := range n {
		sub := 10 - i%3
		out = append(out, recordEvent{id: fmt.Sprintf("%s%02d-1", prefix, i+1), player: fmt.Sprintf("%s%02d", prefix, i+1),
			name: names[(i+3)%len(names)], mode: "ADD", value: 100 * (i % 5), subscore: &sub, tick: i})
	}
	return append(out, recordEvent{id: prefix + "01-2", player: prefix + "01", mode: "ADD", value: 250, tick: 30},
		recordEvent{id: prefix + "04-2", player: prefix + "04", mode: "SET", value: 10000, tick: 31})
}

// wideEvents use the whole of 0..2,000,000,000 on a board without a tie-break.
func wideEvents() []recordEvent {
	values := []int{2000000000, 0, 1999999999, 1, 1000000000, 2000000000, 123456789, 0, 1000000000, 987654321, 42, 1500000000}
	var out []recordEvent
	for i, v := range values {
		out = append(out, recordEvent{id: fmt.Sprintf("w%02d-1", i+1), player: fmt.Sprintf("w%02d", i+1),
			name: names[(i+7)%len(names)], mode: "BEST", value: v, tick: i % 6})
	}
	return append(out, recordEvent{id: "w02-2", player: "w02", mode: "ADD", value: 2000000000, tick: 40})
}

// Fields of the recorded reads.
const (
	recordedEntryFields     = `rank score reachedAt subscore metadata player { id name }`
	recordedStandingFields  = `board period month rank score reachedAt subscore metadata percentile tier claimedAt player { id name } total final`
	recordedPeriodFields    = `board key status startsAt endsAt closesAt closedAt participants digest settlement { status attempts deliveredAt lastError }`
	recordedBoardListFields = `id name reset order minScore maxScore tiebreak timeZone closeGrace startsAt endsAt retainPeriods
		tiers { name topPercent } status createdAt`
	recordedBoardFields = recordedBoardListFields + ` periods(first: 20) { ` + recordedPeriodFields + ` }`
)

// recorder records the release's answers to reads.
type recorder struct {
	t  *testing.T
	s  *server
	fx *releaseFixture
}

// read runs one read as role and records its answer; it fails on an error.
func (r *recorder) read(name, role, query string, vars map[string]any) json.RawMessage {
	r.t.Helper()
	if vars == nil {
		vars = map[string]any{}
	}
	got := r.s.do(r.t, roleToken(r.t, role), query, vars)
	if len(got.Errors) > 0 || got.Status != http.StatusOK {
		r.t.Fatalf("%s: status %d: %s", name, got.Status, got.Body)
	}
	r.fx.Reads = append(r.fx.Reads, recordedRead{Name: name, Role: role, Query: query, Variables: vars, Data: got.Data})
	return got.Data
}

// recordReads records the release's answers to every read of the fixture.
func (sc *scenario) recordReads(t *testing.T, s *server, fx *releaseFixture) {
	r := &recorder{t: t, s: s, fx: fx}
	r.read("months", "", `query($n: Int) { months(first: $n) { `+monthFields+` } }`, map[string]any{"n": 12})
	r.read("months as admin", "admin", `query($n: Int) { months(first: $n) { `+monthFields+` } }`, map[string]any{"n": 12})
	r.read("boards", "", `{ boards(first: 10) { `+recordedBoardListFields+` periods(first: 3) { key status participants } } }`, nil)
	r.read("boards paged", "", `{ boards(first: 2, after: "daily.laps") { id } }`, nil)
	r.read("forever's current", "", `{ board(id: "forever") { current { `+recordedPeriodFields+` } } }`, nil)
	for _, id := range []string{"main", "daily.laps", "weekly.pvp", "monthly.clan", "monthly.sprint", "forever", "season.cup"} {
		r.read("board "+id+" as admin", "admin", `query($id: ID!) { board(id: $id) { `+recordedBoardFields+` } }`, map[string]any{"id": id})
	}
	for _, tg := range sc.targets {
		sc.recordTarget(r, tg)
	}
	for _, c := range sc.claims() {
		r.read(fmt.Sprintf("claim retried %s %s %s", c["b"], c["p"], c["id"]), "server", claimQuery, c)
		other := map[string]any{"b": c["b"], "p": c["p"], "id": c["id"], "c": "another-grant"}
		r.read(fmt.Sprintf("claim with another id %s %s %s", c["b"], c["p"], c["id"]), "server", claimQuery, other)
	}
	for _, c := range []map[string]any{
		{"b": "weekly.pvp", "p": sc.thisWeek, "id": "b01", "c": "early"},
		{"b": "weekly.pvp", "p": sc.lastWeek, "id": "nobody", "c": "none"},
		{"b": "weekly.pvp", "p": "2020-W01", "id": "b01", "c": "gone"},
	} {
		r.read(fmt.Sprintf("claim %s %s %s", c["b"], c["p"], c["id"]), "server", claimQuery, c)
	}
	for _, id := range []string{"player-00000001", "player-00000005", "player-00000002", "y01", "player-00000004"} {
		r.read("unclaimed rewards of "+id, "server", `query($id: ID!) { unclaimedRewards(playerId: $id) { `+recordedStandingFields+` } }`,
			map[string]any{"id": id})
	}
}

// recordTarget records the reads of one period: its info, corrections,
// every page of 7 walked with the release's cursors, standings of the
// first, a middle and the last player with their neighbours, and myRank.
func (sc *scenario) recordTarget(r *recorder, tg target) {
	board, label := tg.board, tg.key
	if board == "" {
		board = "main"
		r.read("month "+tg.key, "", `query($m: Month!) { month(month: $m) { `+monthFields+` } }`, map[string]any{"m": tg.key})
		r.read("corrections of "+tg.key, "admin", `query($m: Month!) { corrections(month: $m) { id month playerId before after reason at } }`,
			map[string]any{"m": tg.key})
		sc.walk(r, "leaderboard "+label, `query($m: Month!, $after: String) { leaderboard(month: $m, first: 7, after: $after) {
			edges { cursor node { `+rankEntryFields+` } } pageInfo { hasNextPage endCursor } total } }`, map[string]any{"m": tg.key})
	} else {
		label = board + " " + tg.key
	}
	vars := func(more map[string]any) map[string]any {
		v := map[string]any{"b": board, "p": tg.key}
		for k, x := range more {
			v[k] = x
		}
		return v
	}
	r.read("period "+label, "", `query($b: ID!, $p: String!) { period(board: $b, key: $p) { `+recordedPeriodFields+` } }`, vars(nil))
	r.read("corrections of "+label, "admin", `query($b: ID!, $p: String) { corrections(board: $b, period: $p) {
		id board period month playerId before after cleared reason at } }`, vars(nil))
	ids := sc.walk(r, "board leaderboard "+label, `query($b: ID!, $p: String, $after: String) { leaderboard(board: $b, period: $p, first: 7, after: $after) {
		edges { cursor node { `+recordedEntryFields+` } } pageInfo { hasNextPage endCursor } total } }`, vars(nil))
	if len(ids) == 0 {
		r.t.Fatalf("%s has no standings", label)
	}
	for _, id := range []string{ids[0], ids[len(ids)/2], ids[len(ids)-1]} {
		r.read("standing "+label+" "+id, "", `query($b: ID!, $p: String, $id: ID!) { standing(board: $b, period: $p, playerId: $id) {
			`+recordedStandingFields+` neighbours { `+recordedEntryFields+` } } }`, vars(map[string]any{"id": id}))
	}
	mid := ids[len(ids)/2]
	r.read("narrow standing "+label+" "+mid, "", `query($b: ID!, $p: String, $id: ID!) { standing(board: $b, period: $p, playerId: $id) {
		rank total neighbours(above: 2, below: 3) { `+recordedEntryFields+` } none: neighbours(above: 0, below: 0) { rank } } }`,
		vars(map[string]any{"id": mid}))
	r.read("myRank "+label+" "+ids[1], "player:"+ids[1], `query($b: ID!, $p: String) { myRank(board: $b, period: $p) {
		`+recordedStandingFields+` neighbours(above: 3, below: 3) { `+recordedEntryFields+` } } }`, vars(nil))
	if tg.board == "" {
		r.read("month standing "+label+" "+mid, "", `query($m: Month!, $id: ID!) { standing(month: $m, playerId: $id) {
			`+standingFields+` neighbours { `+rankEntryFields+` } } }`, map[string]any{"m": tg.key, "id": mid})
	}
}

// walk records the pages of a leaderboard from the top, each asked with the
// previous page's endCursor, and returns the players in rank order.
func (sc *scenario) walk(r *recorder, name, query string, vars map[string]any) []string {
	var ids []string
	var after any
	for page := 1; ; page++ {
		v := map[string]any{"after": after}
		for k, x := range vars {
			v[k] = x
		}
		data := r.read(fmt.Sprintf("%s page %d", name, page), "", query, v)
		var got struct {
			Leaderboard leaderboardPage `json:"leaderboard"`
		}
		if err := json.Unmarshal(data, &got); err != nil {
			r.t.Fatal(err)
		}
		for _, e := range got.Leaderboard.Edges {
			ids = append(ids, e.Node.Player.ID)
		}
		if !got.Leaderboard.PageInfo.HasNextPage {
			return ids
		}
		after = *got.Leaderboard.PageInfo.EndCursor
	}
}

// recordExports records the CSV export of every period, open ones too.
func (sc *scenario) recordExports(t *testing.T, s *server, fx *releaseFixture) {
	for _, tg := range sc.targets {
		path := "/admin/months/" + tg.key + "/standings.csv"
		if tg.board != "" {
			path = "/admin/boards/" + tg.board + "/periods/" + tg.key + "/standings.csv"
		}
		status, contentType, body := exportCSV(t, s, path)
		fx.Exports = append(fx.Exports, recordedExport{Path: path, Status: status, ContentType: contentType, Body: body})
	}
}

// pendingMessages reads the outbox's undelivered messages, oldest first.
func pendingMessages(t *testing.T) []pendingMessage {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT o.id, o.type, COALESCE(to_char(o.month, 'YYYY-MM'), ''), COALESCE(o.board_id, ''),
		COALESCE(p.key, ''), o.body FROM outbox o LEFT JOIN periods p ON p.board_id = o.board_id AND p.id = o.period_id
		WHERE o.delivered_at IS NULL ORDER BY o.created_at, o.id`)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out []pendingMessage
		m   pendingMessage
	)
	if _, err := pgx.ForEachRow(rows, []any{&m.ID, &m.Type, &m.Month, &m.Board, &m.Period, &m.Body}, func() error {
		out = append(out, m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeAnswers writes fx as the answers file at path: one read, export or
// message a line, so that a change shows as a change of its own line.
func writeAnswers(t *testing.T, path string, fx *releaseFixture, about string) {
	t.Helper()
	var b bytes.Buffer
	line := func(v any) []byte {
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	}
	fmt.Fprintf(&b, "{\"release\":%s,\n\"about\":%s,\n\"webhookSecret\":%s,\n", line(fx.Release), line(about), line(fx.WebhookSecret))
	list := func(key string, n int, item func(int) any, last bool) {
		items := make([]string, n)
		for i := range n {
			items[i] = string(line(item(i)))
		}
		fmt.Fprintf(&b, "%q:[\n%s\n]", key, strings.Join(items, ",\n"))
		if !last {
			b.WriteString(",\n")
		}
	}
	list("reads", len(fx.Reads), func(i int) any { return fx.Reads[i] }, false)
	list("exports", len(fx.Exports), func(i int) any { return fx.Exports[i] }, false)
	list("pending", len(fx.Pending), func(i int) any { return fx.Pending[i] }, true)
	b.WriteString("}\n")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
