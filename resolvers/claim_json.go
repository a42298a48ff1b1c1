package resolvers

import (
	"context"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph/scalar"
)

// Game servers claim rewards one call per grant, thousands a second, and
// gqlgen marshals each answer through its generic machinery (a field
// context, a context value and @defer bookkeeping per field and object),
// which cost the service more CPU a claim than PostgreSQL spends on it. So a
// claimReward field whose selection holds only Claim's own fields and a
// standing of plain Standing fields (aliases and __typename too; no
// fragments, no directives, no repeated keys, no claimedAt on the standing:
// its resolver reads the claims) is answered by writeClaimsDirectly: the
// arguments gqlgen has validated, the same resolver, then the JSON written
// in selection order with gqlgen's own scalar marshallers and the standing
// writer of standing_json.go. Any other selection, and any argument that
// does not read back, goes through gqlgen unchanged. claim_json_test.go
// holds the two to byte-identical answers.

// writeClaimsDirectly is a root field middleware: it answers the
// claimReward fields it can (see above) and passes every other to next.
func (r *Resolver) writeClaimsDirectly(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	root, opCtx := graphql.GetRootFieldContext(ctx), graphql.GetOperationContext(ctx)
	if root == nil || opCtx.Operation.Operation != ast.Mutation || len(root.Field.Directives) > 0 ||
		root.Field.Name != "claimReward" {
		return next(ctx)
	}
	sel, ok := compileSelection(root.Field.Selections, "Claim", opCtx.Variables)
	if !ok {
		return next(ctx)
	}
	args, ok := claimArgs(root.Field.ArgumentMap(opCtx.Variables))
	if !ok {
		return next(ctx)
	}
	board, period, playerID, claimID := args["board"].(string), args["period"].(string),
		args["playerId"].(string), args["claimId"].(string)
	res, ok := resolveRootField(ctx, root.Field, "Mutation", args, func(ctx context.Context) (any, error) {
		return r.Mutation().ClaimReward(ctx, board, period, playerID, claimID)
	})
	if !ok {
		return graphql.Null
	}
	claim, _ := res.(*leaderboard.Claim)
	if claim == nil {
		graphql.AddErrorf(graphql.WithFieldContext(ctx, &graphql.FieldContext{
			Object: "Mutation", Field: root.Field, Args: args, IsMethod: true, IsResolver: true,
		}), "the requested element is null which the schema does not allow")
		return graphql.Null
	}
	return graphql.WriterFunc(func(w io.Writer) { writeClaim(w, sel, claim) })
}

// claimArgs reads the arguments of a claimReward field as gqlgen's
// generated code does, into the strings it passes the resolver, or reports
// that they do not read back (gqlgen then reports why).
func claimArgs(raw map[string]any) (map[string]any, bool) {
	board, errBoard := graphql.UnmarshalID(raw["board"])
	period, errPeriod := graphql.UnmarshalString(raw["period"])
	playerID, errPlayer := graphql.UnmarshalID(raw["playerId"])
	claimID, errClaim := graphql.UnmarshalID(raw["claimId"])
	if errBoard != nil || errPeriod != nil || errPlayer != nil || errClaim != nil {
		return nil, false
	}
	return map[string]any{"board": board, "period": period, "playerId": playerID, "claimId": claimID}, true
}

// writeClaim writes the JSON object of c for sel.
func writeClaim(w io.Writer, sel selection, c *leaderboard.Claim) {
	writeObject(w, sel, func(f selectedField) {
		switch f.name {
		case "status":
			graphql.MarshalString(string(c.Status)).MarshalGQL(w)
		case "standing":
			if c.Standing == nil {
				io.WriteString(w, "null")
			} else {
				writeStanding(w, f.sub, c.Standing)
			}
		case "claimedAt":
			if c.ClaimedAt == nil {
				io.WriteString(w, "null")
			} else {
				scalar.MarshalTime(*c.ClaimedAt).MarshalGQL(w)
			}
		case "claimId":
			if c.ClaimID == nil {
				io.WriteString(w, "null")
			} else {
				graphql.MarshalID(*c.ClaimID).MarshalGQL(w)
			}
		case "__typename":
			graphql.MarshalString("Claim").MarshalGQL(w)
		}
	})
}
