package resolvers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/graph"
)

// HandlerOptions tunes the GraphQL handler.
type HandlerOptions struct {
	// Introspection lets clients read the schema (needed by GraphiQL).
	Introspection bool
	// Limits bound the work of one request.
	Limits Limits

	// viaGqlgen has gqlgen answer standings, submissions and claims too
	// (see standing_json.go, submit_json.go and claim_json.go) and write
	// every answer with its own POST transport (see transport.go): the
	// tests compare the two.
	viaGqlgen bool
}

// NewHandler returns the GraphQL HTTP handler for r: gqlgen's POST transport
// writing plain answers directly (see transport.go), a parsed-query cache,
// automatic persisted queries, limits on the query's size, tokens, cost and
// root fields, no "did you mean" suggestions, and errors that always carry
// one of the domain's codes in extensions.code.
func NewHandler(r *Resolver, opts HandlerOptions) http.Handler {
	limits := opts.Limits.withDefaults()
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: r, Complexity: complexity(r.maxGroup())})
	srv := handler.New(groupCosting{ExecutableSchema: schema, maxGroup: r.maxGroup()})
	if opts.viaGqlgen {
		srv.AddTransport(transport.POST{})
	} else {
		srv.AddTransport(directPOST{})
	}
	srv.SetParserTokenLimit(limits.MaxTokens)
	srv.SetDisableSuggestion(true)
	srv.SetValidationRulesFn(rulesWithoutSuggestions)
	srv.Use(limitsExtension{limits})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(extension.FixedComplexityLimit(limits.MaxCost))
	srv.AroundResponses(observeOperations(r.Observer))
	if !opts.viaGqlgen {
		srv.AroundRootFields(r.writeStandingsDirectly)
		srv.AroundRootFields(r.writeSubmitsDirectly)
		srv.AroundRootFields(r.writeClaimsDirectly)
		srv.AroundRootFields(r.writeGroupsDirectly)
	}
	srv.SetErrorPresenter(presentError(r.Logger))
	srv.SetRecoverFunc(recoverPanic(r.Logger))
	return withUnavailableStatus(srv)
}

// persistedQueryNotFound is the code gqlgen's APQ extension gives an unknown
// query hash; Apollo clients rely on it.
const persistedQueryNotFound = "PERSISTED_QUERY_NOT_FOUND"

// presentError gives every error a code from the contract. Domain errors keep
// their code and message; gqlgen's own errors (parse, validation, argument
// coercion, complexity) are the client's input; anything else is logged and
// answered as INTERNAL without its detail.
func presentError(logger *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		var domainErr *leaderboard.Error
		code := leaderboard.EBADINPUT
		switch {
		case errors.As(err, &domainErr):
			code = domainErr.Code
			gqlErr.Message = domainErr.Message
			if code == leaderboard.EUNAVAILABLE {
				flagUnavailable(ctx)
				logger.WarnContext(ctx, "request failed: service unavailable", "path", gqlErr.Path.String(), "err", err)
			}
		case errors.Is(err, context.DeadlineExceeded):
			// The request's deadline passed before the work was done.
			code = leaderboard.EUNAVAILABLE
			gqlErr.Message = "the request took too long: retry later"
			flagUnavailable(ctx)
		case gqlErr.Extensions["code"] == persistedQueryNotFound:
			// Apollo clients send the full query when they see this code.
			code = persistedQueryNotFound
		case isIntrospection(ctx):
			code = leaderboard.EFORBIDDEN
			gqlErr.Message = "Introspection is disabled on this server."
		case gqlErr.Err != nil:
			code = leaderboard.EINTERNAL
			logger.ErrorContext(ctx, "request failed", "path", gqlErr.Path.String(), "err", err)
			gqlErr.Message = leaderboard.ErrorMessage(err)
		}
		gqlErr.Err = nil
		if gqlErr.Extensions == nil {
			gqlErr.Extensions = map[string]any{}
		}
		gqlErr.Extensions["code"] = code
		return gqlErr
	}
}

// isIntrospection reports whether the error is a schema introspection
// field's, which fails when introspection is disabled. It goes by the field's
// name, which an alias does not change.
func isIntrospection(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	return fc != nil && fc.Field.Field != nil && (fc.Field.Name == "__schema" || fc.Field.Name == "__type")
}

// recoverPanic logs a resolver's panic and answers INTERNAL.
func recoverPanic(logger *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, v any) error {
		logger.ErrorContext(ctx, "resolver panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		return leaderboard.Errorf(leaderboard.EINTERNAL, "Internal error.")
	}
}

// rulesWithoutSuggestions returns GraphQL's validation rules with no "did
// you mean" in any message, so that errors do not read the schema out to
// whoever guesses (introspection may be off). SetDisableSuggestion swaps only
// the rules of fields and leaf selections; those of argument names, type
// names and values (a misquoted or misspelt enum value) would still suggest.
func rulesWithoutSuggestions() *rules.Rules {
	r := rules.NewDefaultRules()
	for _, swap := range []struct{ loud, quiet core.Rule }{
		{rules.FieldsOnCorrectTypeRule, rules.FieldsOnCorrectTypeRuleWithoutSuggestions},
		{rules.KnownArgumentNamesRule, rules.KnownArgumentNamesRuleWithoutSuggestions},
		{rules.KnownTypeNamesRule, rules.KnownTypeNamesRuleWithoutSuggestions},
		{rules.ScalarLeafsRule, rules.ScalarLeafsRuleWithoutSuggestions},
		{rules.ValuesOfCorrectTypeRule, rules.ValuesOfCorrectTypeRuleWithoutSuggestions},
	} {
		r.RemoveRule(swap.loud.Name)
		r.AddRule(swap.quiet.Name, swap.quiet.RuleFunc)
	}
	return r
}
