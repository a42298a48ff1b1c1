package bench

import (
	"math"
	"slices"
	"time"
)

// Percentile returns the p-th percentile (0 < p <= 100) of sorted, an
// ascending slice, by the nearest-rank method: the smallest value that at
// least p% of the values are at or below. It returns 0 for no values.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// Spread is one figure over repeated runs: their median and their range.
type Spread struct {
	Median, Min, Max float64
}

// SpreadOf returns the median, minimum and maximum of values (the mean of the
// middle two for an even count); the zero Spread for no values.
func SpreadOf(values []float64) Spread {
	if len(values) == 0 {
		return Spread{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	n := len(v)
	median := v[n/2]
	if n%2 == 0 {
		median = (v[n/2-1] + v[n/2]) / 2
	}
	return Spread{Median: median, Min: v[0], Max: v[n-1]}
}
