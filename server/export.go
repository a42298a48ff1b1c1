package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
)

// exportHandler serves GET /admin/months/{month}/standings.csv: a closed
// month's final standings, streamed as CSV, for the admin role. A month is
// a period of main, exported with the month's columns.
func exportHandler(exporter leaderboard.Exporter, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !exportAllowed(w, r) {
			return
		}
		month, err := leaderboard.ParseMonth(r.PathValue("month"))
		if err != nil {
			writeCodedError(w, err)
			return
		}
		key := month.String()
		export(w, r, exporter, logger, leaderboard.MainBoard, key, leaderboard.MonthExport, "standings-"+key+".csv")
	})
}

// periodExportHandler serves GET /admin/boards/{board}/periods/{key}/standings.csv:
// a closed period's final standings, streamed as CSV, for the admin role.
func periodExportHandler(exporter leaderboard.Exporter, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !exportAllowed(w, r) {
			return
		}
		board, key := r.PathValue("board"), r.PathValue("key")
		if err := leaderboard.CheckBoardID(board); err != nil {
			writeCodedError(w, err)
			return
		}
		// The export checks the key before its first byte: only a key of
		// the board's, [A-Za-z0-9_.-], reaches the file name.
		export(w, r, exporter, logger, board, key, leaderboard.PeriodExport, "standings-"+board+"-"+key+".csv")
	})
}

// exportAllowed reports whether the caller has the admin role, which
// exports need, and answers the request when not.
func exportAllowed(w http.ResponseWriter, r *http.Request) bool {
	if _, err := auth.RequireFor(r.Context(), "the CSV export", leaderboard.RoleAdmin); err != nil {
		writeCodedError(w, err)
		return false
	}
	return true
}

// export streams the export of period key of board in form as the file
// filename.
func export(w http.ResponseWriter, r *http.Request, exporter leaderboard.Exporter, logger *slog.Logger,
	board, key string, form leaderboard.ExportForm, filename string) {
	// Ten million rows take longer than the server's write timeout.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Hour))
	out := &startedWriter{ResponseWriter: w, filename: filename}
	if err := exporter.ExportStandings(r.Context(), board, key, form, out); err != nil {
		if !out.started {
			writeCodedError(w, err)
			return
		}
		// The status is sent: all that is left is to cut the body short,
		// which a client sees as a truncated transfer.
		logger.ErrorContext(r.Context(), "export cut short", "board", board, "period", key, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// startedWriter sets the CSV headers before the first byte of the body and
// remembers that the body has started.
type startedWriter struct {
	http.ResponseWriter
	filename string
	started  bool
}

func (w *startedWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.started = true
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="`+w.filename+`"`)
		h.Set("Cache-Control", "no-store")
	}
	return w.ResponseWriter.Write(p)
}

// statusOf is the HTTP status of an error with a domain code.
func statusOf(code string) int {
	switch code {
	case leaderboard.EBADINPUT:
		return http.StatusBadRequest
	case leaderboard.EUNAUTHENTICATED:
		return http.StatusUnauthorized
	case leaderboard.EFORBIDDEN:
		return http.StatusForbidden
	case leaderboard.ENOTFOUND:
		return http.StatusNotFound
	case leaderboard.ECONFLICT, leaderboard.EMONTHCLOSED:
		return http.StatusConflict
	case leaderboard.ERATELIMITED:
		return http.StatusTooManyRequests
	case leaderboard.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// writeCodedError answers with one GraphQL-shaped error carrying err's code
// and client message, under the code's HTTP status.
func writeCodedError(w http.ResponseWriter, err error) {
	code := leaderboard.ErrorCode(err)
	if code == leaderboard.EUNAUTHENTICATED {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	writeErrorCode(w, statusOf(code), code, leaderboard.ErrorMessage(err))
}
