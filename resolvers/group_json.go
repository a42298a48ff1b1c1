package resolvers

import (
	"bytes"
	"context"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph/model"
	"github.com/gamebackend/leaderboard/graph/scalar"
)

// A friends board is up to 1,000 standings in one answer, and gqlgen
// marshals each through its generic machinery and a goroutine per list
// element: 200 entries cost 13 to 23 ms of CPU (BenchmarkGroupStandingsRequest),
// a hundred times the read from memory. So a groupStandings field whose
// selection holds only GroupStanding's fields and a standing of plain
// Standing fields (as standing_json.go writes them: aliases and __typename
// too; no fragments, no directives, no repeated keys, no claimedAt) is
// answered by writeGroupsDirectly: the arguments gqlgen has validated, the
// same resolver, then the JSON written in selection order with the standing
// writer of standing_json.go. Any other selection, and any argument that
// does not read back, goes through gqlgen unchanged. groups_test.go holds
// the two to byte-identical answers.

// writeGroupsDirectly is a root field middleware: it answers the
// groupStandings fields it can (see above) and passes every other to next.
func (r *Resolver) writeGroupsDirectly(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	root, opCtx := graphql.GetRootFieldContext(ctx), graphql.GetOperationContext(ctx)
	if root == nil || opCtx.Operation.Operation != ast.Query || len(root.Field.Directives) > 0 ||
		root.Field.Name != "groupStandings" {
		return next(ctx)
	}
	sel, ok := compileSelection(root.Field.Selections, "GroupStanding", opCtx.Variables)
	if !ok {
		return next(ctx)
	}
	args, ok := groupArgs(root.Field.ArgumentMap(opCtx.Variables))
	if !ok {
		return next(ctx)
	}
	board, period, month, ids := args["board"].(*string), args["period"].(*string), args["month"].(*leaderboard.Month),
		args["playerIds"].([]string)
	var failure error
	res, ok := resolveRootField(ctx, root.Field, "Query", args, func(ctx context.Context) (any, error) {
		group, err := r.Query().GroupStandings(ctx, board, period, month, ids)
		failure = err
		return group, nil
	})
	if failure != nil {
		// The field is non-null, so its error nulls the whole data, which
		// only gqlgen's own code for the field does: it reports the error,
		// which the resolver hands it again (see resolvedFailure).
		return next(context.WithValue(ctx, resolvedFailure{}, failure))
	}
	if !ok {
		return graphql.Null
	}
	group, _ := res.([]model.GroupStanding)
	return graphql.WriterFunc(func(w io.Writer) { writeGroup(w, sel, group) })
}

// resolvedFailure carries, in the context of a groupStandings field, the
// error its resolver returned in writeGroupsDirectly: the resolver returns
// it again at once when gqlgen runs the field to report it.
type resolvedFailure struct{}

// failureResolved returns the error ctx carries as resolvedFailure, if any.
func failureResolved(ctx context.Context) error {
	err, _ := ctx.Value(resolvedFailure{}).(error)
	return err
}

// groupArgs reads the arguments of a groupStandings field as gqlgen's
// generated code does, or reports that they do not read back (gqlgen then
// reports why).
func groupArgs(raw map[string]any) (map[string]any, bool) {
	board, errBoard := optional(raw["board"], graphql.UnmarshalID)
	period, errPeriod := optional(raw["period"], graphql.UnmarshalString)
	month, errMonth := optional(raw["month"], scalar.UnmarshalMonth)
	list, isList := raw["playerIds"].([]any)
	if errBoard != nil || errPeriod != nil || errMonth != nil || !isList {
		return nil, false
	}
	ids := make([]string, len(list))
	for i, v := range list {
		id, err := graphql.UnmarshalID(v)
		if err != nil {
			return nil, false
		}
		ids[i] = id
	}
	return map[string]any{"board": board, "period": period, "month": month, "playerIds": ids}, true
}

// writeGroup writes the JSON list of group for sel, a selection of
// GroupStanding.
func writeGroup(w io.Writer, sel selection, group []model.GroupStanding) {
	io.WriteString(w, "[")
	buf, _ := w.(*bytes.Buffer)
	for i := range group {
		if i > 0 {
			io.WriteString(w, ",")
		}
		if i == 1 && buf != nil {
			// The entries are of about one size: room for all of them at
			// once, not the buffer doubled ten times on the way.
			buf.Grow((len(group) - 1) * (buf.Len() + 1))
		}
		g := &group[i]
		writeObject(w, sel, func(f selectedField) {
			switch f.name {
			case "groupRank":
				writeInt(w, g.GroupRank)
			case "standing":
				writeStanding(w, f.sub, g.Standing)
			case "__typename":
				graphql.MarshalString("GroupStanding").MarshalGQL(w)
			}
		})
	}
	io.WriteString(w, "]")
}
