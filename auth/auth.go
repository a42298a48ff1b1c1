// Package auth tells who sends a request from its bearer token: the admin and
// game-server roles hold static tokens, players hold HS256 JWTs whose subject
// is their player id.
package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gamebackend/leaderboard"
)

// Config holds the secrets and the checks on player tokens. An empty token
// list or secret disables that role.
type Config struct {
	// AdminToken and ServerToken each hold one or more static tokens of their
	// role, separated by commas: during a rotation the old and the new token
	// are both accepted. Spaces around each token are ignored.
	AdminToken  string
	ServerToken string
	// JWTSecret is the HS256 key of player tokens.
	JWTSecret []byte
	// Issuer and Audience, when set, must be a player token's iss and one of
	// its aud; empty skips the check.
	Issuer   string
	Audience string
	// MaxTokenLifetime is the longest a player token may still be valid when
	// it arrives: its exp must lie at most this far from now (plus the clock
	// leeway). iat is optional, as identity services often leave it out, so
	// the bound is on exp - now, not exp - iat. Zero means
	// DefaultMaxTokenLifetime: a leaked token must not work for months.
	MaxTokenLifetime time.Duration
}

// DefaultMaxTokenLifetime is the lifetime limit of player tokens when
// Config.MaxTokenLifetime is zero.
const DefaultMaxTokenLifetime = 24 * time.Hour

// Authenticator identifies callers by their bearer tokens.
type Authenticator struct {
	adminTokens, serverTokens []string
	secret                    []byte
	maxLifetime               time.Duration
	parser                    *jwt.Parser
}

// New returns an Authenticator for cfg.
func New(cfg Config) *Authenticator {
	options := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(clockLeeway),
	}
	if cfg.Issuer != "" {
		options = append(options, jwt.WithIssuer(cfg.Issuer))
	}
	if cfg.Audience != "" {
		options = append(options, jwt.WithAudience(cfg.Audience))
	}
	maxLifetime := cfg.MaxTokenLifetime
	if maxLifetime <= 0 {
		maxLifetime = DefaultMaxTokenLifetime
	}
	return &Authenticator{
		adminTokens:  splitTokens(cfg.AdminToken),
		serverTokens: splitTokens(cfg.ServerToken),
		secret:       cfg.JWTSecret,
		maxLifetime:  maxLifetime,
		parser:       jwt.NewParser(options...),
	}
}

// clockLeeway absorbs the difference between the issuer's clock and ours.
const clockLeeway = 5 * time.Second

// splitTokens returns the non-empty comma-separated tokens of list.
func splitTokens(list string) []string {
	var tokens []string
	for _, t := range strings.Split(list, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tokens = append(tokens, t)
		}
	}
	return tokens
}

// Roles describes which roles cfg enables, for the startup log: one attribute
// per role, keyed by the role's name, saying how many static tokens it
// accepts, how player tokens are checked, or "disabled". A role left
// unconfigured must not go unnoticed.
func (cfg Config) Roles() []slog.Attr {
	describe := func(n int) string {
		switch n {
		case 0:
			return "disabled"
		case 1:
			return "1 token"
		}
		return fmt.Sprintf("%d tokens", n)
	}
	player := "disabled"
	if len(cfg.JWTSecret) > 0 {
		player = "HS256 tokens"
		if cfg.Issuer != "" {
			player += fmt.Sprintf(", iss %q", cfg.Issuer)
		}
		if cfg.Audience != "" {
			player += fmt.Sprintf(", aud %q", cfg.Audience)
		}
		lifetime := cfg.MaxTokenLifetime
		if lifetime <= 0 {
			lifetime = DefaultMaxTokenLifetime
		}
		player += ", lifetime at most " + lifetime.String()
	}
	return []slog.Attr{
		slog.String(string(leaderboard.RoleAdmin), describe(len(splitTokens(cfg.AdminToken)))),
		slog.String(string(leaderboard.RoleGameServer), describe(len(splitTokens(cfg.ServerToken)))),
		slog.String(string(leaderboard.RolePlayer), player),
	}
}

type authErrorKey struct{}

// errSigned marks the refusal of a player token that was signed with the
// secret: expired, say, or issued for too long.
var errSigned = errors.New("signed with the player token secret")

// Guessed reports whether the request's token was refused and was not signed
// with the player token secret: an unknown static token, a forged or
// malformed one. Tokens a game legitimately issued and that merely expired
// are not guesses.
func Guessed(ctx context.Context) bool {
	err, ok := ctx.Value(authErrorKey{}).(error)
	return ok && !errors.Is(err, errSigned)
}

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
	token, err := BearerToken(header)
	if err != nil {
		return leaderboard.Principal{}, err
	}
	if role, ok := a.StaticRole(token); ok {
		return leaderboard.Principal{Role: role}, nil
	}
	if len(a.secret) > 0 {
		return a.player(token)
	}
	return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "the bearer token is not valid")
}

// player checks a player token: HS256 with the secret, exp present and at
// most maxLifetime away, iat (when present) and nbf not in the future, iss and
// aud when configured, no crit header, and a sub that is a valid player id.
func (a *Authenticator) player(token string) (leaderboard.Principal, error) {
	// MapClaims, not RegisteredClaims: RegisteredClaims decodes a time sent as
	// a JSON string ("exp":"1790000000") as if it were the number, while
	// MapClaims refuses exp, nbf and iat that are not JSON numbers.
	claims := jwt.MapClaims{}
	parsed, err := a.parser.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return a.secret, nil })
	refuse := func(format string, args ...any) (leaderboard.Principal, error) {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, format, args...)
	}
	// The parser checks the signature before the claims: past it, the token
	// was signed with the secret, and a refusal is no guess at a token.
	signed := func(p leaderboard.Principal, err error) (leaderboard.Principal, error) {
		return p, errors.Join(errSigned, err)
	}
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return signed(refuse("the player token has expired"))
	case errors.Is(err, jwt.ErrTokenInvalidIssuer) || errors.Is(err, jwt.ErrTokenInvalidAudience):
		return signed(refuse("the player token was issued by or for someone else"))
	case errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return signed(refuse("the player token's iat lies in the future"))
	case errors.Is(err, jwt.ErrInvalidType):
		return signed(refuse("the player token has a claim of the wrong type (exp, nbf and iat must be JSON numbers, iss a string)"))
	case err != nil:
		return refuse("the bearer token is not valid")
	}
	// RFC 7515, 4.1.11: a recipient must refuse a token whose crit header
	// names an extension it does not understand, and this one understands
	// none. The jwt package does not look at crit.
	if _, ok := parsed.Header["crit"]; ok {
		return signed(refuse("the player token has a crit header, and no extension is supported"))
	}
	// Present and a number: the parser required and validated it.
	exp, _ := claims.GetExpirationTime()
	if time.Until(exp.Time) > a.maxLifetime+clockLeeway {
		return signed(refuse("the player token is valid for longer than %s from now", a.maxLifetime))
	}
	sub, err := claims.GetSubject()
	if err != nil || leaderboard.CheckPlayerID(sub) != nil {
		return signed(refuse("the player token has no valid sub"))
	}
	return leaderboard.Principal{Role: leaderboard.RolePlayer, PlayerID: sub}, nil
}

// matchesAny reports whether token is one of tokens, comparing each in
// constant time; an empty list matches nothing.
func matchesAny(token string, tokens []string) bool {
	found := 0
	for _, t := range tokens {
		found |= subtle.ConstantTimeCompare([]byte(token), []byte(t))
	}
	return found == 1
}

// Require returns the caller when it holds one of roles, as RequireFor does
// for an operation it calls "this operation".
func Require(ctx context.Context, roles ...leaderboard.Role) (leaderboard.Principal, error) {
	return RequireFor(ctx, "this operation", roles...)
}

// RequireFor returns the caller of operation when it holds one of roles.
// UNAUTHENTICATED when the request has no valid token, FORBIDDEN when its
// role is not among roles; each message says which token operation needs,
// and where it comes from, so that a refused caller knows what to send.
func RequireFor(ctx context.Context, operation string, roles ...leaderboard.Role) (leaderboard.Principal, error) {
	if err, ok := ctx.Value(authErrorKey{}).(error); ok {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.ErrorCode(err), "%s; %s",
			leaderboard.ErrorMessage(err), needs(operation, roles))
	}
	p, ok := leaderboard.PrincipalFromContext(ctx)
	if !ok {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EUNAUTHENTICATED, "%s", needs(operation, roles))
	}
	if !slices.Contains(roles, p.Role) {
		return leaderboard.Principal{}, leaderboard.Errorf(leaderboard.EFORBIDDEN, "%s; the token sent is %s",
			needs(operation, roles), tokenOf(p.Role))
	}
	return p, nil
}

// needs says which token operation needs: "submitScores needs the
// game-server token (LEADERBOARD_SERVER_TOKEN) as Authorization: Bearer …".
func needs(operation string, roles []leaderboard.Role) string {
	tokens := make([]string, len(roles))
	for i, r := range roles {
		tokens[i] = tokenOf(r)
	}
	return fmt.Sprintf("%s needs %s as Authorization: Bearer …", operation, strings.Join(tokens, " or "))
}

// tokenOf names the token of role and where it is configured.
func tokenOf(role leaderboard.Role) string {
	switch role {
	case leaderboard.RoleAdmin:
		return "the admin token (LEADERBOARD_ADMIN_TOKEN)"
	case leaderboard.RoleGameServer:
		return "the game-server token (LEADERBOARD_SERVER_TOKEN)"
	case leaderboard.RolePlayer:
		return "a player token (an HS256 JWT signed with LEADERBOARD_JWT_SECRET, the player's id as its sub)"
	}
	return fmt.Sprintf("a token of the %s role", role)
}

// PlayerToken signs an HS256 player token for playerID, issued now and
// expiring at exp: what a game's login service hands its players.
func PlayerToken(secret []byte, playerID string, exp time.Time) (string, error) {
	return Config{JWTSecret: secret}.SignPlayerToken(playerID, exp)
}

// SignPlayerToken signs an HS256 player token for playerID, issued now and
// expiring at exp, with cfg's issuer and audience when they are set: a token
// that an Authenticator for cfg accepts while its lifetime is within bounds.
func (cfg Config) SignPlayerToken(playerID string, exp time.Time) (string, error) {
	claims := jwt.RegisteredClaims{
		Subject:   playerID,
		Issuer:    cfg.Issuer,
		IssuedAt:  jwt.NewNumericDate(time.Now()),
		ExpiresAt: jwt.NewNumericDate(exp),
	}
	if cfg.Audience != "" {
		claims.Audience = jwt.ClaimStrings{cfg.Audience}
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(cfg.JWTSecret)
}
