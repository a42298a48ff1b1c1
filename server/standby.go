package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Standby answers on the service's address while the service waits for its
// database (and then migrates it and loads what it serves from memory), so
// that probes tell a process that is starting from one that is down:
// GET /healthz answers 200 (alive: do not restart it), GET /readyz 503 (send
// it no traffic), /graphql 503 with an UNAVAILABLE GraphQL error, anything
// else 503. Close it before the Server opens on the same address.
type Standby struct {
	http     *http.Server
	listener net.Listener
}

// standbyGraphQL is the answer of /graphql on standby: the client's
// UNAVAILABLE, as when the database is lost while serving.
const standbyGraphQL = `{"errors":[{"message":"the leaderboard's database is unavailable or overloaded right now: retry later",` +
	`"extensions":{"code":"UNAVAILABLE"}}],"data":null}`

// OpenStandby listens on addr and answers as Standby says, in the
// background.
func OpenStandby(addr string, logger *slog.Logger) (*Standby, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, standbyGraphQL)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "starting: waiting for the database", http.StatusServiceUnavailable)
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Standby{
		http: &http.Server{Handler: noSniff(withRequestID(mux)), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second},
		listener: ln,
	}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("standby http server stopped", "addr", addr, "err", err)
		}
	}()
	return s, nil
}

// Addr is the address the standby listens on: with port 0, the port chosen.
func (s *Standby) Addr() net.Addr { return s.listener.Addr() }

// Close stops listening and closes the standby's connections once their
// answers are written, within a second.
func (s *Standby) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil {
		return errors.Join(err, s.http.Close())
	}
	return nil
}
