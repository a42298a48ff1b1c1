// Package loaders batches the per-field reads of one GraphQL request: every
// player name and every live rank the request asks for is read with one query
// per kind, however many rows the answer has.
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
	players   *dataloadgen.Loader[string, leaderboard.Player]
	liveRanks *dataloadgen.Loader[leaderboard.PlayerMonth, int]
}

// New returns fresh loaders reading through the given services.
func New(players leaderboard.PlayerService, ranks leaderboard.RankService) *Loaders {
	return &Loaders{
		players:   dataloadgen.NewMappedLoader(players.Players, dataloadgen.WithWait(wait)),
		liveRanks: dataloadgen.NewMappedLoader(ranks.LiveRanks, dataloadgen.WithWait(wait)),
	}
}

type loadersKey struct{}

// Middleware gives every request fresh loaders, so nothing is cached across
// requests.
func Middleware(players leaderboard.PlayerService, ranks leaderboard.RankService) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := context.WithValue(r.Context(), loadersKey{}, New(players, ranks))
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// For returns the request's loaders. It panics when Middleware did not run,
// which is a wiring mistake, not a runtime condition.
func For(ctx context.Context) *Loaders {
	return ctx.Value(loadersKey{}).(*Loaders)
}

// Player returns the player with the given id; a player the store does not
// know is returned with its id only.
func (l *Loaders) Player(ctx context.Context, id string) (leaderboard.Player, error) {
	p, err := l.players.Load(ctx, id)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return leaderboard.Player{ID: id}, nil
	}
	return p, err
}

// PrimePlayers caches players that a top-level read already fetched, so that
// resolving them reads nothing more.
func (l *Loaders) PrimePlayers(players []leaderboard.Player) {
	for _, p := range players {
		l.players.Prime(p.ID, p)
	}
}

// LiveRank returns the player's current rank in the month, or nil when the
// player has no score there.
func (l *Loaders) LiveRank(ctx context.Context, key leaderboard.PlayerMonth) (*int, error) {
	rank, err := l.liveRanks.Load(ctx, key)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &rank, nil
}
