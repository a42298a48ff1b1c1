package e2e_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/settlement"
)

// The 00fb19d fixture of TestUpgrade_ReleaseDatabaseKeepsItsAnswersAndMessages
// was made once, by hand, with the release's own binary (commit 00fb19d, schema
// version 6, migrations 1..6) against a throwaway PostgreSQL 15:
//
//   - `leaderboard seed --month 2026-09 --players 30 --seed 2609`, then
//     `serve` with LEADERBOARD_CLOSE_GRACE=1080h (this suite's 45 days),
//     LEADERBOARD_AUTO_CLOSE=false, this suite's tokens and JWT secret, and a
//     webhook on a closed port (so that every message stayed pending);
//   - submitScores of 19 players in 2026-10 (ADD, SET, BEST, a negative ADD,
//     an UNCHANGED BEST, ties on score and on the instant, names in several
//     scripts) and of 7 players in 2026-11, the release's current month;
//   - closeMonth 2026-09 and 2026-10, then two correctScore on 2026-10 (ivan
//     removed, dave changed to 777): 2026-10's final ranks were rebuilt
//     (partition final_ranks_2026_10_v3) with a new digest, and four messages
//     were pending: month.closed of both months (5 failed attempts each) and
//     two month.corrected;
//   - the release was started again without a webhook (settlement off, so
//     nothing changed) and its answers to every read in
//     testdata/release-00fb19d-answers.json recorded: months and month as
//     anyone and as admin, standings with default, 2/3 and 0/0 neighbours,
//     myRank, whole leaderboards and pages of 7 walked with its own cursors,
//     corrections, and the CSV exports of the closed months; the outbox's
//     pending rows were recorded beside them;
//   - `pg_dump --no-owner --no-privileges --inserts` wrote
//     testdata/release-00fb19d.sql.
//
// Time: nothing in the fixture's answers depends on when the test runs.
// 2026-09 and 2026-10 are CLOSED; 2026-11, open in the release, stays OPEN
// here however late the test runs, because the suite's instances never close
// a month unasked (AutoClose off) until the test closes it. closesAt is endsAt plus
// the grace, the same 45 days in the release and here; closedAt, reachedAt and a correction's at are stored
// instants; an open month's participants and ranks are counted from stored
// rows; months lists the months that have a row, and nothing here opens one
// before the answers are compared (the board event below goes to a board
// that never resets). The player tokens are signed when the test runs.
//
// The f2c7c5e fixture (schema version 16) is written by
// TestUpgrade_RecordReleaseF2c7c5e in upgrade_record_test.go, which says how
// to run it again and what it writes: main's months, boards of every reset,
// order, tie-break and a range of 0..2,000,000,000, claims, corrections and
// pending messages. Its periods lie around the day it was recorded, and its
// answers depend on that day only: the open periods stay OPEN however late
// the test runs, because AutoClose off also keeps the closer of boards'
// periods from closing a period that is due, and a period's status depends
// on the time only before it starts.

// releaseFixture is the answers file of a release: its answers to reads,
// its exports and the messages it left pending.
type releaseFixture struct {
	Release       string           `json:"release"`
	WebhookSecret string           `json:"webhookSecret"`
	Reads         []recordedRead   `json:"reads"`
	Exports       []recordedExport `json:"exports"`
	Pending       []pendingMessage `json:"pending"`
}

// recordedRead is one GraphQL read and the release's answer.
type recordedRead struct {
	Name      string          `json:"name"`
	Role      string          `json:"role"` // "", "admin", "server" or "player:ID"
	Query     string          `json:"query"`
	Variables map[string]any  `json:"variables"`
	Data      json.RawMessage `json:"data"`
}

// recordedExport is one CSV export and the release's answer: at Path, or
// when it is empty (00fb19d's file) at the export of Month.
type recordedExport struct {
	Month       string `json:"month,omitempty"`
	Path        string `json:"path,omitempty"`
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
}

// path returns the export's URL path.
func (e recordedExport) path() string {
	if e.Path != "" {
		return e.Path
	}
	return "/admin/months/" + e.Month + "/standings.csv"
}

// pendingMessage is an outbox row the release left undelivered: of a month
// of main, or of a board's period.
type pendingMessage struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Month  string `json:"month,omitempty"`
	Board  string `json:"board,omitempty"`
	Period string `json:"period,omitempty"`
	Body   string `json:"body"`
}

// upgrades are the releases whose databases the current program upgrades:
// each with its dump and answers in testdata, the schema version it wrote,
// and what is checked on the upgraded database once every recorded answer
// and pending message is found the same.
var upgrades = []struct {
	release string
	schema  int
	then    func(t *testing.T, u *upgraded)
}{
	{"00fb19d", 6, continueRelease00fb19d},
	{"f2c7c5e", 16, continueReleaseF2c7c5e},
}

// upgraded is a release's database after the upgrade, its pending messages
// delivered: s sends to receiver.
type upgraded struct {
	fx       *releaseFixture
	s        *server
	receiver *webhookReceiver
}

// A database written by an older release migrates in place when the
// program starts on it: every read answers as the release answered (with its
// cursors still valid), the exports are the same bytes, the messages it left
// pending are delivered with their ids, types and exact bodies, and what came
// since works on it.
func TestUpgrade_ReleaseDatabaseKeepsItsAnswersAndMessages(t *testing.T) {
	for _, u := range upgrades {
		t.Run(u.release, func(t *testing.T) {
			fx := readReleaseFixture(t, u.release)
			pg.Reset(t)
			newest := schemaVersion(t)
			loadReleaseDump(t, "testdata/release-"+u.release+".sql")
			if v := schemaVersion(t); v != u.schema {
				t.Fatalf("the release's database is at schema version %d, want %d", v, u.schema)
			}
			// Settlement off: this instance leaves the outbox as the release
			// left it, so that every settlement answers as it did. It stops
			// before the next starts, so that it runs none of the closes
			// asked of that one.
			t.Run("answers", func(t *testing.T) {
				reader, _ := startInstance(t)
				if v := schemaVersion(t); v != newest {
					t.Fatalf("after the start the schema is at version %d, want the newest, %d", v, newest)
				}
				compareReads(t, reader, fx)
				compareExports(t, reader, fx)
			})
			s, receiver := deliverPending(t, fx)
			u.then(t, &upgraded{fx: fx, s: s, receiver: receiver})
		})
	}
}

// compareReads asks every recorded read and compares the answer with the
// release's.
func compareReads(t *testing.T, s *server, fx *releaseFixture) {
	t.Helper()
	for _, read := range fx.Reads {
		got := s.do(t, roleToken(t, read.Role), read.Query, read.Variables)
		if len(got.Errors) > 0 || got.Status != http.StatusOK {
			t.Errorf("%s: status %d: %s", read.Name, got.Status, got.Body)
			continue
		}
		want, have := normalJSON(t, read.Data, read.Role), normalJSON(t, got.Data, read.Role)
		if !reflect.DeepEqual(want, have) {
			t.Errorf("%s: the upgraded database answers\n%s\nthe release answered\n%s", read.Name, got.Data, read.Data)
		}
	}
}

// compareExports fetches every recorded export and compares it byte for
// byte with the release's.
func compareExports(t *testing.T, s *server, fx *releaseFixture) {
	t.Helper()
	for _, export := range fx.Exports {
		status, contentType, body := exportCSV(t, s, export.path())
		if status != export.Status || contentType != export.ContentType || body != export.Body {
			t.Errorf("export %s: %d %s\n%s\nthe release's: %d %s\n%s", export.path(), status, contentType, body,
				export.Status, export.ContentType, export.Body)
		}
	}
}

// deliverPending starts an instance with a receiver up and checks that the
// messages the release left pending go out: each once, oldest first within
// its period, as the release wrote them. It returns the instance and the
// receiver.
func deliverPending(t *testing.T, fx *releaseFixture) (*server, *webhookReceiver) {
	t.Helper()
	receiver := newWebhookReceiver(t, 0)
	s, _ := startInstance(t, func(c *app.Config) {
		c.WebhookURL = receiver.URL
		c.WebhookSecret = fx.WebhookSecret
		c.WebhookBackoff = 20 * time.Millisecond
	})
	got := waitForDeliveries(t, receiver, len(fx.Pending))
	for _, p := range fx.Pending {
		i := slices.IndexFunc(got, func(d delivery) bool { return d.id == p.ID })
		if i < 0 {
			t.Errorf("pending %s %s of %s was not delivered", p.Type, p.ID, p.group())
			continue
		}
		d := got[i]
		if d.eventType != p.Type || string(d.body) != p.Body || !settlement.Verify([]byte(fx.WebhookSecret), d.body, d.signature) {
			t.Errorf("delivery %s: type %q, signature %q, body\n%s\nthe release's %s:\n%s", d.id, d.eventType, d.signature, d.body, p.Type, p.Body)
		}
	}
	if want := pendingOrder(fx); !slices.Equal(deliveryOrder(got), want) {
		t.Errorf("deliveries %v, want %v (each once, oldest first within its period)", deliveryOrder(got), want)
	}
	return s, receiver
}

// continueRelease00fb19d checks what came since 00fb19d on its upgraded
// database: closing the month it left open, a correction of a month it
// closed, a board of its own and the main board's view of the old months.
func continueRelease00fb19d(t *testing.T, u *upgraded) {
	t.Helper()
	fx, s, receiver := u.fx, u.s, u.receiver
	for _, m := range []string{"2026-09", "2026-10"} {
		if info := s.month(t, m); info == nil || info.Settlement == nil || info.Settlement.Status != "DELIVERED" {
			t.Errorf("month %s after delivery: %+v", m, info)
		}
	}

	// The month the release left open closes here, with the ranks it had.
	open := s.leaderboard(t, "2026-11", 100, nil)
	wantDigest := oracleDigest(t, "2026-11")
	closedMonth := s.closeMonth(t, "2026-11")
	if closedMonth.Status != "CLOSED" || closedMonth.Participants != 7 || closedMonth.Digest == nil || *closedMonth.Digest != wantDigest {
		t.Fatalf("closeMonth 2026-11 on the upgraded database: %+v, want the digest %s", closedMonth, wantDigest)
	}
	final := s.leaderboard(t, "2026-11", 100, nil)
	if final.Total != open.Total || len(final.Edges) != len(open.Edges) {
		t.Fatalf("2026-11 closed has %d of %d rows, open it had %d of %d", len(final.Edges), final.Total, len(open.Edges), open.Total)
	}
	for i := range open.Edges {
		if o, f := open.Edges[i].Node, final.Edges[i].Node; o.Rank != f.Rank || o.Score != f.Score ||
			!o.ReachedAt.Equal(f.ReachedAt) || o.Player.ID != f.Player.ID {
			t.Errorf("2026-11's rank %d: open %+v, final %+v", i+1, o, f)
		}
	}
	if st := s.standing(t, "2026-11", "alice"); st == nil || !st.Final {
		t.Errorf("alice's standing in the closed 2026-11: %+v", st)
	}

	// A correction of a month the release closed continues its audit trail.
	var correction struct {
		CorrectScore struct {
			ID     string `json:"id"`
			Before *int   `json:"before"`
			After  *int   `json:"after"`
		} `json:"correctScore"`
	}
	before := s.month(t, "2026-10")
	s.mustDo(t, adminToken, `mutation { correctScore(month: "2026-10", playerId: "bob", score: 100, reason: "after the upgrade") {
		id before after } }`, nil, &correction)
	if c := correction.CorrectScore; c.ID != "3" || c.Before == nil || *c.Before != 650 || c.After == nil || *c.After != 100 {
		t.Errorf("the first correction after the upgrade: %+v, want id 3 from 650 to 100", c)
	}
	after := s.month(t, "2026-10")
	if after.Digest == nil || before.Digest == nil || *after.Digest == *before.Digest || after.Participants != 18 ||
		*after.Digest != pageDigest(s.leaderboard(t, "2026-10", 100, nil)) {
		t.Fatalf("2026-10 corrected after the upgrade: %+v, before %+v", after, before)
	}
	if st := s.standing(t, "2026-10", "bob"); st == nil || st.Score != 100 || !st.Final {
		t.Errorf("bob's corrected standing: %+v", st)
	}
	got := waitForDeliveries(t, receiver, len(fx.Pending)+2)
	if types := deliveryTypes(got[len(fx.Pending):]); !slices.Equal(types, []string{"month.closed main/2026-11", "month.corrected main/2026-10"}) &&
		!slices.Equal(types, []string{"month.corrected main/2026-10", "month.closed main/2026-11"}) {
		t.Errorf("deliveries after the upgrade: %v", types)
	}

	// A board of its own, and main as a board, on the upgraded database.
	var created creation
	s.mustDo(t, adminToken, `mutation { createBoard(id: "power", name: "Power ranking", reset: NONE) { created board { `+
		boardFields+` } } }`, nil, &created)
	if !created.CreateBoard.Created || created.CreateBoard.Board.Reset != "NONE" {
		t.Fatalf("createBoard on the upgraded database: %+v", created.CreateBoard)
	}
	results := s.submitRaw(t, map[string]any{"eventId": "power-1", "playerId": "alice", "mode": "SET", "value": 42, "board": "power"})
	if r := results[0]; r.Status != "APPLIED" || r.Board != "power" || r.Period == nil || *r.Period != "all" || r.Rank == nil || *r.Rank != 1 {
		t.Errorf("an event for the new board: %+v", r)
	}
	var board struct {
		Board  boardInfo `json:"board"`
		Period *struct {
			Digest     *string `json:"digest"`
			Status     string  `json:"status"`
			Settlement *struct {
				Status string `json:"status"`
			} `json:"settlement"`
		} `json:"period"`
	}
	s.mustDo(t, "", `{ board(id: "main") { `+boardFields+` } period(board: "main", key: "2026-10") {
		status digest settlement { status } } }`, nil, &board)
	main := board.Board
	if main.Reset != "MONTH" || main.Order != "DESC" || main.Status != "RUNNING" {
		t.Errorf("the main board on the upgraded database: %+v", main)
	}
	wantPeriods := map[string]int{"2026-11": 7, "2026-10": 18, "2026-09": 30}
	var keys []string
	for _, p := range main.Periods {
		if n, ok := wantPeriods[p.Key]; ok {
			keys = append(keys, p.Key)
			if p.Status != "CLOSED" || p.Participants != n {
				t.Errorf("main's period %s: %+v, want CLOSED with %d participants", p.Key, p, n)
			}
		}
	}
	if !slices.Equal(keys, []string{"2026-11", "2026-10", "2026-09"}) {
		t.Errorf("main's periods %+v, want the release's months newest first", main.Periods)
	}
	if p := board.Period; p == nil || p.Status != "CLOSED" || p.Digest == nil || *p.Digest != *after.Digest {
		t.Errorf("main's period 2026-10: %+v, want CLOSED with the month's digest %s", p, *after.Digest)
	}
}

// pageDigest is the digest of a closed month whose whole table is page: the
// SHA-256 of one line "rank,playerId,score\n" per rank.
func pageDigest(page leaderboardPage) string {
	h := sha256.New()
	for _, e := range page.Edges {
		fmt.Fprintf(h, "%d,%s,%d\n", e.Node.Rank, e.Node.Player.ID, e.Node.Score)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readReleaseFixture reads the recorded answers of release.
func readReleaseFixture(t *testing.T, release string) *releaseFixture {
	t.Helper()
	path := "testdata/release-" + release + "-answers.json"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fx releaseFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(fx.Reads) == 0 || len(fx.Pending) == 0 {
		t.Fatalf("%s holds %d reads and %d pending messages", path, len(fx.Reads), len(fx.Pending))
	}
	return &fx
}

// loadReleaseDump replaces the test database's schema with the dump at path,
// a plain pg_dump with --inserts, run through pgx as one simple-protocol
// batch. pg_dump 15.14 and later frame the dump in psql's \restrict and
// \unrestrict meta-commands, which only psql understands: lines that start
// with a backslash are left out (no line of data does, with --inserts).
func loadReleaseDump(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sql strings.Builder
	for line := range strings.Lines(string(raw)) {
		if !strings.HasPrefix(line, `\`) {
			sql.WriteString(line)
		}
	}
	emptyDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql.String()); err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
}

// emptyDatabase drops everything in the test database's schema.
func emptyDatabase(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatalf("empty the test database: %v", err)
	}
}

// schemaVersion returns the database's migration version, failing the test
// when a migration was left half done.
func schemaVersion(t *testing.T) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var (
		version int
		dirty   bool
	)
	if err := conn.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations`).Scan(&version, &dirty); err != nil {
		t.Fatalf("read the schema version: %v", err)
	}
	if dirty {
		t.Fatalf("schema version %d is dirty", version)
	}
	return version
}

// roleToken returns the bearer token of a recorded read's role.
func roleToken(t *testing.T, role string) string {
	t.Helper()
	switch {
	case role == "":
		return ""
	case role == "admin":
		return adminToken
	case role == "server":
		return serverToken
	case strings.HasPrefix(role, "player:"):
		return playerToken(t, strings.TrimPrefix(role, "player:"))
	}
	t.Fatalf("unknown role %q in a release's answers", role)
	return ""
}

// normalJSON decodes an answer for comparison. The only changes it allows
// are deliberate ones made since a release:
//
//   - b54ec88: anyone but an admin is told only the kind of a failed
//     delivery where 00fb19d told everyone the whole error (an error the
//     release stored reads as the kind "delivery failed"), so outside the
//     admin role a lastError is compared for being there, not for its text.
//     Admins are told the whole error with every URL shown by its host (a
//     path may hold a receiver's token): their lastError is compared after
//     that redaction, the rest as it is;
//   - c16ad88: a standing's claimedAt is the game-server and admin roles' to
//     read, where f2c7c5e told everyone: for anyone else it is null.
func normalJSON(t *testing.T, raw json.RawMessage, role string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	mark := func(string) string { return "(a failure)" }
	if role == "admin" {
		mark = func(text string) string { return *leaderboard.Settlement{LastError: &text}.AdminDetail() }
	}
	seesClaims := role == "admin" || role == "server"
	normalFields(v, func(key string, field any) any {
		text, ok := field.(string)
		switch {
		case key == "lastError" && ok:
			return mark(text)
		case key == "claimedAt" && !seesClaims:
			return nil
		}
		return field
	})
	return v
}

// normalFields replaces every field of every object in v with what normal
// makes of its key and value, depth first.
func normalFields(v any, normal func(key string, field any) any) {
	switch v := v.(type) {
	case map[string]any:
		for k, field := range v {
			normalFields(field, normal)
			v[k] = normal(k, field)
		}
	case []any:
		for _, item := range v {
			normalFields(item, normal)
		}
	}
}

// exportCSV fetches an admin export and returns its status, content type and
// body.
func exportCSV(t *testing.T, s *server, path string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), string(body)
}

// waitForDeliveries waits up to 30 s until receiver got n requests, then a
// little longer for any it should not get, and returns them all.
func waitForDeliveries(t *testing.T, receiver *webhookReceiver, n int) []delivery {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); len(receiver.received()) < n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %v in 30 s, want %d messages", deliveryOrder(receiver.received()), n)
		}
	}
	time.Sleep(300 * time.Millisecond) // a redelivery comes 20 ms after a failure
	return receiver.received()
}

// pendingOrder is the order the fixture's messages must arrive in within a
// period: "board/period id" per message, periods in the order of their first
// message.
func pendingOrder(fx *releaseFixture) []string {
	out := make([]string, len(fx.Pending))
	for i, p := range fx.Pending {
		out[i] = messageGroup([]byte(p.Body)) + " " + p.ID
	}
	return byPeriod(out)
}

// deliveryOrder is deliveries as "board/period id", grouped as pendingOrder
// groups.
func deliveryOrder(deliveries []delivery) []string {
	out := make([]string, len(deliveries))
	for i, d := range deliveries {
		out[i] = messageGroup(d.body) + " " + d.id
	}
	return byPeriod(out)
}

// messageGroup is the period a message's body announces, "board/period":
// main's months, whose bodies may name only the month, as "main/YYYY-MM".
func messageGroup(body []byte) string {
	var b struct {
		Board  string `json:"board"`
		Period string `json:"period"`
		Month  string `json:"month"`
	}
	json.Unmarshal(body, &b)
	if b.Board == "" {
		b.Board = "main"
	}
	if b.Period == "" {
		b.Period = b.Month
	}
	return b.Board + "/" + b.Period
}

// group is the period of a pending message, as messageGroup names it.
func (p pendingMessage) group() string {
	return messageGroup([]byte(p.Body))
}

// byPeriod orders "group id" items by group, keeping their order within
// one: messages of different periods may go out in any order.
func byPeriod(items []string) []string {
	group := func(item string) string { g, _, _ := strings.Cut(item, " "); return g }
	slices.SortStableFunc(items, func(a, b string) int { return strings.Compare(group(a), group(b)) })
	return items
}

// deliveryTypes is deliveries as "type board/period", in the order they
// came.
func deliveryTypes(deliveries []delivery) []string {
	out := make([]string, len(deliveries))
	for i, d := range deliveries {
		out[i] = d.eventType + " " + messageGroup(d.body)
	}
	return out
}

// continueReleaseF2c7c5e checks what comes after f2c7c5e on its upgraded
// database (its periods follow the day it was recorded, so they are found by
// status): main's month and daily.laps' day that it left open close with the
// ranks they had open, the new final standing is claimed, and a period it
// closed is corrected; each sends its message.
func continueReleaseF2c7c5e(t *testing.T, u *upgraded) {
	t.Helper()
	s := u.s
	var openMonth string
	for _, m := range s.months(t, 12) {
		if m.Status == "OPEN" {
			openMonth = m.Month
		}
	}
	open := s.leaderboard(t, openMonth, 100, nil)
	closed := s.closeMonth(t, openMonth)
	if closed.Status != "CLOSED" || closed.Participants != open.Total || closed.Digest == nil || *closed.Digest != pageDigest(open) {
		t.Fatalf("closeMonth %s on the upgraded database: %+v, want the digest of its open ranks %s", openMonth, closed, pageDigest(open))
	}
	sameRanks(t, "main "+openMonth, open, s.leaderboard(t, openMonth, 100, nil))

	day, closedDay := periodOf(t, s, "daily.laps", "OPEN"), periodOf(t, s, "daily.laps", "CLOSED")
	openDay := boardPage(t, s, "daily.laps", day)
	var dayClosed struct {
		ClosePeriod struct {
			Status       string  `json:"status"`
			Participants int     `json:"participants"`
			Digest       *string `json:"digest"`
		} `json:"closePeriod"`
	}
	s.mustDo(t, adminToken, `mutation($p: String!) { closePeriod(board: "daily.laps", period: $p) { status participants digest } }`,
		map[string]any{"p": day}, &dayClosed)
	if c := dayClosed.ClosePeriod; c.Status != "CLOSED" || c.Participants != openDay.Total || c.Digest == nil || *c.Digest != pageDigest(openDay) {
		t.Fatalf("closePeriod daily.laps %s on the upgraded database: %+v, want the digest of its open ranks %s", day, c, pageDigest(openDay))
	}
	sameRanks(t, "daily.laps "+day, openDay, boardPage(t, s, "daily.laps", day))
	winner := openDay.Edges[0].Node
	if c := s.claim(t, "daily.laps", day, winner.Player.ID, "after-upgrade"); c.Status != "CLAIMED" || c.Standing == nil ||
		c.Standing.Rank != 1 || !c.Standing.Final || c.Standing.Tier == nil {
		t.Errorf("the claim of %s's winner: %+v", day, c)
	}

	before := boardPage(t, s, "daily.laps", closedDay)
	last := before.Edges[len(before.Edges)-1].Node
	var corrected struct {
		CorrectScore struct {
			Before *int `json:"before"`
			After  *int `json:"after"`
		} `json:"correctScore"`
	}
	s.mustDo(t, adminToken, `mutation($p: String!, $id: ID!) { correctScore(board: "daily.laps", period: $p, playerId: $id, score: 1,
		reason: "after the upgrade") { before after } }`, map[string]any{"p": closedDay, "id": last.Player.ID}, &corrected)
	if c := corrected.CorrectScore; c.Before == nil || *c.Before != last.Score || c.After == nil || *c.After != 1 {
		t.Errorf("the correction of %s's last, %+v: %+v", closedDay, last, c)
	}
	after := boardPage(t, s, "daily.laps", closedDay)
	var digest struct {
		Period struct {
			Digest *string `json:"digest"`
		} `json:"period"`
	}
	s.mustDo(t, "", `query($p: String!) { period(board: "daily.laps", key: $p) { digest } }`, map[string]any{"p": closedDay}, &digest)
	if after.Total != before.Total || pageDigest(after) == pageDigest(before) || digest.Period.Digest == nil || *digest.Period.Digest != pageDigest(after) {
		t.Errorf("daily.laps %s corrected after the upgrade: %d rows, digest %v, want %d rows and %s", closedDay, after.Total,
			digest.Period.Digest, before.Total, pageDigest(after))
	}

	got := waitForDeliveries(t, u.receiver, len(u.fx.Pending)+3)
	types := deliveryTypes(got[len(u.fx.Pending):])
	slices.Sort(types)
	if want := []string{"month.closed main/" + openMonth, "period.closed daily.laps/" + day, "period.corrected daily.laps/" + closedDay}; !slices.Equal(types, want) {
		t.Errorf("deliveries after the upgrade: %v, want %v", types, want)
	}
}

// sameRanks fails unless a period's final table is the one it had open.
func sameRanks(t *testing.T, name string, open, final leaderboardPage) {
	t.Helper()
	if final.Total != open.Total || len(final.Edges) != len(open.Edges) {
		t.Fatalf("%s closed has %d of %d rows, open it had %d of %d", name, len(final.Edges), final.Total, len(open.Edges), open.Total)
	}
	for i := range open.Edges {
		if o, f := open.Edges[i].Node, final.Edges[i].Node; o.Rank != f.Rank || o.Score != f.Score ||
			!o.ReachedAt.Equal(f.ReachedAt) || o.Player.ID != f.Player.ID {
			t.Errorf("%s's rank %d: open %+v, final %+v", name, i+1, o, f)
		}
	}
}

// periodOf returns the key of board's newest period in status.
func periodOf(t *testing.T, s *server, board, status string) string {
	t.Helper()
	var data struct {
		Board struct {
			Periods []period `json:"periods"`
		} `json:"board"`
	}
	s.mustDo(t, "", `query($b: ID!) { board(id: $b) { periods { board key status participants } } }`, map[string]any{"b": board}, &data)
	for _, p := range data.Board.Periods {
		if p.Status == status {
			return p.Key
		}
	}
	t.Fatalf("board %s has no %s period: %+v", board, status, data.Board.Periods)
	return ""
}

// boardPage returns the first 100 of a board's period.
func boardPage(t *testing.T, s *server, board, key string) leaderboardPage {
	t.Helper()
	var data struct {
		Leaderboard leaderboardPage `json:"leaderboard"`
	}
	s.mustDo(t, "", `query($b: ID!, $p: String) { leaderboard(board: $b, period: $p, first: 100) {
		edges { cursor node { `+rankEntryFields+` } } pageInfo { hasNextPage endCursor } total } }`,
		map[string]any{"b": board, "p": key}, &data)
	return data.Leaderboard
}
