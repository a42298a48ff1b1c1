package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph"
)

// Limits bound the work of one request, checked before any of it is done:
// the query text before it is parsed, its tokens while it is parsed (so the
// validation that follows, quadratic in repeated fields, stays small), and
// its cost, root fields and submissions once it is validated. Zero values
// take the defaults.
type Limits struct {
	MaxQueryBytes int // length of the query text (default 16 KiB); events travel in variables
	MaxTokens     int // parser tokens (default 2,000)
	MaxCost       int // cost, in which list fields count their size (default 10,000)
	MaxRootFields int // fields at the top of an operation, aliases included (default 10)
}

func (l Limits) withDefaults() Limits {
	l.MaxQueryBytes = cmpOr(l.MaxQueryBytes, 16<<10)
	l.MaxTokens = cmpOr(l.MaxTokens, 2000)
	l.MaxCost = cmpOr(l.MaxCost, 10_000)
	l.MaxRootFields = cmpOr(l.MaxRootFields, 10)
	return l
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// limitsExtension refuses a request over Limits with BAD_USER_INPUT.
type limitsExtension struct{ limits Limits }

var (
	_ graphql.HandlerExtension          = limitsExtension{}
	_ graphql.OperationParameterMutator = limitsExtension{}
	_ graphql.OperationContextMutator   = limitsExtension{}
)

// ExtensionName names the extension in gqlgen's errors.
func (limitsExtension) ExtensionName() string { return "RequestLimits" }

// Validate accepts every schema.
func (limitsExtension) Validate(graphql.ExecutableSchema) error { return nil }

// badInput is a request error coded BAD_USER_INPUT.
func badInput(format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	err.Extensions = map[string]any{"code": leaderboard.EBADINPUT}
	return err
}

// MutateOperationParameters refuses a query text over MaxQueryBytes before
// it is parsed.
func (e limitsExtension) MutateOperationParameters(_ context.Context, params *graphql.RawParams) *gqlerror.Error {
	if len(params.Query) > e.limits.MaxQueryBytes {
		return badInput("the query is %d bytes, over the limit of %d: send values as variables", len(params.Query), e.limits.MaxQueryBytes)
	}
	return nil
}

// MutateOperationContext refuses an operation with more root fields than
// MaxRootFields, or more than one submitScores.
func (e limitsExtension) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	fields := graphql.CollectFields(oc, oc.Operation.SelectionSet, nil)
	if len(fields) > e.limits.MaxRootFields {
		return badInput("the operation selects %d root fields, over the limit of %d", len(fields), e.limits.MaxRootFields)
	}
	submits := 0
	for _, f := range fields {
		if f.Name == "submitScores" {
			submits++
		}
	}
	if submits > 1 {
		return badInput("an operation may call submitScores once, not %d times: put the events in one call", submits)
	}
	return nil
}

// complexity is the cost model: a field costs one plus its selection, and a
// list field its selection times the entries it may return. maxGroup is the
// most ids a groupStandings takes.
func complexity(maxGroup int) graph.ComplexityRoot {
	var c graph.ComplexityRoot
	c.Query.Leaderboard = func(child int, _, _ *string, _ *leaderboard.Month, first *int, _ *string) int {
		return 1 + child*listSize(first, 100, leaderboard.MaxPageSize)
	}
	c.Query.Months = func(child int, first *int) int { return 1 + child*listSize(first, 12, leaderboard.MaxMonths) }
	c.Query.Corrections = func(child int, _, _ *string, _ *leaderboard.Month) int { return 1 + child*100 }
	c.Standing.Neighbours = func(child int, above, below *int) int {
		return 1 + child*(listSize(above, leaderboard.DefaultNeighbours, leaderboard.MaxNeighbours)+
			listSize(below, leaderboard.DefaultNeighbours, leaderboard.MaxNeighbours))
	}
	// As with submitScores, a group over its limit costs what a full one
	// does: the resolver refuses it with the limit in the message.
	c.Query.GroupStandings = func(child int, _, _ *string, _ *leaderboard.Month, playerIDs []string) int {
		return groupCost(child, len(playerIDs), maxGroup)
	}
	// A call over MaxBatch events costs what a full one does: the resolver
	// refuses it with the batch's limit in the message, which a cost error
	// would hide.
	c.Mutation.SubmitScores = func(child int, events []leaderboard.ScoreEvent) int {
		return 1 + child*min(len(events), leaderboard.MaxBatch)
	}
	c.Query.UnclaimedRewards = func(child int, _ string, first *int) int {
		return 1 + child*listSize(first, leaderboard.DefaultUnclaimedRewards, leaderboard.MaxUnclaimedRewards)
	}
	c.Query.Boards = func(child int, first *int, _ *string) int {
		return 1 + child*listSize(first, 50, leaderboard.MaxBoards)
	}
	// A board's status, current period and periods each read the database.
	c.Board.Status = func(int) int { return boardRead }
	c.Board.Current = func(child int) int { return boardRead + child }
	c.Board.Periods = func(child int, first *int) int {
		return boardRead + child*listSize(first, 12, leaderboard.MaxMonths)
	}
	return c
}

// groupCost is the cost of a groupStandings of ids ids whose entries cost
// child each.
func groupCost(child, ids, maxGroup int) int {
	return 1 + child*((min(ids, maxGroup)+groupEntriesPerCost-1)/groupEntriesPerCost)
}

// groupCosting is the executable schema with groupStandings costed by the
// length of its id list as it came: gqlgen's generated Complexity
// unmarshals a field's arguments before it calls the cost model, a path
// and a context per element of a list, a quarter of the allocations of a
// groupStandings of 200 ids. An id list that is not a list (one id, which
// GraphQL takes as a list of one) goes to the generated code.
type groupCosting struct {
	graphql.ExecutableSchema
	maxGroup int
}

// Complexity returns the cost of a field.
func (s groupCosting) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if typeName == "Query" && field == "groupStandings" {
		if ids, ok := args["playerIds"].([]any); ok {
			return groupCost(child, len(ids), s.maxGroup), true
		}
	}
	return s.ExecutableSchema.Complexity(ctx, typeName, field, child, args)
}

// groupEntriesPerCost is how many entries of a group cost what one entry of
// a list does: a group is read in one statement, each entry a row without
// neighbours, and a full group of 1,000 with every field of Standing
// (about 1,800) must fit the cost limit, as five such groups do.
const groupEntriesPerCost = 10

// boardRead is the cost of a field of Board that reads the database, so that
// a list of boards asks for at most a few thousand reads.
const boardRead = 5

// listSize is the size a list argument asks for, def when absent, clamped
// to 0..most: the resolvers refuse what is out of range with the range in
// the message, which a cost error would hide.
func listSize(n *int, def, most int) int {
	if n == nil {
		return def
	}
	return min(max(*n, 0), most)
}
