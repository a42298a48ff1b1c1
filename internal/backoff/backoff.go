// Package backoff spaces the tries of a call that keeps failing: a wait
// that doubles with each failure up to a ceiling, and drawn at random from
// the upper half of it, so that instances which failed together do not
// try again in step.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Capped is the wait after failures failed tries in a row: first, doubled
// for each failure after the first, at most most.
func Capped(first, most time.Duration, failures int) time.Duration {
	wait := min(first, most)
	for range failures - 1 {
		if wait >= most {
			break
		}
		wait *= 2
	}
	return min(wait, most)
}

// Jittered is a random wait between half and all of Capped's.
func Jittered(first, most time.Duration, failures int) time.Duration {
	wait := Capped(first, most, failures)
	return wait/2 + rand.N(wait/2+1)
}
