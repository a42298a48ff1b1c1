package resolvers

import (
	"context"
	"encoding/json"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
)

// intArg returns *v, or def when the argument was null, and an EBADINPUT
// error when the value is outside lo..hi.
func intArg(name string, v *int, def, lo, hi int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "%s must be %d..%d, got %d", name, lo, hi, *v)
	}
	return *v, nil
}

// neighbourCounts returns the most neighbours above and below that any
// selection of Standing.neighbours in this field asks for, so that the
// standing and all its neighbours are read from one snapshot. Out-of-range
// arguments are left to the neighbours resolver to report.
func neighbourCounts(ctx context.Context) (above, below int) {
	opCtx := graphql.GetOperationContext(ctx)
	for _, f := range graphql.CollectFieldsCtx(ctx, []string{"Standing"}) {
		if f.Name != "neighbours" {
			continue
		}
		args := f.ArgumentMap(opCtx.Variables)
		above = max(above, clampedCount(args["above"]))
		below = max(below, clampedCount(args["below"]))
	}
	return above, below
}

// readingFields returns ctx for the reads of the field being resolved:
// marked leaderboard.WithoutMetadata unless the field selects metadata
// somewhere below it (through fragments too), so that a query that does not
// ask for metadata does not carry up to 1 KB of it a row, and
// leaderboard.WithoutNeighbourSubscores unless it selects subscore, so that
// a standing's neighbours may be read from the index alone.
func readingFields(ctx context.Context) context.Context {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil {
		return ctx
	}
	if !selectsField(fc.Field.Selections, "metadata") {
		ctx = leaderboard.WithoutMetadata(ctx)
	}
	if !selectsField(fc.Field.Selections, "subscore") {
		ctx = leaderboard.WithoutNeighbourSubscores(ctx)
	}
	return ctx
}

// selectsField reports whether set selects a field of that name at any
// depth, aliased or not, under any directive.
func selectsField(set ast.SelectionSet, name string) bool {
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			if sel.Name == name || selectsField(sel.SelectionSet, name) {
				return true
			}
		case *ast.InlineFragment:
			if selectsField(sel.SelectionSet, name) {
				return true
			}
		case *ast.FragmentSpread:
			if sel.Definition == nil || selectsField(sel.Definition.SelectionSet, name) {
				return true
			}
		}
	}
	return false
}

func clampedCount(v any) int {
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case int:
		n = int64(v)
	case json.Number:
		var err error
		if n, err = v.Int64(); err != nil {
			return leaderboard.DefaultNeighbours
		}
	default:
		return leaderboard.DefaultNeighbours
	}
	return int(min(max(n, 0), leaderboard.MaxNeighbours))
}

// timeArg returns an EBADINPUT error when a Time argument did not parse:
// the Time scalar reads a bad value as the zero time (so that a bad
// occurredAt rejects its own event only), which no other argument takes.
func timeArg(name string, t *time.Time) error {
	if t != nil && t.IsZero() {
		return leaderboard.Errorf(leaderboard.EBADINPUT, "%s must be an RFC 3339 time within the years 0001..9999, such as 2026-12-01T00:00:00Z", name)
	}
	return nil
}

// requireRole returns the caller when it holds one of roles, as
// auth.RequireFor does, its errors naming the field being resolved (the
// operation, for a root field) and the token it needs.
func requireRole(ctx context.Context, roles ...leaderboard.Role) (leaderboard.Principal, error) {
	operation := "this operation"
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Field.Field != nil {
		operation = fc.Field.Name
	}
	return auth.RequireFor(ctx, operation, roles...)
}
