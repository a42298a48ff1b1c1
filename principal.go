package leaderboard

import "context"

// Role is what a caller may do.
type Role string

// The roles of the API.
const (
	RoleAdmin      Role = "ADMIN"       // closes months
	RoleGameServer Role = "GAME_SERVER" // submits scores
	RolePlayer     Role = "PLAYER"      // reads its own rank
)

// Principal is the authenticated caller of a request.
type Principal struct {
	Role     Role
	PlayerID string // set for RolePlayer only
}

type principalKey struct{}

// NewContextWithPrincipal returns a copy of ctx carrying p.
func NewContextWithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the caller carried by ctx, if any.
func PrincipalFromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
