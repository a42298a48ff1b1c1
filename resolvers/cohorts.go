package resolvers

import (
	"context"
	"errors"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/gamebackend/leaderboard"
)

// cohortLoader batches the cohorts the standings of one operation ask for:
// a group of 1,000 standings on a league board reads its cohorts in one
// statement a period, not one each.
type cohortLoader = dataloadgen.Loader[leaderboard.PeriodPlayer, *leaderboard.CohortRef]

// cohortLoaderKey holds an operation's cohortLoader in its context.
type cohortLoaderKey struct{}

// withCohortLoader gives every operation a fresh cohortLoader: nothing is
// kept across operations. gqlgen resolves a list's fields concurrently, so
// a group's cohorts all arrive within the loader's wait.
func (r *Resolver) withCohortLoader(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	l := dataloadgen.NewMappedLoader(r.cohortsOf, dataloadgen.WithWait(time.Millisecond))
	return next(context.WithValue(ctx, cohortLoaderKey{}, l))
}

// cohortsOf reads the cohorts of keys, one CohortsOf a board's period;
// keys without a cohort are left out.
func (r *Resolver) cohortsOf(ctx context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]*leaderboard.CohortRef, error) {
	type period struct{ board, key string }
	players := map[period][]string{}
	for _, k := range keys {
		p := period{k.Board, k.Period}
		players[p] = append(players[p], k.PlayerID)
	}
	out := make(map[leaderboard.PeriodPlayer]*leaderboard.CohortRef, len(keys))
	for p, ids := range players {
		b, err := r.BoardService.Board(ctx, p.board)
		if err != nil {
			return nil, err
		} else if b == nil {
			continue
		}
		refs, err := r.CohortService.CohortsOf(ctx, b, p.key, ids)
		if err != nil {
			return nil, err
		}
		for id, ref := range refs {
			out[leaderboard.PeriodPlayer{Board: p.board, Period: p.key, PlayerID: id}] = ref
		}
	}
	return out, nil
}

// cohortOf returns the cohort of the player of s in its period, through the
// operation's cohortLoader; nil when there is none.
func cohortOf(ctx context.Context, s *leaderboard.Standing) (*leaderboard.CohortRef, error) {
	l := ctx.Value(cohortLoaderKey{}).(*cohortLoader)
	ref, err := l.Load(ctx, leaderboard.PeriodPlayer{Board: standingBoard(s), Period: standingPeriod(s), PlayerID: s.Player.ID})
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	}
	return ref, err
}
