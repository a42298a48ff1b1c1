package settlement

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

func TestSign_IsHMACSHA256OfTheBody(t *testing.T) {
	// echo -n '{"a":1}' | openssl dgst -sha256 -hmac secret
	const want = "sha256=aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494"
	got := Sign([]byte("secret"), []byte(`{"a":1}`))
	if got != want {
		t.Fatalf("signature %q", got)
	}
	if !Verify([]byte("secret"), []byte(`{"a":1}`), got) {
		t.Error("a signature does not verify")
	}
	for _, c := range []struct{ secret, body, sig string }{
		{"other", `{"a":1}`, got},
		{"secret", `{"a":2}`, got},
		{"secret", `{"a":1}`, strings.ToUpper(got)},
		{"secret", `{"a":1}`, ""},
	} {
		if Verify([]byte(c.secret), []byte(c.body), c.sig) {
			t.Errorf("verified %+v", c)
		}
	}
}

func TestBackoff_GrowsCappedWithJitter(t *testing.T) {
	b := Backoff{Base: time.Second, Max: time.Minute}
	for _, c := range []struct {
		attempts int
		ceiling  time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {4, 8 * time.Second}, {7, time.Minute}, {80, time.Minute}} {
		for range 50 {
			d := b.Delay(c.attempts)
			if d < c.ceiling/2 || d > c.ceiling {
				t.Fatalf("attempt %d waits %s, want %s..%s", c.attempts, d, c.ceiling/2, c.ceiling)
			}
		}
	}
}

func TestSend_SignsAndTreatsOnly2xxAsDelivered(t *testing.T) {
	var got *http.Request
	status := http.StatusNoContent
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		if r.URL.Path == "/slow" {
			time.Sleep(200 * time.Millisecond)
		}
		w.WriteHeader(status)
	}))
	defer hook.Close()
	msg := leaderboard.Message{ID: "evt_1", Type: "month.closed", Body: []byte(`{"id":"evt_1"}`)}
	for _, c := range []struct {
		name, path string
		status     int
		ok         bool
	}{{"Delivered", "/", 204, true}, {"ServerError", "/", 500, false}, {"Redirect", "/", 302, false}, {"Timeout", "/slow", 200, false}} {
		t.Run(c.name, func(t *testing.T) {
			status = c.status
			var outcomes []string
			d := New(nil, Config{URL: hook.URL + c.path, Secret: []byte("k"), Timeout: 100 * time.Millisecond},
				slog.New(slog.DiscardHandler), func(o string) { outcomes = append(outcomes, o) })
			err := d.send(context.Background(), msg)
			if (err == nil) != c.ok {
				t.Fatalf("send: %v", err)
			}
			if got.Header.Get(HeaderEventID) != "evt_1" || !Verify([]byte("k"), msg.Body, got.Header.Get(HeaderSignature)) {
				t.Errorf("headers %v", got.Header)
			}
			if want := map[bool]string{true: "delivered", false: "failed"}[c.ok]; len(outcomes) != 1 || outcomes[0] != want {
				t.Errorf("outcomes %v", outcomes)
			}
		})
	}
}

// A receiver answering 302 or 307 has not received the message: the attempt
// fails with the redirect's kind, and the place it points to gets nothing.
func TestSend_FollowsNoRedirect(t *testing.T) {
	var reached atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
	}))
	defer target.Close()
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.URL+"/elsewhere?token=theirs", status)
			}))
			defer hook.Close()
			d := New(nil, Config{URL: hook.URL, Secret: []byte("k")}, slog.New(slog.DiscardHandler), nil)
			err := d.send(context.Background(), leaderboard.Message{ID: "evt_1", Body: []byte(`{}`)})
			derr, ok := errors.AsType[*leaderboard.DeliveryError](err)
			if !ok || derr.Kind != fmt.Sprintf("redirect %d not followed", status) {
				t.Fatalf("send: %v", err)
			}
			if !strings.Contains(derr.Detail, target.URL+"/…") || strings.Contains(derr.Detail, "elsewhere") || strings.Contains(derr.Detail, "theirs") {
				t.Errorf("detail %q", derr.Detail)
			}
			if n := reached.Load(); n != 0 {
				t.Fatalf("the redirect's target got %d requests", n)
			}
		})
	}
}

// A failed attempt's error tells the kind of failure; its detail, and the
// log, show the webhook's host alone: no userinfo, path or query string.
func TestSend_ErrorsHideTheWebhookCredentials(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(200 * time.Millisecond)
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer hook.Close()
	const credentials = "alice:s3cr3t-pass@"
	const query = "?apikey=k3y-in-the-query"
	at := func(base, path string) string {
		return strings.Replace(base, "http://", "http://"+credentials, 1) + path + query
	}
	for _, c := range []struct {
		url, kind, redacted string
	}{
		{at(closed.URL, "/rewards"), "connection refused", closed.URL + "/…"},
		{at(hook.URL, "/rewards"), "HTTP 500", hook.URL + "/…"},
		{at(hook.URL, "/slow"), "timeout", hook.URL + "/…"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			var log bytes.Buffer
			d := New(nil, Config{URL: c.url, Secret: []byte("k"), Timeout: 100 * time.Millisecond},
				slog.New(slog.NewTextHandler(&log, nil)), nil)
			err := d.send(context.Background(), leaderboard.Message{ID: "evt_1", Body: []byte(`{}`)})
			derr, ok := errors.AsType[*leaderboard.DeliveryError](err)
			if !ok || derr.Kind != c.kind {
				t.Fatalf("send: %v, want kind %q", err, c.kind)
			}
			for label, text := range map[string]string{"error": err.Error(), "log": log.String()} {
				if !strings.Contains(text, c.redacted) {
					t.Errorf("the %s does not name the webhook %s: %s", label, c.redacted, text)
				}
				for _, secret := range []string{"alice", "s3cr3t", "apikey", "k3y", "rewards", "slow"} {
					if strings.Contains(text, secret) {
						t.Errorf("the %s holds %q: %s", label, secret, text)
					}
				}
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://u:p@rewards.example:8443/hook/a?apikey=x#frag":  "https://rewards.example:8443/…",
		"https://hooks.chat.example/services/T0/B0/secret-token": "https://hooks.chat.example/…",
		"http://rewards.example":                                 "http://rewards.example",
		"http://rewards.example/":                                "http://rewards.example",
		"/relative?token=x":                                      "/…",
		"http://bad host/?k=v":                                   "(invalid URL)",
	} {
		if got := RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	}
	for raw, ok := range map[string]bool{
		"https://rewards.example/hook?k=v": true, "http://127.0.0.1:9/": true,
		"rewards.example/hook": false, "ftp://rewards.example/": false, "https:///hook": false, "http://bad host/": false,
	} {
		if err := CheckURL(raw); (err == nil) != ok || err != nil && strings.Contains(err.Error(), "rewards") {
			t.Errorf("CheckURL(%q): %v", raw, err)
		}
	}
}
