package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gamebackend/leaderboard"
)

// loggedErasures runs every erasure on a deadline of its own, past the
// request that asked for it, and logs what it did by its audit row's id:
// never the player's id, which the log must not keep.
type loggedErasures struct {
	leaderboard.ErasureService
	logger *slog.Logger
	// timeout bounds an erasure (LEADERBOARD_ERASURE_TIMEOUT).
	timeout time.Duration
}

// erasureOutcome is what an erasure run in the background came to.
type erasureOutcome struct {
	erasure *leaderboard.Erasure
	err     error
}

// ErasePlayer erases as the service does, within the erasure's own
// deadline. When the request's deadline comes first, the erasure goes on
// and the request answers UNAVAILABLE: a later call waits for it, then
// finds what is left.
func (e loggedErasures) ErasePlayer(ctx context.Context, playerID, reason string) (*leaderboard.Erasure, error) {
	timeout := e.timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	runCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	done := make(chan erasureOutcome, 1)
	go func() {
		defer cancel()
		erasure, err := e.ErasureService.ErasePlayer(runCtx, playerID, reason)
		if err != nil {
			// The error's text may name the player: the log keeps its code.
			e.logger.WarnContext(runCtx, "erasure failed", "code", leaderboard.ErrorCode(err), "by", correctedBy(ctx))
		} else {
			e.logger.InfoContext(runCtx, "player erased", "erasure", erasure.ID, "periods", erasure.Periods,
				"corrected_periods", erasure.CorrectedPeriods, "by", correctedBy(ctx))
		}
		done <- erasureOutcome{erasure, err}
	}()
	select {
	case out := <-done:
		return out.erasure, out.err
	case <-ctx.Done():
		return nil, leaderboard.Errorf(leaderboard.EUNAVAILABLE,
			"the erasure goes on past this request's deadline: call erasePlayer again to see it finished")
	}
}
