package leaderboard

// graph/ is generated from graph/schema/*.graphqls by gqlgen, configured in
// gqlgen.yml; `make generate` runs this.
//go:generate go tool gqlgen generate
