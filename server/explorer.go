package server

import (
	"net/http"

	"github.com/wundergraph/graphql-go-tools/pkg/playground"
)

// explorerPath is where the GraphQL explorer is served; its assets sit under
// it (/graphiql/playground.js and so on).
const explorerPath = "/graphiql"

// routeExplorer serves GraphQL Playground, the GraphiQL-based explorer, at
// /graphiql. Its page, script and styles are embedded in the binary by a
// pinned Go module, so it works on a network with no internet.
func routeExplorer(route func(pattern string, h http.Handler)) {
	handlers, err := playground.New(playground.Config{
		PlaygroundPath:      explorerPath,
		GraphqlEndpointPath: "/graphql",
	}).Handlers()
	if err != nil {
		// Only a module built without its embedded files gets here, like a
		// template.Must on a compiled-in template.
		panic("graphql explorer: " + err.Error())
	}
	for _, h := range handlers {
		route("GET "+h.Path, h.Handler)
	}
}
