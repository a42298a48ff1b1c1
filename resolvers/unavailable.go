package resolvers

import (
	"context"
	"net/http"
	"sync/atomic"
)

// An UNAVAILABLE error is answered with HTTP 503 and Retry-After, so that
// load balancers and clients back off: the error presenter flags the
// request, and the response writer turns the flag into the status before
// the first byte of the body.

type unavailableKey struct{}

// flagUnavailable notes that the request's answer carries UNAVAILABLE.
func flagUnavailable(ctx context.Context) {
	if flag, ok := ctx.Value(unavailableKey{}).(*atomic.Bool); ok {
		flag.Store(true)
	}
}

// withUnavailableStatus answers 503 with Retry-After when the error
// presenter flagged the request.
func withUnavailableStatus(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flag := new(atomic.Bool)
		ctx := context.WithValue(r.Context(), unavailableKey{}, flag)
		next.ServeHTTP(&unavailableWriter{ResponseWriter: w, flag: flag}, r.WithContext(ctx))
	})
}

type unavailableWriter struct {
	http.ResponseWriter
	flag        *atomic.Bool
	wroteHeader bool
}

func (w *unavailableWriter) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	if w.flag.Load() {
		w.Header().Set("Retry-After", "1")
		status = http.StatusServiceUnavailable
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *unavailableWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}
