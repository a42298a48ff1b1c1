package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/ratelimit"
)

// RateLimits are the request budgets per client. A rate of 0 turns that
// limit off.
type RateLimits struct {
	// Public is the requests a second of each client address without a
	// role token, with a burst of twice that (LEADERBOARD_RATE_LIMIT).
	Public float64
	// GameServer is the requests a second of each game-server token
	// (LEADERBOARD_SERVER_RATE_LIMIT); Player that of each player.
	GameServer float64
	Player     float64
	// TrustedProxies are the addresses whose X-Forwarded-For is believed;
	// from anyone else the connection's address is the client's.
	TrustedProxies []netip.Prefix
}

// rateLimiter refuses requests over their client's budget with 429.
type rateLimiter struct {
	public, gameServer, player *ratelimit.Limiter
	trusted                    []netip.Prefix
	refused                    *prometheus.CounterVec
}

func newRateLimiter(cfg RateLimits, registry prometheus.Registerer) *rateLimiter {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "leaderboard_rate_limited_total",
		Help: "Requests refused with 429 for being over their client's rate limit, by kind of client.",
	}, []string{"client"})
	registry.MustRegister(refused)
	return &rateLimiter{
		public:     ratelimit.New(cfg.Public, int(2*cfg.Public)),
		gameServer: ratelimit.New(cfg.GameServer, int(2*cfg.GameServer)),
		player:     ratelimit.New(cfg.Player, int(2*cfg.Player)),
		trusted:    cfg.TrustedProxies,
		refused:    refused,
	}
}

// middleware runs after authentication: the caller's role picks the bucket.
// Admins are not limited.
func (l *rateLimiter) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limiter, kind, key := l.public, "public", "addr:"+l.clientAddr(r)
		if p, ok := leaderboard.PrincipalFromContext(r.Context()); ok {
			switch p.Role {
			case leaderboard.RoleAdmin:
				next.ServeHTTP(w, r)
				return
			case leaderboard.RoleGameServer:
				// Keyed by the token, so that each game server fleet sharing
				// a token shares its budget; the token itself is not kept.
				sum := sha256.Sum256([]byte(r.Header.Get("Authorization")))
				limiter, kind, key = l.gameServer, "game_server", hex.EncodeToString(sum[:8])
			case leaderboard.RolePlayer:
				limiter, kind, key = l.player, "player", "player:"+p.PlayerID
			}
		}
		if ok, wait := limiter.Allow(key); !ok {
			l.refused.WithLabelValues(kind).Inc()
			w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfterSeconds(wait)))
			writeErrorCode(w, http.StatusTooManyRequests, leaderboard.ERATELIMITED,
				"too many requests: retry after "+w.Header().Get("Retry-After")+" s")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientAddr is the request's client address: the connection's, or, when
// that is a trusted proxy, the nearest untrusted address in X-Forwarded-For.
func (l *rateLimiter) clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !l.isTrusted(addr) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr.String()
		}
		if !l.isTrusted(hop) {
			return hop.String()
		}
		addr = hop
	}
	return addr.String()
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
