package settlement

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
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
