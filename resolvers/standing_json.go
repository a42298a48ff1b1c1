package resolvers

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph/scalar"
)

// A standing is the hottest read: a player opens the event screen and asks
// for their rank and twenty neighbours, served from memory once the month is
// closed. gqlgen marshals every field of it through its generic machinery (a
// field context, a context value and @defer bookkeeping per field and
// object, a goroutine per list element), which cost more CPU than finding
// the standing. So a standing or myRank field whose selection holds only
// fields of Standing, RankEntry and Player (aliases and __typename too; no
// fragments, no directives, no repeated keys, valid neighbour counts) is
// answered by writeStandingsDirectly: the same resolver, then the JSON
// written in selection order with gqlgen's own scalar marshallers. That holds
// for every board and period: main's months, other boards' periods, and the
// current period when none is named; the resolver's own errors (an unknown
// board, a bad key, both period and month) are reported as gqlgen reports
// them. claimedAt is left to gqlgen: on a final standing its resolver reads
// the claims. Any other selection, and any argument gqlgen must report on,
// goes through gqlgen unchanged. standing_json_test.go holds the two to
// byte-identical answers.

// selection is a compiled selection set: the fields to write, in order.
type selection []selectedField

// selectedField is one field of a selection.
type selectedField struct {
	key          string    // the response key: the alias, or the field's name
	member       string    // key quoted as gqlgen quotes it, then a colon: written once per object
	name         string    // the schema field
	sub          selection // the selection of player and neighbours
	above, below int       // the counts of neighbours
}

// directFields maps each object type a direct answer writes to its fields,
// and each field to its own object type ("" for a scalar). ScoreResult's
// rank is left out: it is read by a loader per result, which gqlgen
// resolves for the whole list at once, so that the reads are batched (see
// submit_json.go). Standing's claimedAt is left out too: its resolver reads
// the claims (see claim_json.go).
var directFields = map[string]map[string]string{
	"Standing": {"month": "", "board": "", "period": "", "rank": "", "score": "", "reachedAt": "", "player": "Player",
		"subscore": "", "metadata": "", "percentile": "", "tier": "", "total": "", "final": "", "neighbours": "RankEntry",
		"__typename": ""},
	"RankEntry":   {"rank": "", "score": "", "reachedAt": "", "player": "Player", "subscore": "", "metadata": "", "__typename": ""},
	"Player":      {"id": "", "name": "", "__typename": ""},
	"ScoreResult": {"eventId": "", "status": "", "score": "", "error": "", "code": "", "month": "", "board": "", "period": "", "__typename": ""},
	"Claim":       {"status": "", "standing": "Standing", "claimedAt": "", "claimId": "", "__typename": ""},
	// groupStandings' entries (see group_json.go).
	"GroupStanding": {"groupRank": "", "standing": "Standing", "__typename": ""},
}

// compileSelection compiles set, a selection on type typ, or reports that it
// holds something only gqlgen answers.
func compileSelection(set ast.SelectionSet, typ string, vars map[string]any) (selection, bool) {
	out := make(selection, 0, len(set))
	for _, s := range set {
		f, ok := s.(*ast.Field)
		if !ok || len(f.Directives) > 0 {
			return nil, false
		}
		subType, known := directFields[typ][f.Name]
		if !known || repeatsKey(out, f.Alias) {
			return nil, false
		}
		field := selectedField{key: f.Alias, name: f.Name, member: memberName(f.Alias)}
		if f.Name == "neighbours" {
			if field.above, field.below, ok = neighbourArgs(f, vars); !ok {
				return nil, false
			}
		}
		if subType != "" {
			if field.sub, ok = compileSelection(f.SelectionSet, subType, vars); !ok {
				return nil, false
			}
		}
		out = append(out, field)
	}
	return out, true
}

// memberName returns key as a JSON object's member name, quoted as gqlgen
// quotes it, and the colon that follows: a group of 1,000 entries writes
// each key a thousand times.
func memberName(key string) string {
	var b strings.Builder
	graphql.MarshalString(key).MarshalGQL(&b)
	b.WriteByte(':')
	return b.String()
}

func repeatsKey(sel selection, key string) bool {
	for _, f := range sel {
		if f.key == key {
			return true
		}
	}
	return false
}

// neighbourArgs returns the counts a neighbours field asks for, as the
// neighbours resolver reads them, or false when gqlgen or the resolver would
// report an error on them.
func neighbourArgs(f *ast.Field, vars map[string]any) (above, below int, ok bool) {
	args := f.ArgumentMap(vars)
	count := func(name string) (int, bool) {
		var n *int
		if v := args[name]; v != nil {
			i, err := scalar.UnmarshalInt(v)
			if err != nil {
				return 0, false
			}
			n = &i
		}
		c, err := intArg(name, n, leaderboard.DefaultNeighbours, 0, leaderboard.MaxNeighbours)
		return c, err == nil
	}
	above, okAbove := count("above")
	below, okBelow := count("below")
	return above, below, okAbove && okBelow
}

// writeStandingsDirectly is a root field middleware: it answers the standing
// and myRank fields it can (see above) and passes every other to next.
func (r *Resolver) writeStandingsDirectly(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	root, opCtx := graphql.GetRootFieldContext(ctx), graphql.GetOperationContext(ctx)
	if root == nil || opCtx.Operation.Operation != ast.Query || len(root.Field.Directives) > 0 ||
		(root.Field.Name != "standing" && root.Field.Name != "myRank") {
		return next(ctx)
	}
	sel, ok := compileSelection(root.Field.Selections, "Standing", opCtx.Variables)
	if !ok {
		return next(ctx)
	}
	args, ok := rootArgs(root.Field, opCtx.Variables)
	if !ok {
		return next(ctx)
	}
	board, period, month := args["board"].(*string), args["period"].(*string), args["month"].(*leaderboard.Month)
	resolve := func(ctx context.Context) (any, error) { return r.Query().MyRank(ctx, board, period, month) }
	if root.Field.Name == "standing" {
		playerID := args["playerId"].(string)
		resolve = func(ctx context.Context) (any, error) {
			return r.Query().Standing(ctx, board, period, month, playerID)
		}
	}
	res, ok := resolveRootField(ctx, root.Field, "Query", args, resolve)
	s, _ := res.(*leaderboard.Standing)
	if !ok || s == nil {
		return graphql.Null
	}
	return graphql.WriterFunc(func(w io.Writer) { writeStanding(w, sel, s) })
}

// rootArgs reads the arguments of a standing or myRank field as gqlgen's
// generated code does, into the values it passes the resolver: board,
// period and month as pointers, nil when left out or null, and playerId on
// standing. ok is false when gqlgen would report an argument.
func rootArgs(field graphql.CollectedField, vars map[string]any) (args map[string]any, ok bool) {
	raw := field.ArgumentMap(vars)
	board, errBoard := optional(raw["board"], graphql.UnmarshalID)
	period, errPeriod := optional(raw["period"], graphql.UnmarshalString)
	month, errMonth := optional(raw["month"], scalar.UnmarshalMonth)
	if errBoard != nil || errPeriod != nil || errMonth != nil {
		return nil, false
	}
	args = map[string]any{"board": board, "period": period, "month": month}
	if field.Name == "standing" {
		playerID, err := graphql.UnmarshalID(raw["playerId"])
		if err != nil {
			return nil, false
		}
		args["playerId"] = playerID
	}
	return args, true
}

// optional reads an optional argument with unmarshal: nil when left out or
// null.
func optional[T any](v any, unmarshal func(any) (T, error)) (*T, error) {
	if v == nil {
		return nil, nil
	}
	t, err := unmarshal(v)
	return &t, err
}

// resolveRootField runs resolve as gqlgen runs a root field's resolver: in
// the field context gqlgen would have made (errors take their path from it,
// and the standing resolver reads the selection of neighbours from it),
// through the field middleware, with a panic or an error reported on the
// field. ok is false when the field's answer is null.
func resolveRootField(ctx context.Context, field graphql.CollectedField, object string, args map[string]any,
	resolve graphql.Resolver) (res any, ok bool) {
	opCtx := graphql.GetOperationContext(ctx)
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{
		Object: object, Field: field, Args: args, IsMethod: true, IsResolver: true,
	})
	defer func() {
		if p := recover(); p != nil {
			graphql.AddError(ctx, opCtx.Recover(ctx, p))
			res, ok = nil, false
		}
	}()
	res, err := opCtx.ResolverMiddleware(ctx, resolve)
	if err != nil {
		graphql.AddError(ctx, graphql.AddFieldLocationToError(ctx, err))
		return nil, false
	}
	return res, true
}

// writeStanding writes the JSON object of s for sel.
func writeStanding(w io.Writer, sel selection, s *leaderboard.Standing) {
	writeObject(w, sel, func(f selectedField) {
		switch f.name {
		case "month":
			scalar.MarshalMonth(s.Month).MarshalGQL(w)
		case "board":
			graphql.MarshalID(standingBoard(s)).MarshalGQL(w)
		case "period":
			graphql.MarshalString(standingPeriod(s)).MarshalGQL(w)
		case "percentile":
			// gqlgen's MarshalFloatContext writes as MarshalFloat does, and
			// fails only on infinities and NaN, which Percentile never returns.
			graphql.MarshalFloat(s.Percentile()).MarshalGQL(w)
		case "tier":
			writeOptionalString(w, s.Tier)
		case "total":
			writeInt(w, s.Total)
		case "final":
			// As graphql.MarshalBoolean writes it, without its closure.
			io.WriteString(w, strconv.FormatBool(s.Final))
		case "neighbours":
			io.WriteString(w, "[")
			for i, e := range s.Neighbours(f.above, f.below) {
				if i > 0 {
					io.WriteString(w, ",")
				}
				writeRankEntry(w, f.sub, &e)
			}
			io.WriteString(w, "]")
		case "__typename":
			graphql.MarshalString("Standing").MarshalGQL(w)
		default:
			writeRankEntryField(w, f, &s.RankEntry)
		}
	})
}

// writeRankEntry writes the JSON object of e for sel.
func writeRankEntry(w io.Writer, sel selection, e *leaderboard.RankEntry) {
	writeObject(w, sel, func(f selectedField) {
		if f.name == "__typename" {
			graphql.MarshalString("RankEntry").MarshalGQL(w)
			return
		}
		writeRankEntryField(w, f, e)
	})
}

// writeRankEntryField writes the value of a field Standing shares with
// RankEntry.
func writeRankEntryField(w io.Writer, f selectedField, e *leaderboard.RankEntry) {
	switch f.name {
	case "rank":
		writeInt(w, e.Rank)
	case "score":
		writeInt(w, e.Score)
	case "reachedAt":
		scalar.MarshalTime(e.ReachedAt).MarshalGQL(w)
	case "subscore":
		writeOptionalInt(w, e.Subscore)
	case "metadata":
		scalar.MarshalJSON(e.Metadata).MarshalGQL(w)
	case "player":
		writeObject(w, f.sub, func(f selectedField) {
			switch f.name {
			case "id":
				graphql.MarshalID(e.Player.ID).MarshalGQL(w)
			case "name":
				writeOptionalString(w, e.Player.Name)
			case "__typename":
				graphql.MarshalString("Player").MarshalGQL(w)
			}
		})
	}
}

// writeObject writes a JSON object of sel's keys, each value written by
// value.
func writeObject(w io.Writer, sel selection, value func(selectedField)) {
	io.WriteString(w, "{")
	for i, f := range sel {
		if i > 0 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, f.member)
		value(f)
	}
	io.WriteString(w, "}")
}

// writeInt writes n. gqlgen writes an answer into a bytes.Buffer, where n's
// digits are appended in place, without an allocation.
func writeInt(w io.Writer, n int) {
	if b, ok := w.(*bytes.Buffer); ok {
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(n), 10))
		return
	}
	io.WriteString(w, strconv.Itoa(n))
}

// writeOptionalInt writes n, or null.
func writeOptionalInt(w io.Writer, n *int) {
	if n == nil {
		io.WriteString(w, "null")
		return
	}
	writeInt(w, *n)
}

// writeOptionalString writes s as a GraphQL String, or null.
func writeOptionalString(w io.Writer, s *string) {
	if s == nil {
		io.WriteString(w, "null")
		return
	}
	graphql.MarshalString(*s).MarshalGQL(w)
}
