package e2e_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/settlement"
)

// closedPort returns an address on which nothing listens: a delivery there
// is refused.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// withWebhook runs the instance as production does, its messages going to
// url: months close by themselves right after their end.
func withWebhook(url string) func(*app.Config) {
	return func(c *app.Config) {
		c.CloseGrace = 0
		c.AutoClose = true
		c.WebhookURL = url
		c.WebhookSecret = webhookSecret
		c.WebhookBackoff = 20 * time.Millisecond
		c.WebhookMaxBackoff = 50 * time.Millisecond
	}
}

// lastError reads month's settlement.lastError with token ("" for none).
func (s *server) lastError(t *testing.T, token, month string) *string {
	t.Helper()
	var data struct {
		Month struct {
			Settlement struct {
				LastError *string `json:"lastError"`
			} `json:"settlement"`
		} `json:"month"`
		Months []struct {
			Settlement *struct {
				LastError *string `json:"lastError"`
			} `json:"settlement"`
		} `json:"months"`
	}
	s.mustDo(t, token, `query($m: Month!) { month(month: $m) { settlement { lastError } } months { settlement { lastError } } }`,
		map[string]any{"m": month}, &data)
	got := data.Month.Settlement.LastError
	for _, m := range data.Months {
		if m.Settlement != nil && (m.Settlement.LastError == nil) != (got == nil) ||
			m.Settlement != nil && got != nil && *m.Settlement.LastError != *got {
			t.Errorf("months answers lastError %v where month answers %v", m.Settlement.LastError, got)
		}
	}
	return got
}

// Issue 25 item 1: a settlement whose webhook URL carries a key and refuses
// connections tells anyone "connection refused", and only the admin the
// whole error, still without the URL's userinfo, path and query string.
func TestSecurity_SettlementErrorShowsTheKindNotTheWebhook(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 30)
	addr := closedPort(t)
	s, _ := startInstance(t, withWebhook("http://studio:pa55word@"+addr+"/rewards?apikey=k3y-in-the-query"))
	info := waitForMonth(t, s, month, func(i *monthInfo) bool { return i.Settlement != nil && i.Settlement.Attempts >= 2 })
	if info.Settlement.Status != "PENDING" {
		t.Fatalf("settlement %+v", info.Settlement)
	}
	for label, token := range map[string]string{"anonymous": "", "player": playerToken(t, "ann"), "game server": serverToken} {
		if got := s.lastError(t, token, month); got == nil || *got != "connection refused" {
			t.Errorf("%s reads lastError %v, want \"connection refused\"", label, deref(got))
		}
	}
	got := s.lastError(t, adminToken, month)
	if got == nil || !strings.HasPrefix(*got, "connection refused: ") || !strings.Contains(*got, "http://"+addr+"/…") {
		t.Fatalf("the admin reads lastError %q, want the kind and the whole error", deref(got))
	}
	for _, secret := range []string{"studio", "pa55word", "apikey", "k3y"} {
		if strings.Contains(*got, secret) {
			t.Errorf("the admin's lastError holds %q: %s", secret, *got)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// Issue 25 item 3: a receiver answering a redirect has not received the
// message. The month stays PENDING, the attempts grow, and the place the
// redirect names never gets the body or its signature.
func TestSecurity_WebhookRedirectIsAFailedAttempt(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var reached atomic.Int32
			target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached.Add(1)
				w.WriteHeader(http.StatusNoContent)
			}))
			defer target.Close()
			hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.URL+"/collect", status)
			}))
			defer hook.Close()
			pg.Reset(t)
			month := seedPastMonth(t, 30)
			s, _ := startInstance(t, withWebhook(hook.URL+"/rewards"))
			info := waitForMonth(t, s, month, func(i *monthInfo) bool {
				return i.Settlement != nil && (i.Settlement.Attempts >= 3 || i.Settlement.Status == "DELIVERED")
			})
			if info.Settlement.Status != "PENDING" || info.Settlement.DeliveredAt != nil {
				t.Errorf("settlement %+v, want PENDING", info.Settlement)
			}
			want := fmt.Sprintf("redirect %d not followed", status)
			if got := s.lastError(t, "", month); got == nil || *got != want {
				t.Errorf("lastError %s, want %s", deref(got), want)
			}
			if n := reached.Load(); n != 0 {
				t.Errorf("the redirect's target got %d requests", n)
			}
		})
	}
}

// childProgram is `leaderboard serve` run as its own process, as an
// operator runs it: configured by its environment only.
type childProgram struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs bytes.Buffer
	url  chan string
	// done is closed when the program has ended, with err its exit.
	done chan struct{}
	err  error
}

// startChild starts the program with env (and nothing of this process's
// LEADERBOARD_ or DATABASE_ variables), stopped when the test ends.
func startChild(t *testing.T, env ...string) *childProgram {
	t.Helper()
	c := &childProgram{cmd: exec.Command(os.Args[0], "-test.run=^$"), url: make(chan string, 1), done: make(chan struct{})}
	for _, v := range os.Environ() {
		if !strings.HasPrefix(v, "LEADERBOARD_") && !strings.HasPrefix(v, "DATABASE_") && !strings.HasPrefix(v, "LISTEN_ADDR=") {
			c.cmd.Env = append(c.cmd.Env, v)
		}
	}
	c.cmd.Env = append(c.cmd.Env, append([]string{childEnv + "=serve"}, env...)...)
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	serving := regexp.MustCompile(`msg=serving url=(\S+)`)
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			c.mu.Lock()
			c.logs.Write(append(lines.Bytes(), '\n'))
			c.mu.Unlock()
			if m := serving.FindSubmatch(lines.Bytes()); m != nil {
				c.url <- string(m[1])
			}
		}
		c.err = c.cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-c.done:
		case <-time.After(30 * time.Second):
			c.cmd.Process.Kill()
		}
	})
	return c
}

// log returns what the program has logged so far.
func (c *childProgram) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs.String()
}

// Issue 25 item 4: each secret the README names is read from the file its
// _FILE variable names, by the program as an operator starts it, and is the
// one in use: the admin, game-server and player roles accept tokens made
// with the files' secrets and refuse the e2e suite's own, and the webhook's
// signature verifies with the file's key. The log names the webhook without
// its key, never shows a secret, and warns of the short token.
func TestSecurity_EverySecretFromAFile(t *testing.T) {
	pg.Reset(t)
	month := seedPastMonth(t, 30)
	secrets := map[string]string{
		"LEADERBOARD_ADMIN_TOKEN":    "admin-token-from-a-file-0123456789,tiny9",
		"LEADERBOARD_SERVER_TOKEN":   "server-token-from-a-file-0123456789",
		"LEADERBOARD_JWT_SECRET":     "jwt-secret-from-a-file-0123456789abcdefghij",
		"LEADERBOARD_WEBHOOK_SECRET": "webhook-secret-from-a-file-0123456789",
	}
	dir := t.TempDir()
	receiver := newWebhookReceiver(t, 1)
	env := []string{"DATABASE_URL=" + pg.URL, "LISTEN_ADDR=127.0.0.1:0", "LEADERBOARD_CLOSE_GRACE=0s",
		"LEADERBOARD_AUTO_CLOSE=true", "LEADERBOARD_SCHEDULER_INTERVAL=100ms", "LEADERBOARD_WEBHOOK_BACKOFF=20ms",
		// The test polls faster than a public client may.
		"LEADERBOARD_RATE_LIMIT=0",
		"LEADERBOARD_WEBHOOK_URL=" + receiver.URL + "/rewards?apikey=k3y-in-the-query"}
	for name, value := range secrets {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(value+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, name+"_FILE="+path)
	}
	child := startChild(t, env...)
	var s *server
	select {
	case url := <-child.url:
		s = &server{url: url, client: &http.Client{Timeout: 30 * time.Second}}
	case <-child.done:
		t.Fatalf("the program ended (%v):\n%s", child.err, child.log())
	case <-time.After(time.Minute):
		t.Fatalf("the program did not serve within a minute:\n%s", child.log())
	}

	cur := currentMonth(t)
	submit := `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { status } }`
	events := map[string]any{"e": []scoreEvent{ev("f1", "ann", "ADD", 10, cur.at(0))}}
	var submitted struct {
		SubmitScores []struct{ Status string } `json:"submitScores"`
	}
	s.mustDo(t, "server-token-from-a-file-0123456789", submit, events, &submitted)
	if len(submitted.SubmitScores) != 1 || submitted.SubmitScores[0].Status != "APPLIED" {
		t.Errorf("submitScores with the file's token: %+v", submitted)
	}
	s.expectError(t, serverToken, submit, events, "UNAUTHENTICATED")

	corrections := `query($m: Month!) { corrections(month: $m) { id } }`
	s.mustDo(t, "admin-token-from-a-file-0123456789", corrections, map[string]any{"m": cur.month}, nil)
	s.expectError(t, adminToken, corrections, map[string]any{"m": cur.month}, "UNAUTHENTICATED")

	myRank := `query($m: Month!) { myRank(month: $m) { rank } }`
	fromFile, err := auth.PlayerToken([]byte(secrets["LEADERBOARD_JWT_SECRET"]), "ann", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var rank struct {
		MyRank *struct{ Rank int } `json:"myRank"`
	}
	s.mustDo(t, fromFile, myRank, map[string]any{"m": cur.month}, &rank)
	if rank.MyRank == nil || rank.MyRank.Rank != 1 {
		t.Errorf("myRank with a token of the file's secret: %+v", rank.MyRank)
	}
	s.expectError(t, playerToken(t, "ann"), myRank, map[string]any{"m": cur.month}, "UNAUTHENTICATED")

	waitForMonth(t, s, month, func(i *monthInfo) bool { return i.Settlement != nil && i.Settlement.Status == "DELIVERED" })
	got := receiver.received()
	if len(got) != 2 {
		t.Fatalf("the receiver got %d deliveries, want a failed one and its retry", len(got))
	}
	for _, d := range got {
		if !settlement.Verify([]byte(secrets["LEADERBOARD_WEBHOOK_SECRET"]), d.body, d.signature) {
			t.Errorf("delivery %s is not signed with the file's secret", d.id)
		}
	}

	log := child.log()
	for _, want := range []string{
		`msg="settlement enabled" webhook=` + receiver.URL + "/…\n",
		`msg="settlement: delivery failed; retrying later"`,
		`msg="short secret: LEADERBOARD_ADMIN_TOKEN (token 2 of 2) has 5 characters: use at least 16 random ones"`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log has no %s:\n%s", want, log)
		}
	}
	for _, secret := range []string{"apikey", "k3y", "rewards", "tiny9", "from-a-file"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, grepLines(log, secret))
		}
	}
}

// Issue 25 item 4: a webhook URL without a secret would be signed with an
// empty key; the program refuses to start, with a one-line reason.
func TestSecurity_WebhookURLWithoutASecretRefusesToStart(t *testing.T) {
	child := startChild(t, "DATABASE_URL="+pg.URL, "LISTEN_ADDR=127.0.0.1:0",
		"LEADERBOARD_WEBHOOK_URL=https://rewards.example/hook?apikey=k3y-in-the-query")
	select {
	case <-child.done:
		if exit, ok := child.err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
			t.Errorf("the program ended with %v, want exit status 1", child.err)
		}
	case <-child.url:
		t.Fatalf("the program serves:\n%s", child.log())
	case <-time.After(time.Minute):
		t.Fatalf("the program neither served nor ended in a minute:\n%s", child.log())
	}
	lines := strings.Split(strings.TrimSpace(child.log()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "leaderboard: LEADERBOARD_WEBHOOK_URL is set but LEADERBOARD_WEBHOOK_SECRET") ||
		strings.Contains(child.log(), "k3y") {
		t.Errorf("the program's last words: %q\n%s", last, child.log())
	}
}
