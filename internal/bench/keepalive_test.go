package bench

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// echoServer answers POST /graphql with its body, prefixed by the
// request's Authorization and Content-Type, and counts connections and
// requests. answer, when set, answers instead.
type echoServer struct {
	*httptest.Server
	conns, requests atomic.Int32
	answer          atomic.Pointer[http.HandlerFunc]
}

// answerWith has the server answer with h, or echo when h is nil.
func (s *echoServer) answerWith(h http.HandlerFunc) {
	if h == nil {
		s.answer.Store(nil)
		return
	}
	s.answer.Store(&h)
}

func newEchoServer(t *testing.T) *echoServer {
	s := &echoServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		if answer := s.answer.Load(); answer != nil {
			(*answer)(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/graphql" {
			http.Error(w, "not POST /graphql", http.StatusNotFound)
			return
		}
		io.WriteString(w, r.Header.Get("Authorization")+" "+r.Header.Get("Content-Type")+" ")
		w.Write(body)
	}))
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func TestKeepAliveConn_RequestsShareOneConnection(t *testing.T) {
	s := newEchoServer(t)
	c, err := NewKeepAliveConn(s.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, body := range []string{`{"query":"a"}`, `{"query":"bb"}`, `{}`} {
		raw, err := c.Post(t.Context(), []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if want := "Bearer tok application/json " + body; string(raw) != want {
			t.Fatalf("answer %q, want %q", raw, want)
		}
	}
	if n := s.conns.Load(); n != 1 {
		t.Fatalf("%d connections for 3 requests, want 1", n)
	}
}

func TestKeepAliveConn_DialsAgainAfterTheServerClosed(t *testing.T) {
	s := newEchoServer(t)
	c, err := NewKeepAliveConn(s.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Post(t.Context(), []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	// The server drops the kept connection without a word: the next request
	// fails on it and is sent again on a new one.
	s.CloseClientConnections()
	if raw, err := c.Post(t.Context(), []byte(`2`)); err != nil || string(raw) != "Bearer tok application/json 2" {
		t.Fatalf("after the server closed: %q, %v", raw, err)
	}
	// The server says it closes: the next request dials at once.
	s.answerWith(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, "bye")
	})
	if raw, err := c.Post(t.Context(), []byte(`3`)); err != nil || string(raw) != "bye" {
		t.Fatalf("a closing answer: %q, %v", raw, err)
	}
	s.answerWith(nil)
	if _, err := c.Post(t.Context(), []byte(`4`)); err != nil {
		t.Fatal(err)
	}
	if n, r := s.conns.Load(), s.requests.Load(); n != 3 || r != 4 {
		t.Fatalf("%d connections and %d requests, want 3 and 4", n, r)
	}
}

func TestKeepAliveConn_StatusOtherThan200IsAnErrorNotRetried(t *testing.T) {
	s := newEchoServer(t)
	s.answerWith(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "slow down", http.StatusTooManyRequests)
	})
	c, err := NewKeepAliveConn(s.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 2 {
		if _, err := c.Post(t.Context(), []byte(`{}`)); err == nil || err.Error() != "status 429: slow down\n" {
			t.Fatalf("error %v, want status 429", err)
		}
	}
	if r := s.requests.Load(); r != 2 {
		t.Fatalf("%d requests for 2 posts, want 2", r)
	}
}

func TestKeepAliveConn_EndsWithItsContext(t *testing.T) {
	s := newEchoServer(t)
	release := make(chan struct{})
	defer close(release)
	s.answerWith(func(w http.ResponseWriter, r *http.Request) { <-release })
	c, err := NewKeepAliveConn(s.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := c.Post(ctx, []byte(`{}`))
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a cancelled request answered")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request outlived its context by 10s")
	}
}

func TestNewKeepAliveConn_RefusesWhatIsNotAnHTTPURL(t *testing.T) {
	for _, u := range []string{"https://127.0.0.1:1", "127.0.0.1:1", "http://"} {
		if _, err := NewKeepAliveConn(u, "tok"); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
}
