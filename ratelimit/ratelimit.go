// Package ratelimit keeps one token bucket per client: per address for
// public reads, per token for game servers and players. A bucket refills at
// a steady rate up to its burst; a request that finds it empty is told how
// long to wait.
package ratelimit

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// idleAfter is how long a bucket unused stays in memory: a full bucket is
// the same as none, so it can go.
const idleAfter = 10 * time.Minute

// Limiter hands each key its own token bucket. The zero rate means no
// limit. It is safe for concurrent use.
type Limiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	limiter *rate.Limiter
	used    time.Time
}

// New returns a Limiter of perSecond requests a second per key, with a
// burst of burst; perSecond <= 0 allows everything.
func New(perSecond float64, burst int) *Limiter {
	return &Limiter{limit: rate.Limit(perSecond), burst: max(burst, 1), now: time.Now, buckets: map[string]*bucket{}}
}

// Allow takes a token from key's bucket. When there is none it returns
// false and how long until there is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	if l == nil || l.limit <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = &bucket{limiter: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.used = now
	r := b.limiter.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// RetryAfterSeconds is the Retry-After value for a wait of d: whole
// seconds, at least one.
func RetryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// sweep drops the buckets idle for idleAfter, at most once per idleAfter.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < idleAfter {
		return
	}
	l.lastSweep = now
	for key, b := range l.buckets {
		if now.Sub(b.used) >= idleAfter {
			delete(l.buckets, key)
		}
	}
}
