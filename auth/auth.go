// Package auth tells who sends a request from its bearer token: the admin and
// game-server roles hold static tokens, players hold HS256 JWTs whose subject
// is their player id.
package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gamebackend/leaderboard"
)

// Config holds the secrets. An empty token or secret disables that role.
type Config struct {
	AdminToken  string
	ServerToken string
	JWTSecret   []byte
}

// Authenticator identifies callers by their bearer tokens.
type Authenticator struct {
	cfg    Config
	parser *jwt.Parser
}

// New returns an Authenticator for cfg.
func New(cfg Config) *Authenticator {
	return &Authenticator{
		cfg: cfg,
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithExpirationRequired(),
			jwt.WithLeeway(5*time.Second),
		),
	}
}

type authErrorKey struct{}

// Middleware puts the caller's Principal in the request context, or the reason
// its token was refused. It never rejects a request itself: most reads are
// public, and the resolvers that need a role call Require.
func (a *Authenticator) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if header := r.Header.Get("Authorization"); header != "" {
			if p, err := a.authenticate(header); err != nil {
				ctx = context.WithValue(ctx, authErrorKey{}, err)
			} else {
				ctx = leaderboard.NewContextWithPrincipal(ctx, p)
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func (a *Authenticator) authenticate(header string) (leaderboard.Principal, error) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED,
			"the Authorization header must be \"Bearer <token>\"")
	}
	switch {
	case equalSecret(token, a.cfg.AdminToken):
		return leaderboard.Principal{Role: leaderboard.RoleAdmin}, nil
	case equalSecret(token, a.cfg.ServerToken):
		return leaderboard.Principal{Role: leaderboard.RoleGameServer}, nil
	case len(a.cfg.JWTSecret) > 0:
		return a.player(token)
	}
	return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the bearer token is not valid")
}

func (a *Authenticator) player(token string) (leaderboard.Principal, error) {
	claims := &jwt.RegisteredClaims{}
	_, err := a.parser.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return a.cfg.JWTSecret, nil })
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the player token has expired")
	case err != nil:
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the bearer token is not valid")
	case claims.Subject == "" || utf8.RuneCountInString(claims.Subject) > leaderboard.MaxPlayerIDLen:
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the player token has no valid sub")
	}
	return leaderboard.Principal{Role: leaderboard.RolePlayer, PlayerID: claims.Subject}, nil
}

// equalSecret compares in constant time; an unset secret matches nothing.
func equalSecret(token, secret string) bool {
	return secret != "" && subtle.ConstantTimeCompare([]byte(token), []byte(secret)) == 1
}

// Require returns the caller when it holds one of roles. UNAUTHENTICATED when
// the request has no valid token, FORBIDDEN when its role is not among roles.
func Require(ctx context.Context, roles ...leaderboard.Role) (leaderboard.Principal, error) {
	if err, ok := ctx.Value(authErrorKey{}).(error); ok {
		return leaderboard.Principal{}, err
	}
	p, ok := leaderboard.PrincipalFromContext(ctx)
	if !ok {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "this operation needs a bearer token")
	}
	if !slices.Contains(roles, p.Role) {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EFORBIDDEN, "this operation is not allowed for the %s role", p.Role)
	}
	return p, nil
}

// PlayerToken signs an HS256 player token for playerID that expires at exp:
// what a game's login service hands its players.
func PlayerToken(secret []byte, playerID string, exp time.Time) (string, error) {
	claims := jwt.RegisteredClaims{Subject: playerID, ExpiresAt: jwt.NewNumericDate(exp)}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
}
