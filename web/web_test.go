package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard/db"
)

// get answers a request to the page's handler.
func get(tb testing.TB, method, target string, header http.Header) *httptest.ResponseRecorder {
	tb.Helper()
	req := httptest.NewRequest(method, target, nil)
	for name, values := range header {
		req.Header[name] = values
	}
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, req)
	return rec
}

func TestHandler_ServesIndexAtRoot(t *testing.T) {
	rec := get(t, http.MethodGet, "/", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET / = %d, want 200", rec.Code)
	}
	if got, want := rec.Header().Get("Content-Type"), "text/html; charset=utf-8"; got != want {
		t.Errorf("Content-Type = %q, want %q", got, want)
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
		t.Errorf("Cache-Control = %q, want no-cache", got)
	}
	if rec.Header().Get("ETag") == "" {
		t.Error("no ETag")
	}
	if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
	// No other site may frame the page (clickjacking).
	if got := rec.Header().Get("Content-Security-Policy"); !strings.HasSuffix(got, "; frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy = %q, want frame-ancestors 'none'", got)
	}
	if got := rec.Header().Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("X-Frame-Options = %q, want DENY", got)
	}
	body := rec.Body.String()
	for _, want := range []string{`<html lang="en">`, `id="board"`, `id="period"`, `id="leaderboard"`, `id="my-rank"`, `id="lookup"`, `id="status"`} {
		if !strings.Contains(body, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
}

// The look-up hint names a player the demo seed creates, so that a new user
// can copy it and see a result.
func TestIndex_HintNamesADemoPlayer(t *testing.T) {
	body := get(t, http.MethodGet, "/", nil).Body.String()
	hint := regexp.MustCompile(`(?s)<p id="player-id-hint"[^>]*>(.*?)</p>`).FindStringSubmatch(body)
	if hint == nil {
		t.Fatal("index.html has no look-up hint")
	}
	if want := db.SeedPlayerID(500); !strings.Contains(hint[1], want) {
		t.Errorf("the look-up hint reads %q, want it to name a demo player such as %s", hint[1], want)
	}
}

func TestHandler_ServesAssetsWithTheirContentTypes(t *testing.T) {
	for path, want := range map[string]string{
		"/app.js":  "text/javascript; charset=utf-8",
		"/app.css": "text/css; charset=utf-8",
	} {
		t.Run(path, func(t *testing.T) {
			rec := get(t, http.MethodGet, path, nil)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d, want 200", path, rec.Code)
			}
			if got := rec.Header().Get("Content-Type"); got != want {
				t.Errorf("Content-Type = %q, want %q", got, want)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", got)
			}
			if rec.Body.Len() == 0 {
				t.Error("empty body")
			}
		})
	}
}

func TestHandler_AnswersNotModifiedForItsETag(t *testing.T) {
	etag := get(t, http.MethodGet, "/app.js", nil).Header().Get("ETag")
	rec := get(t, http.MethodGet, "/app.js", http.Header{"If-None-Match": {etag}})
	if rec.Code != http.StatusNotModified {
		t.Errorf("GET /app.js with If-None-Match %s = %d, want 304", etag, rec.Code)
	}
}

func TestHandler_NotFound(t *testing.T) {
	for _, path := range []string{"/nope", "/nope.js", "/static/app.js", "/app.js/", "/graphql", "/../web.go"} {
		t.Run(path, func(t *testing.T) {
			if rec := get(t, http.MethodGet, path, nil); rec.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", path, rec.Code)
			}
		})
	}
}

func TestHandler_RedirectsIndexHTMLToRoot(t *testing.T) {
	rec := get(t, http.MethodGet, "/index.html", nil)
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "./" {
		t.Errorf("GET /index.html = %d to %q, want 301 to ./", rec.Code, rec.Header().Get("Location"))
	}
}

func TestHandler_RejectsOtherMethods(t *testing.T) {
	rec := get(t, http.MethodPost, "/", nil)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", rec.Code)
	}
	if rec := get(t, http.MethodHead, "/", nil); rec.Code != http.StatusOK {
		t.Errorf("HEAD / = %d, want 200", rec.Code)
	}
}

// TestHandler_MountsBesideGraphQL mounts the page as the server does, next to
// a /graphql route that takes every method (registering "GET /" there panics).
func TestHandler_MountsBesideGraphQL(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	mux.Handle("/", Handler())
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/", http.StatusOK},
		{http.MethodGet, "/app.js", http.StatusOK},
		{http.MethodPost, "/graphql", http.StatusTeapot},
		{http.MethodGet, "/graphql", http.StatusTeapot},
		{http.MethodGet, "/nope", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.want {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, rec.Code, tc.want)
		}
	}
}

// TestIndex_ReferencesOnlyLocalAssets keeps the page free of CDNs: every src
// and href of index.html is a path the handler serves (or an inline data: URL).
func TestIndex_ReferencesOnlyLocalAssets(t *testing.T) {
	body := get(t, http.MethodGet, "/", nil).Body.String()
	refs := regexp.MustCompile(`\b(?:src|href)="([^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(refs) == 0 {
		t.Fatal("index.html references nothing; the pattern is wrong")
	}
	for _, ref := range refs {
		url := ref[1]
		switch {
		case strings.HasPrefix(url, "data:"):
		case !strings.HasPrefix(url, "/") || strings.HasPrefix(url, "//"):
			t.Errorf("index.html references %q, want a path on this server", url)
		default:
			if rec := get(t, http.MethodGet, url, nil); rec.Code != http.StatusOK {
				t.Errorf("index.html references %s, which answers %d", url, rec.Code)
			}
		}
	}
}

func TestEmbeddedFiles_HaveNoRemoteURLs(t *testing.T) {
	err := fs.WalkDir(static, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		for _, scheme := range []string{"http://", "https://"} {
			if strings.Contains(strings.ToLower(string(body)), scheme) {
				t.Errorf("%s contains %s", name, scheme)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
