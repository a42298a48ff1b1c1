package resolvers

import (
	"context"
	"slices"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/gamebackend/leaderboard"
)

// Observer is told what the GraphQL API did, for metrics. Any field may be
// nil.
type Observer struct {
	// Operation is told each answered operation: its first root field
	// (bounded by the schema, unlike client-chosen operation names), its
	// error codes ("" for none, each at most once) and how long it took.
	Operation func(field string, codes []string, took time.Duration)
	// Events is told, per submitScores call, how many events got each
	// status, and for REJECTED each error code.
	Events func(status leaderboard.ScoreStatus, code string, n int)
}

// observeOperations reports each response to o.Operation.
func observeOperations(o Observer) graphql.ResponseMiddleware {
	return func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		start := time.Now()
		resp := next(ctx)
		if o.Operation == nil || !graphql.HasOperationContext(ctx) {
			return resp
		}
		oc := graphql.GetOperationContext(ctx)
		field := "unknown"
		if oc.Operation != nil {
			if fields := graphql.CollectFields(oc, oc.Operation.SelectionSet, nil); len(fields) > 0 {
				field = fields[0].Name
			}
		}
		codes := []string{}
		if resp != nil {
			for _, e := range resp.Errors {
				if code, ok := e.Extensions["code"].(string); ok && !slices.Contains(codes, code) {
					codes = append(codes, code)
				}
			}
		}
		o.Operation(field, codes, time.Since(start))
		return resp
	}
}

// observeEvents reports the outcome of one submitScores call.
func (r *Resolver) observeEvents(results []leaderboard.ScoreResult) {
	if r.Observer.Events == nil {
		return
	}
	type key struct {
		status leaderboard.ScoreStatus
		code   string
	}
	counts := map[key]int{}
	for _, res := range results {
		k := key{status: res.Status}
		if res.Err != nil {
			k.code = res.Err.Code
		}
		counts[k]++
	}
	for k, n := range counts {
		r.Observer.Events(k.status, k.code, n)
	}
}
