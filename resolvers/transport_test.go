package resolvers

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// brokenBody is a request body whose read fails half way.
type brokenBody struct{ r io.Reader }

func (b *brokenBody) Read(p []byte) (int, error) {
	if n, _ := b.r.Read(p); n > 0 {
		return n, nil
	}
	return 0, errors.New("connection reset")
}

// The direct transport answers every request with the status, content type
// and bytes of gqlgen's POST transport: plain answers, errors of every kind,
// bodies that are not JSON or cannot be read, and each response type.
func TestDirectPOST_AnswersAsGqlgen(t *testing.T) {
	const standing = `{"query": "{ standing(month: \"2026-10\", playerId: \"p-x\") { rank player { name } } }"}`
	handlers := func(store standingStore) (direct, viaGqlgen http.Handler) {
		r := &Resolver{StandingService: store, BoardService: mainBoard, Logger: slog.New(slog.DiscardHandler)}
		return NewHandler(r, HandlerOptions{}), NewHandler(r, HandlerOptions{viaGqlgen: true})
	}
	found, unavailable := standingStore{standing: testStanding()}, standingStore{err: leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later")}
	for _, c := range []struct {
		name, body, accept string
		broken, cancelled  bool
		store              standingStore
	}{
		{name: "plain answer", body: standing, store: found},
		{name: "any type", body: standing, accept: "*/*", store: found},
		{name: "application/json", body: standing, accept: "application/json", store: found},
		{name: "graphql-response+json", body: standing, accept: "application/graphql-response+json", store: found},
		{name: "json first of two", body: standing, accept: "application/json;q=0.5, application/graphql-response+json", store: found},
		{name: "unknown type", body: standing, accept: "text/html", store: found},
		{name: "unparsable type, then json", body: standing, accept: "a/b/c, application/json", store: found},
		{name: "null data", body: `{"query": "{ standing(month: \"2026-10\", playerId: \"p-x\") { rank } }"}`, store: standingStore{}},
		{name: "store unavailable", body: standing, store: unavailable},
		{name: "syntax error", body: `{"query": "{ standing("}`, store: found},
		{name: "syntax error, graphql-response+json", body: `{"query": "{ standing("}`, accept: "application/graphql-response+json", store: found},
		{name: "unknown field", body: `{"query": "{ nope }"}`, store: found},
		{name: "bad variable", body: `{"query": "query Q($m: Month!) { month(month: $m) { status } }", "variables": {"m": 7}}`, store: found},
		{name: "no query", body: `{}`, store: found},
		{name: "not JSON", body: `{"query": `, store: found},
		{name: "empty body", body: ``, store: found},
		{name: "body read fails", body: standing, broken: true, store: found},
		{name: "client gone", body: standing, cancelled: true, store: found},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct, viaGqlgen := handlers(c.store)
			do := func(h http.Handler) *httptest.ResponseRecorder {
				var body io.Reader = strings.NewReader(c.body)
				if c.broken {
					body = &brokenBody{strings.NewReader(c.body[:10])}
				}
				req := httptest.NewRequest(http.MethodPost, "/graphql", body)
				if c.cancelled {
					ctx, cancel := context.WithCancel(req.Context())
					cancel()
					req = req.WithContext(ctx)
				}
				req.Header.Set("Content-Type", "application/json")
				if c.accept != "" {
					req.Header.Set("Accept", c.accept)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				return w
			}
			got, want := do(direct), do(viaGqlgen)
			if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") || got.Body.String() != want.Body.String() {
				t.Fatalf("direct: %d %s %s\ngqlgen: %d %s %s", got.Code, got.Header().Get("Content-Type"), got.Body,
					want.Code, want.Header().Get("Content-Type"), want.Body)
			}
		})
	}
}
