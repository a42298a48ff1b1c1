package auth

import (
	"strings"

	"github.com/gamebackend/leaderboard"
)

// MaxTokenBytes bounds a bearer token. Longer ones are refused before any
// work is spent on them: a player token is a few hundred bytes, and checking
// the signature of a megabyte one costs milliseconds of CPU.
const MaxTokenBytes = 8 << 10

// BearerToken returns the token of an Authorization header of the form
// "Bearer <token>", the scheme in any case. UNAUTHENTICATED when the header
// has another form or its token is longer than MaxTokenBytes. It only cuts
// the header: callers may use it before anything else, to key rate limits
// by the token whatever the scheme's spelling.
func BearerToken(header string) (string, error) {
	scheme, token, ok := strings.Cut(header, " ")
	switch {
	case !ok || !strings.EqualFold(scheme, "Bearer") || token == "":
		return "", leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the Authorization header must be \"Bearer <token>\"")
	case len(token) > MaxTokenBytes:
		return "", leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the bearer token is longer than %d bytes", MaxTokenBytes)
	}
	return token, nil
}

// StaticRole returns the role of token when it is one of the static admin or
// game-server tokens. It compares in constant time and parses nothing, so a
// rate limiter can pick the caller's budget before a player token's
// signature is checked.
func (a *Authenticator) StaticRole(token string) (leaderboard.Role, bool) {
	switch {
	case matchesAny(token, a.adminTokens):
		return leaderboard.RoleAdmin, true
	case matchesAny(token, a.serverTokens):
		return leaderboard.RoleGameServer, true
	}
	return "", false
}
