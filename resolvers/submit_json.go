package resolvers

import (
	"context"
	"io"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph/scalar"
)

// Game servers submit scores in batches of up to 1000 events, and gqlgen
// decodes each event and marshals each result through its generic
// machinery (a path context per input field; a goroutine, a field context
// and @defer bookkeeping per result), which costs a call more CPU than its
// share of the database work. So a submitScores field whose selection holds
// only ScoreResult's own fields (no rank, see directFields; aliases and
// __typename too; no fragments, no directives, no repeated keys) is answered
// by writeSubmitsDirectly: the events read from the arguments gqlgen has
// validated, the same resolver, then the results written in selection
// order with gqlgen's own scalar marshallers. Any other selection, and any
// argument that does not read back as events, goes through gqlgen
// unchanged. submit_json_test.go holds the two to byte-identical answers.

// writeSubmitsDirectly is a root field middleware: it answers the
// submitScores fields it can (see above) and passes every other to next.
func (r *Resolver) writeSubmitsDirectly(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	root, opCtx := graphql.GetRootFieldContext(ctx), graphql.GetOperationContext(ctx)
	if root == nil || opCtx.Operation.Operation != ast.Mutation || len(root.Field.Directives) > 0 ||
		root.Field.Name != "submitScores" {
		return next(ctx)
	}
	sel, ok := compileSelection(root.Field.Selections, "ScoreResult", opCtx.Variables)
	if !ok {
		return next(ctx)
	}
	events, ok := scoreEventsArg(root.Field.ArgumentMap(opCtx.Variables)["events"])
	if !ok {
		return next(ctx)
	}
	res, ok := resolveRootField(ctx, root.Field, "Mutation", map[string]any{"events": events},
		func(ctx context.Context) (any, error) { return r.Mutation().SubmitScores(ctx, events) })
	if !ok {
		return graphql.Null
	}
	results, _ := res.([]leaderboard.ScoreResult)
	return graphql.WriterFunc(func(w io.Writer) { writeScoreResults(w, sel, results) })
}

// scoreEventsArg reads the events argument as gqlgen's generated code
// would, or reports that it does not read back (gqlgen then reports why).
func scoreEventsArg(v any) ([]leaderboard.ScoreEvent, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	events := make([]leaderboard.ScoreEvent, len(list))
	for i, item := range list {
		fields, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		if events[i], ok = scoreEventArg(fields); !ok {
			return nil, false
		}
	}
	return events, true
}

// scoreEventArg reads one ScoreEvent input object.
func scoreEventArg(fields map[string]any) (leaderboard.ScoreEvent, bool) {
	var (
		e   leaderboard.ScoreEvent
		err error
	)
	for k, v := range fields {
		switch k {
		case "eventId":
			e.EventID, err = graphql.UnmarshalID(v)
		case "playerId":
			e.PlayerID, err = graphql.UnmarshalID(v)
		case "playerName":
			if v != nil {
				var name string
				name, err = graphql.UnmarshalString(v)
				e.PlayerName = &name
			}
		case "mode":
			e.Mode, err = scalar.UnmarshalScoreMode(v)
		case "value":
			e.Value, err = scalar.UnmarshalInt(v)
		case "occurredAt":
			if v != nil {
				var t time.Time
				t, err = scalar.UnmarshalTime(v)
				e.OccurredAt = &t
			}
		case "board":
			if v != nil {
				e.Board, err = graphql.UnmarshalID(v)
			}
		case "subscore":
			if v != nil {
				var n int
				n, err = scalar.UnmarshalInt(v)
				e.Subscore = &n
			}
		case "metadata":
			if v != nil {
				e.Metadata, err = scalar.UnmarshalJSON(v)
			}
		default:
			return e, false
		}
		if err != nil {
			return e, false
		}
	}
	return e, true
}

// writeScoreResults writes the JSON list of results for sel.
func writeScoreResults(w io.Writer, sel selection, results []leaderboard.ScoreResult) {
	io.WriteString(w, "[")
	for i := range results {
		if i > 0 {
			io.WriteString(w, ",")
		}
		res := &results[i]
		writeObject(w, sel, func(f selectedField) {
			switch f.name {
			case "eventId":
				graphql.MarshalID(res.EventID).MarshalGQL(w)
			case "status":
				graphql.MarshalString(string(res.Status)).MarshalGQL(w)
			case "score":
				writeOptionalInt(w, res.Score)
			case "error", "code":
				writeErrorField(w, f.name, res.Err)
			case "month":
				if res.Month.IsZero() {
					io.WriteString(w, "null")
				} else {
					scalar.MarshalMonth(res.Month).MarshalGQL(w)
				}
			case "board":
				board := res.Board
				if board == "" {
					board = leaderboard.MainBoard
				}
				graphql.MarshalID(board).MarshalGQL(w)
			case "period":
				switch {
				case res.Period != "":
					graphql.MarshalString(res.Period).MarshalGQL(w)
				case !res.Month.IsZero():
					graphql.MarshalString(res.Month.String()).MarshalGQL(w)
				default:
					io.WriteString(w, "null")
				}
			case "__typename":
				graphql.MarshalString("ScoreResult").MarshalGQL(w)
			}
		})
	}
	io.WriteString(w, "]")
}

// writeErrorField writes a rejected result's error message or code, or
// null.
func writeErrorField(w io.Writer, name string, err *leaderboard.Error) {
	switch {
	case err == nil:
		io.WriteString(w, "null")
	case name == "code":
		graphql.MarshalString(err.Code).MarshalGQL(w)
	default:
		graphql.MarshalString(err.Message).MarshalGQL(w)
	}
}
