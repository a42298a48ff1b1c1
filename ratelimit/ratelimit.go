// Package ratelimit keeps one token bucket per client: per address for
// public reads, per token for game servers and players. A bucket refills at
// a steady rate up to its burst; a request that finds it empty is told how
// long to wait.
package ratelimit

import (
	"container/list"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// MaxKeys bounds the buckets a Limiter keeps, so that clients coming from
// ever more addresses cannot grow its memory without end (a bucket takes
// about 200 bytes besides its key: 100,000 take some 20 MB). Past it the
// bucket used least recently is dropped, which hands that key a full bucket
// when it comes back.
const MaxKeys = 100_000

// Limiter hands each key its own token bucket. The zero rate means no
// limit. It is safe for concurrent use.
//
// A bucket that has refilled to its burst is the same as none, so it is
// dropped: the Limiter holds only the keys used in the last burst/rate
// seconds or so, and never more than MaxKeys.
type Limiter struct {
	limit   rate.Limit
	burst   int
	maxKeys int
	now     func() time.Time

	mu      sync.Mutex
	buckets map[string]*list.Element
	// recent orders the buckets by last use, the most recent first: the
	// back is the first to go, when full or when there are too many.
	recent list.List
}

type bucket struct {
	key     string
	limiter *rate.Limiter
}

// New returns a Limiter of perSecond requests a second per key, with a
// burst of burst; perSecond <= 0 allows everything.
func New(perSecond float64, burst int) *Limiter {
	return &Limiter{limit: rate.Limit(perSecond), burst: max(burst, 1), maxKeys: MaxKeys, now: time.Now,
		buckets: map[string]*list.Element{}}
}

// Allow takes a token from key's bucket. When there is none it returns
// false and how long until there is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	if l.off() {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.use(key, now)
	r := b.limiter.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// Check reports whether key's bucket holds a token, and when it does not,
// how long until it does. It takes none: with Take it limits events that
// are known to count only after they are done, such as failed sign-ins.
func (l *Limiter) Check(key string) (bool, time.Duration) {
	if l.off() {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dropFull(now)
	e := l.buckets[key]
	if e == nil {
		return true, 0
	}
	tokens := e.Value.(*bucket).limiter.TokensAt(now)
	if tokens >= 1 {
		return true, 0
	}
	return false, time.Duration((1 - tokens) / float64(l.limit) * float64(time.Second))
}

// Take takes a token from key's bucket, going into debt when it is empty:
// events that passed Check together are all paid for before Check lets the
// next one pass.
func (l *Limiter) Take(key string) {
	if l.off() {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.use(key, now).limiter.ReserveN(now, 1)
}

func (l *Limiter) off() bool { return l == nil || l.limit <= 0 }

// use returns key's bucket, made when there is none, as the most recently
// used. l.mu is held.
func (l *Limiter) use(key string, now time.Time) *bucket {
	l.dropFull(now)
	if e := l.buckets[key]; e != nil {
		l.recent.MoveToFront(e)
		return e.Value.(*bucket)
	}
	for len(l.buckets) >= l.maxKeys {
		l.remove(l.recent.Back())
	}
	b := &bucket{key: key, limiter: rate.NewLimiter(l.limit, l.burst)}
	l.buckets[key] = l.recent.PushFront(b)
	return b
}

// dropFull drops the least recently used buckets that have refilled to
// their burst. Each bucket is dropped once, so the cost is constant on
// average. l.mu is held.
func (l *Limiter) dropFull(now time.Time) {
	for e := l.recent.Back(); e != nil; e = l.recent.Back() {
		if e.Value.(*bucket).limiter.TokensAt(now) < float64(l.burst) {
			return
		}
		l.remove(e)
	}
}

func (l *Limiter) remove(e *list.Element) {
	delete(l.buckets, l.recent.Remove(e).(*bucket).key)
}

// RetryAfterSeconds is the Retry-After value for a wait of d: whole
// seconds, at least one.
func RetryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}
