// Package loaders batches the per-field reads of one GraphQL request: every
// live rank a submit's results ask for, on any board, is read in one call of
// the RankService, however many results there are. (Players need no loader:
// every rank entry is read with its player's name.)
package loaders

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/gamebackend/leaderboard"
)

// wait is how long a loader collects keys before it queries. gqlgen resolves
// the fields of a list concurrently, so they all arrive well within it.
const wait = time.Millisecond

// Loaders holds one request's loaders.
type Loaders struct {
	liveRanks *dataloadgen.Loader[leaderboard.PeriodPlayer, int]
}

// New returns fresh loaders reading through the given service.
func New(ranks leaderboard.RankService) *Loaders {
	return &Loaders{liveRanks: dataloadgen.NewMappedLoader(ranks.LiveRanks, dataloadgen.WithWait(wait))}
}

type loadersKey struct{}

// Middleware gives every request fresh loaders, so nothing is cached across
// requests.
func Middleware(ranks leaderboard.RankService) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := context.WithValue(r.Context(), loadersKey{}, New(ranks))
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// For returns the request's loaders. It panics when Middleware did not run,
// which is a wiring mistake, not a runtime condition.
func For(ctx context.Context) *Loaders {
	return ctx.Value(loadersKey{}).(*Loaders)
}

// LiveRank returns the player's current rank in the board's period, or nil
// when the player has no score there.
func (l *Loaders) LiveRank(ctx context.Context, key leaderboard.PeriodPlayer) (*int, error) {
	rank, err := l.liveRanks.Load(ctx, key)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &rank, nil
}
