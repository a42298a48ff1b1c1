// Package leaderboard is the domain of the service: boards and their
// periods (main's periods are the months of the monthly event), score events
// and their rules, standings, corrections, the close of a period, settlement
// messages to the studio's reward system, reward claims, and the error codes.
// It imports nothing of the project; db, resolvers, lifecycle and the rest
// implement and use it. Each file holds one noun: board.go, period.go,
// month.go, score.go, standings.go, corrections.go, close.go, settlement.go,
// export.go, claims.go.
package leaderboard

// Limits of the API contract.
const (
	MinScore          = 0     // lowest event total
	MaxScore          = 10000 // highest event total
	MaxBatch          = 1000  // most events in one submitScores call
	MaxNeighbours     = 50    // most neighbours above or below a standing
	DefaultNeighbours = 10    // neighbours above and below when not asked
	MaxPageSize       = 500   // most entries in one leaderboard page
	MaxMonths         = 120   // most months in one months() answer
	MaxPlayerIDLen    = 64    // longest player id, in characters
	MaxPlayerNameLen  = 64    // longest display name, in characters
	MaxEventIDLen     = 128   // longest event id, in characters
)
