package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/ratelimit"
)

// RateLimits are the request budgets per client. A rate of 0 turns that
// limit off.
type RateLimits struct {
	// Public is the requests a second of each client address, with a burst
	// of twice that (LEADERBOARD_RATE_LIMIT): every request but those with
	// a static token, players' included, since it is taken before a player
	// token is checked.
	Public float64
	// GameServer is the requests a second of each game-server token
	// (LEADERBOARD_SERVER_RATE_LIMIT); Player that of each player.
	GameServer float64
	Player     float64
	// AuthFailures is the refused tokens a second of each client address,
	// with a burst of twice that (LEADERBOARD_AUTH_FAILURE_RATE_LIMIT).
	// Past it every request of that address with an Authorization header
	// answers 429 before its token is looked at, so that tokens cannot be
	// guessed.
	AuthFailures float64
	// TrustedProxies are the addresses whose X-Forwarded-For is believed;
	// from anyone else the connection's address is the client's.
	TrustedProxies []netip.Prefix
}

// rateLimiter authenticates requests and refuses those over their client's
// budget with 429, each before any costly work is done for it.
type rateLimiter struct {
	public, gameServer, player, authFailures *ratelimit.Limiter
	authn                                    *auth.Authenticator
	trusted                                  []netip.Prefix
	refused                                  *prometheus.CounterVec
}

func newRateLimiter(cfg RateLimits, authn *auth.Authenticator, registry prometheus.Registerer) *rateLimiter {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "leaderboard_rate_limited_total",
		Help: "Requests refused with 429 for being over their client's rate limit, by kind of client (public: an address; failed_auth: an address over its refused tokens).",
	}, []string{"client"})
	registry.MustRegister(refused)
	return &rateLimiter{
		public:       ratelimit.New(cfg.Public, int(2*cfg.Public)),
		gameServer:   ratelimit.New(cfg.GameServer, int(2*cfg.GameServer)),
		player:       ratelimit.New(cfg.Player, int(2*cfg.Player)),
		authFailures: ratelimit.New(cfg.AuthFailures, int(2*cfg.AuthFailures)),
		authn:        authn,
		trusted:      cfg.TrustedProxies,
		refused:      refused,
	}
}

// middleware authenticates the request (the caller's Principal goes into
// its context, see auth.Authenticator.Middleware) within the caller's
// budgets, cheapest first:
//
//  1. an address over its guessed tokens gets 429 for any token;
//  2. a static token (compared, not parsed) takes from its role's budget:
//     the game-server token's own, none for admins; anything else from its
//     address's;
//  3. only then is a player token checked, and it takes from its player's
//     budget; a refused token that was not signed with the secret (a guess,
//     not an expired token) counts against its address.
func (l *rateLimiter) middleware(next http.Handler) http.Handler {
	authenticated := l.authn.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			p, ok := leaderboard.PrincipalFromContext(r.Context())
			switch {
			case !ok && auth.Guessed(r.Context()):
				l.authFailures.Take(l.clientKey(r))
			case p.Role == leaderboard.RolePlayer:
				if !l.allow(w, l.player, "player", p.PlayerID) {
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client := l.clientKey(r)
		header := r.Header.Get("Authorization")
		// Past its budget of guesses an address gets 429 for any token,
		// the right one included, so that a guess cannot be told from a
		// miss. Only guesses count: a player token that merely expired
		// does not.
		if header != "" {
			if ok, wait := l.authFailures.Check(client); !ok {
				l.refuse(w, "failed_auth", wait)
				return
			}
		}
		limiter, kind, key := l.public, "public", client
		if token, err := auth.BearerToken(header); err == nil {
			switch role, _ := l.authn.StaticRole(token); role {
			case leaderboard.RoleAdmin:
				limiter = nil
			case leaderboard.RoleGameServer:
				// Keyed by the token, not the header, so that the
				// scheme's spelling gives no fresh budget; a fleet of game
				// servers sharing a token shares its budget. The token
				// itself is not kept.
				sum := sha256.Sum256([]byte(token))
				limiter, kind, key = l.gameServer, "game_server", hex.EncodeToString(sum[:8])
			}
		}
		if !l.allow(w, limiter, kind, key) {
			return
		}
		authenticated.ServeHTTP(w, r)
	})
}

// allow takes a token of key's bucket in limiter, or answers 429.
func (l *rateLimiter) allow(w http.ResponseWriter, limiter *ratelimit.Limiter, kind, key string) bool {
	ok, wait := limiter.Allow(key)
	if !ok {
		l.refuse(w, kind, wait)
	}
	return ok
}

// refuse answers 429 RATE_LIMITED, with how long to wait. An address over
// its refused tokens is told so: else a caller whose right token gets 429
// would look for the fault in its request rate.
func (l *rateLimiter) refuse(w http.ResponseWriter, kind string, wait time.Duration) {
	l.refused.WithLabelValues(kind).Inc()
	retry := strconv.Itoa(ratelimit.RetryAfterSeconds(wait))
	w.Header().Set("Retry-After", retry)
	message := "too many requests: retry after " + retry + " s"
	if kind == "failed_auth" {
		message = "too many refused tokens from this address (LEADERBOARD_AUTH_FAILURE_RATE_LIMIT): " +
			"every request with an Authorization header is refused for now, a valid token too; retry after " + retry + " s"
	}
	writeErrorCode(w, http.StatusTooManyRequests, leaderboard.ERATELIMITED, message)
}

// clientKey names the request's client for the per-address budgets: its
// IPv4 address, or the /64 of its IPv6 address, since one subscriber
// commonly holds a whole /64 and could otherwise take a fresh budget from
// each of its addresses.
func (l *rateLimiter) clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if addr = l.forwardedClient(addr, r).Unmap(); addr.Is6() {
		return netip.PrefixFrom(addr, 64).Masked().String()
	}
	return addr.String()
}

// forwardedClient is the request's client address: peer, the connection's,
// or, when that is a trusted proxy, the nearest untrusted address in
// X-Forwarded-For.
func (l *rateLimiter) forwardedClient(peer netip.Addr, r *http.Request) netip.Addr {
	if !l.isTrusted(peer) {
		return peer
	}
	addr := peer
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr
		}
		if !l.isTrusted(hop) {
			return hop
		}
		addr = hop
	}
	return addr
}

func (l *rateLimiter) isTrusted(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range l.trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
