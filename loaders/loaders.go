// Package loaders batches the per-field reads of one GraphQL request: every
// live rank a submit's results ask for, on any board, is read in one call of
// the RankService, and every cohort the standings of a league board ask for
// in one call of the CohortService a period, however many there are.
// (Players need no loader: every rank entry is read with its player's name.)
package loaders

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/gamebackend/leaderboard"
)

// defaultWait is how long a loader collects keys before it queries, unless
// Sources says otherwise. gqlgen resolves the fields of a list concurrently,
// so they all arrive well within it.
const defaultWait = time.Millisecond

// Sources are the services the loaders read through.
type Sources struct {
	Ranks leaderboard.RankService
	// Boards finds the board of a cohort's period; Cohorts reads the
	// cohorts. Without Cohorts, no standing has a cohort.
	Boards  leaderboard.BoardService
	Cohorts leaderboard.CohortService
	// Wait is how long a loader collects keys before it queries; zero is a
	// millisecond.
	Wait time.Duration
}

// Loaders holds one request's loaders.
type Loaders struct {
	liveRanks *dataloadgen.Loader[leaderboard.PeriodPlayer, int]
	cohorts   *dataloadgen.Loader[leaderboard.PeriodPlayer, *leaderboard.CohortRef]
}

// New returns fresh loaders reading through sources.
func New(sources Sources) *Loaders {
	wait := sources.Wait
	if wait <= 0 {
		wait = defaultWait
	}
	return &Loaders{
		liveRanks: dataloadgen.NewMappedLoader(sources.Ranks.LiveRanks, dataloadgen.WithWait(wait)),
		cohorts:   dataloadgen.NewMappedLoader(sources.cohortsOf, dataloadgen.WithWait(wait)),
	}
}

type loadersKey struct{}

// Middleware gives every request fresh loaders, so nothing is cached across
// requests.
func Middleware(sources Sources) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := context.WithValue(r.Context(), loadersKey{}, New(sources))
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

// Cohort returns the player's cohort in the board's period, or nil when
// the player has none there.
func (l *Loaders) Cohort(ctx context.Context, key leaderboard.PeriodPlayer) (*leaderboard.CohortRef, error) {
	ref, err := l.cohorts.Load(ctx, key)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	}
	return ref, err
}

// cohortsOf reads the cohorts of keys, one CohortsOf a board's period; keys
// without a cohort are left out.
func (s Sources) cohortsOf(ctx context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]*leaderboard.CohortRef, error) {
	out := make(map[leaderboard.PeriodPlayer]*leaderboard.CohortRef, len(keys))
	if s.Cohorts == nil {
		return out, nil
	}
	type period struct{ board, key string }
	players := map[period][]string{}
	for _, k := range keys {
		p := period{k.Board, k.Period}
		players[p] = append(players[p], k.PlayerID)
	}
	for p, ids := range players {
		b, err := s.Boards.Board(ctx, p.board)
		if err != nil {
			return nil, err
		} else if b == nil {
			continue
		}
		refs, err := s.Cohorts.CohortsOf(ctx, b, p.key, ids)
		if err != nil {
			return nil, err
		}
		for id, ref := range refs {
			out[leaderboard.PeriodPlayer{Board: p.board, Period: p.key, PlayerID: id}] = ref
		}
	}
	return out, nil
}
