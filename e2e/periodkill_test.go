package e2e_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
)

// seedBoardPeriod makes a NONE board that started a day ago and fills its
// period "all" with players, and returns the digest of its standings by a
// plain sort of its scores, independently of the close.
func seedBoardPeriod(t *testing.T, board string, players int) string {
	t.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	start := time.Now().Add(-24 * time.Hour).Truncate(time.Hour)
	if _, err := store.CreateBoard(ctx, leaderboard.BoardSpec{ID: board, Name: board, Reset: leaderboard.ResetNone,
		TimeZone: new("UTC"), StartsAt: &start}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SeedPeriod(ctx, board, "all", players, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	rows, err := sqlConn(t).Query(ctx, `SELECT s.player_id, s.score FROM board_scores s JOIN periods p ON p.id = s.period_id
		WHERE p.board_id = $1 ORDER BY s.sort_score, s.sort_subscore, s.reached_at, s.seq`, board)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var (
		player      string
		score, rank int
	)
	if _, err := pgx.ForEachRow(rows, []any{&player, &score}, func() error {
		rank++
		fmt.Fprintf(h, "%d,%s,%d\n", rank, player, score)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// freeAddr returns a local address no one listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// An early closePeriod whose process is killed with SIGKILL in the middle of
// its close: the period stays CLOSING (nothing taken after the accept), and
// the next instance, at the default scheduler interval, closes it within
// 30 s of the kill with the digest of a plain sort.
func TestLifecycle_ClosePeriodOfAKilledProcessIsFinishedByTheNextInstance(t *testing.T) {
	pg.Reset(t)
	const board, players = "season", 60000
	want := seedBoardPeriod(t, board, players)
	conn := sqlConn(t)
	addr := freeAddr(t)
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"=serve", "DATABASE_URL="+pg.URL, "LISTEN_ADDR="+addr,
		"LEADERBOARD_ADMIN_TOKEN="+adminToken, "LEADERBOARD_SERVER_TOKEN="+serverToken, "LEADERBOARD_RATE_LIMIT=0")
	child.Stdout, child.Stderr = t.Output(), t.Output()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	killed := &server{url: "http://" + addr, client: &http.Client{Timeout: 30 * time.Second}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if status, _, err := killed.send(mustRequest(t, killed.url+"/readyz")); err == nil && status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child did not get ready within 30 s")
		}
	}
	// The close's read of the rows waits behind this lock, so that the kill
	// lands inside the close however fast the machine ranks 60,000 rows (a
	// read of a few milliseconds slipped between the polls of a quiet
	// machine).
	holder, err := sqlConn(t).Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(context.Background(), `SET LOCAL lock_timeout = '2min'; LOCK TABLE board_scores IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	go killed.tryPost(context.Background(), http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + adminToken}},
		mustJSON(t, map[string]any{"query": `mutation { closePeriod(board: "season", period: "all") { status } }`}))
	waitForQuery(t, conn, "FROM board_scores WHERE period_id") // the close's read, waiting
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if err := holder.Rollback(context.Background()); err != nil {
		t.Fatal(err)
	}
	dead := time.Now()
	var (
		status  string
		version int
	)
	const q = `SELECT status, ranks_version FROM periods WHERE board_id = $1 AND key = 'all'`
	if err := conn.QueryRow(context.Background(), q, board).Scan(&status, &version); err != nil || status != "CLOSING" {
		t.Fatalf("after the kill the period is %s, %v; want CLOSING", status, err)
	}

	next, _ := startInstance(t, func(c *app.Config) { c.SchedulerInterval = 30 * time.Second })
	late := next.submitRaw(t, map[string]any{"eventId": "late", "playerId": "late", "mode": "SET", "value": 10, "board": board})
	if late[0].Status != "REJECTED" || late[0].Code == nil || *late[0].Code != "MONTH_CLOSED" {
		t.Fatalf("an event after the accept answered %+v; want REJECTED MONTH_CLOSED", late[0])
	}
	var p struct {
		Period struct {
			Status       string  `json:"status"`
			Participants int     `json:"participants"`
			Digest       *string `json:"digest"`
		} `json:"period"`
	}
	for {
		next.mustDo(t, "", `{ period(board: "season", key: "all") { status participants digest } }`, nil, &p)
		if p.Period.Status == "CLOSED" {
			break
		}
		if time.Since(dead) > 30*time.Second {
			t.Fatalf("the period is %s 30 s after the kill, want CLOSED", p.Period.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("CLOSED %s after the kill", time.Since(dead).Round(time.Millisecond))
	if p.Period.Digest == nil || *p.Period.Digest != want || p.Period.Participants != players {
		t.Fatalf("closed as %+v; want %d participants and the plain sort's digest %s", p.Period, players, want)
	}
	if err := conn.QueryRow(context.Background(), q, board).Scan(&status, &version); err != nil || version != 1 {
		t.Errorf("ranks_version %d, %v: the period was ranked more than once", version, err)
	}
}

// mustRequest returns a GET request of url.
func mustRequest(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
