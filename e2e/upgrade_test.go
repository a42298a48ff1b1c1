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

// The fixture of TestUpgrade_ReleaseDatabaseKeepsItsAnswersAndMessages was
// made once, by hand, with the release's own binary (commit 00fb19d, schema
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
// a month unasked (AutoClose off; the closer of boards' periods leaves main's
// months to main's closer) until the test closes it. closesAt is endsAt plus the grace, the same 45 days in the
// release and here; closedAt, reachedAt and a correction's at are stored
// instants; an open month's participants and ranks are counted from stored
// rows; months lists the months that have a row, and nothing here opens one
// before the answers are compared (the board event below goes to a board
// that never resets). The player tokens are signed when the test runs.
const (
	releaseDump    = "testdata/release-00fb19d.sql"
	releaseAnswers = "testdata/release-00fb19d-answers.json"
)

// releaseFixture is testdata/release-00fb19d-answers.json.
type releaseFixture struct {
	WebhookSecret string `json:"webhookSecret"`
	Reads         []struct {
		Name      string          `json:"name"`
		Role      string          `json:"role"` // "", "admin" or "player:ID"
		Query     string          `json:"query"`
		Variables map[string]any  `json:"variables"`
		Data      json.RawMessage `json:"data"`
	} `json:"reads"`
	Exports []struct {
		Month       string `json:"month"`
		Status      int    `json:"status"`
		ContentType string `json:"contentType"`
		Body        string `json:"body"`
	} `json:"exports"`
	Pending []struct {
		ID    string `json:"id"`
		Type  string `json:"type"`
		Month string `json:"month"`
		Body  string `json:"body"`
	} `json:"pending"`
}

// A database written by the release 00fb19d migrates in place when the
// program starts on it: every read answers as the release answered (with its
// cursors still valid), the exports are the same bytes, the messages it left
// pending are delivered with their ids, types and exact bodies, and what came
// since works on it: closing the month it left open, a correction of a month
// it closed, a board of its own and the main board's view of the old months.
func TestUpgrade_ReleaseDatabaseKeepsItsAnswersAndMessages(t *testing.T) {
	fx := readReleaseFixture(t)
	pg.Reset(t)
	newest := schemaVersion(t)
	loadReleaseDump(t, releaseDump)
	if v := schemaVersion(t); v != 6 {
		t.Fatalf("the release's database is at schema version %d, want 6", v)
	}

	// Settlement off: this instance leaves the outbox as the release left
	// it, so that the settlement of every month answers as it did.
	reader, _ := startInstance(t)
	if v := schemaVersion(t); v != newest {
		t.Fatalf("after the start the schema is at version %d, want the newest, %d", v, newest)
	}
	for _, read := range fx.Reads {
		got := reader.do(t, roleToken(t, read.Role), read.Query, read.Variables)
		if len(got.Errors) > 0 || got.Status != http.StatusOK {
			t.Errorf("%s: status %d: %s", read.Name, got.Status, got.Body)
			continue
		}
		want, have := normalJSON(t, read.Data, read.Role), normalJSON(t, got.Data, read.Role)
		if !reflect.DeepEqual(want, have) {
			t.Errorf("%s: the upgraded database answers\n%s\nthe release answered\n%s", read.Name, got.Data, read.Data)
		}
	}
	for _, export := range fx.Exports {
		status, contentType, body := exportCSV(t, reader, "/admin/months/"+export.Month+"/standings.csv")
		if status != export.Status || contentType != export.ContentType || body != export.Body {
			t.Errorf("export of %s: %d %s\n%s\nthe release's: %d %s\n%s", export.Month, status, contentType, body,
				export.Status, export.ContentType, export.Body)
		}
	}

	// The messages the release left pending go out once a receiver is up:
	// each once, oldest first within its month, as the release wrote it.
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
			t.Errorf("pending %s %s of %s was not delivered", p.Type, p.ID, p.Month)
			continue
		}
		d := got[i]
		if d.eventType != p.Type || string(d.body) != p.Body || !settlement.Verify([]byte(fx.WebhookSecret), d.body, d.signature) {
			t.Errorf("delivery %s: type %q, signature %q, body\n%s\nthe release's %s:\n%s", d.id, d.eventType, d.signature, d.body, p.Type, p.Body)
		}
	}
	if want := pendingOrder(fx); !slices.Equal(deliveryOrder(got), want) {
		t.Errorf("deliveries %v, want %v (each once, oldest first within its month)", deliveryOrder(got), want)
	}
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
	got = waitForDeliveries(t, receiver, len(fx.Pending)+2)
	if types := deliveryTypes(got[len(fx.Pending):]); !slices.Equal(types, []string{"month.closed 2026-11", "month.corrected 2026-10"}) &&
		!slices.Equal(types, []string{"month.corrected 2026-10", "month.closed 2026-11"}) {
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

// readReleaseFixture reads the release's recorded answers.
func readReleaseFixture(t *testing.T) *releaseFixture {
	t.Helper()
	raw, err := os.ReadFile(releaseAnswers)
	if err != nil {
		t.Fatal(err)
	}
	var fx releaseFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("%s: %v", releaseAnswers, err)
	}
	if len(fx.Reads) == 0 || len(fx.Pending) == 0 {
		t.Fatalf("%s holds %d reads and %d pending messages", releaseAnswers, len(fx.Reads), len(fx.Pending))
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
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatalf("empty the test database: %v", err)
	}
	if _, err := conn.Exec(ctx, sql.String()); err != nil {
		t.Fatalf("load %s: %v", path, err)
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
	case strings.HasPrefix(role, "player:"):
		return playerToken(t, strings.TrimPrefix(role, "player:"))
	}
	t.Fatalf("unknown role %q in %s", role, releaseAnswers)
	return ""
}

// normalJSON decodes an answer for comparison. The only change it allows is
// a deliberate one made since the release (b54ec88): anyone but an admin is
// told only the kind of a failed delivery where the release told everyone
// the whole error (an error the release stored reads as the kind "delivery
// failed"), so outside the admin role a lastError is compared for being
// there, not for its text. Admins are told the whole error with every URL
// shown by its host (a path may hold a receiver's token): their lastError is
// compared after that redaction, the rest as it is.
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
	markLastErrors(v, mark)
	return v
}

// markLastErrors replaces every non-null lastError in v with mark's.
func markLastErrors(v any, mark func(string) string) {
	switch v := v.(type) {
	case map[string]any:
		for k, field := range v {
			if text, ok := field.(string); k == "lastError" && ok {
				v[k] = mark(text)
				continue
			}
			markLastErrors(field, mark)
		}
	case []any:
		for _, item := range v {
			markLastErrors(item, mark)
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
// month: "month id" per message, months in the order of their first message.
func pendingOrder(fx *releaseFixture) []string {
	out := make([]string, len(fx.Pending))
	for i, p := range fx.Pending {
		out[i] = p.Month + " " + p.ID
	}
	return byMonth(out)
}

// deliveryOrder is deliveries as "month id", grouped as pendingOrder groups.
func deliveryOrder(deliveries []delivery) []string {
	out := make([]string, len(deliveries))
	for i, d := range deliveries {
		var body struct {
			Month string `json:"month"`
		}
		json.Unmarshal(d.body, &body)
		out[i] = body.Month + " " + d.id
	}
	return byMonth(out)
}

// byMonth orders "month id" items by month, keeping their order within one:
// messages of different months may go out in any order.
func byMonth(items []string) []string {
	slices.SortStableFunc(items, func(a, b string) int { return strings.Compare(a[:7], b[:7]) })
	return items
}

// deliveryTypes is deliveries as "type month", in the order they came.
func deliveryTypes(deliveries []delivery) []string {
	out := make([]string, len(deliveries))
	for i, d := range deliveries {
		var body struct {
			Month string `json:"month"`
		}
		json.Unmarshal(d.body, &body)
		out[i] = d.eventType + " " + body.Month
	}
	return out
}
