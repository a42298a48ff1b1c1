// Package web serves the leaderboard's page: one HTML file, one stylesheet and
// one ES module, embedded in the binary. The page reads everything it shows
// from /graphql like any other client.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var static embed.FS

// contentSecurityPolicy allows the page its own files and its own /graphql
// only: no inline script or style, nothing from another origin, and no
// other page may frame it (clickjacking); X-Frame-Options says the same to
// browsers that predate frame-ancestors.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// asset is what the handler sends with an embedded file.
type asset struct {
	contentType string
	etag        string
}

// Handler returns the handler of the page: index.html at /, its stylesheet and
// script beside it, 404 for any other path and 405 for methods other than GET
// and HEAD. Every answer may be cached but must be revalidated (the file names
// carry no version); the ETag makes that a 304 until the binary changes.
//
// Mount it as mux.Handle("/", web.Handler()). The pattern "GET /" would
// conflict with a method-less "/graphql" and make ServeMux panic; the
// handler checks the method itself.
func Handler() http.Handler {
	root, err := fs.Sub(static, "static")
	if err != nil {
		panic(fmt.Sprintf("web: embedded files: %v", err))
	}
	assets, err := index(root)
	if err != nil {
		panic(fmt.Sprintf("web: embedded files: %v", err))
	}
	files := http.FileServerFS(root)

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Frame-Options", "DENY")

		// The file server redirects /index.html to /; let it.
		if strings.HasSuffix(r.URL.Path, "/index.html") {
			files.ServeHTTP(w, r)
			return
		}
		name := "index.html"
		if r.URL.Path != "/" {
			name = strings.TrimPrefix(r.URL.Path, "/")
		}
		// The keys are clean paths, so only canonical requests match.
		a, ok := assets[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		// Set before the file server runs: it keeps a Content-Type it finds
		// (the system's MIME tables cannot change ours) and answers
		// If-None-Match from the ETag.
		h.Set("Content-Type", a.contentType)
		h.Set("ETag", a.etag)
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// contentTypes are the types of the files the page is made of; a file of
// another kind fails index, so it cannot be served as the wrong type.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
}

// index returns the content type and ETag of every file under root.
func index(root fs.FS) (map[string]asset, error) {
	assets := map[string]asset{}
	err := fs.WalkDir(root, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		contentType, ok := contentTypes[path.Ext(name)]
		if !ok {
			return fmt.Errorf("%s: no content type for its extension", name)
		}
		body, err := fs.ReadFile(root, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		assets[name] = asset{
			contentType: contentType,
			etag:        `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`,
		}
		return nil
	})
	return assets, err
}
