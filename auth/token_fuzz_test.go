package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
)

// FuzzAuthorizationHeader checks that no Authorization header makes the
// middleware panic, that a refusal is always UNAUTHENTICATED, and that only
// the configured static tokens and genuine player tokens authenticate.
func FuzzAuthorizationHeader(f *testing.F) {
	cfg := auth.Config{AdminToken: "admin-1,admin-2", ServerToken: "server", JWTSecret: secret, Issuer: "login"}
	good, err := cfg.SignPlayerToken("alice", time.Now().Add(time.Hour))
	if err != nil {
		f.Fatal(err)
	}
	for _, h := range []string{"Bearer admin-1", "bearer admin-2", "Bearer server", "Bearer " + good, "Bearer " + good + "x",
		"Bearer admin-1,admin-2", "Basic YQ==", "Bearer", "Bearer  ", "Bearer a.b.c", "Bearer eyJhbGciOiJub25lIn0.e30.",
		"Bearer \x00", "Bearer " + good[:len(good)/2]} {
		f.Add(h)
	}
	authn := auth.New(cfg)
	f.Fuzz(func(t *testing.T, header string) {
		var (
			p   leaderboard.Principal
			err error
		)
		h := authn.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, err = auth.Require(r.Context(), leaderboard.RoleAdmin, leaderboard.RoleGameServer, leaderboard.RolePlayer)
		}))
		r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		r.Header["Authorization"] = []string{header}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if err != nil {
			if code := leaderboard.ErrorCode(err); code != leaderboard.EUNAUTHENTICATED {
				t.Fatalf("header %q: code %s, want UNAUTHENTICATED", header, code)
			}
			return
		}
		token := header[len("Bearer "):]
		switch p.Role {
		case leaderboard.RoleAdmin:
			if token != "admin-1" && token != "admin-2" {
				t.Fatalf("header %q authenticated as admin", header)
			}
		case leaderboard.RoleGameServer:
			if token != "server" {
				t.Fatalf("header %q authenticated as game server", header)
			}
		case leaderboard.RolePlayer:
			if leaderboard.CheckPlayerID(p.PlayerID) != nil {
				t.Fatalf("header %q authenticated player %q, an id the API refuses", header, p.PlayerID)
			}
		default:
			t.Fatalf("header %q: principal %+v without an error", header, p)
		}
	})
}
