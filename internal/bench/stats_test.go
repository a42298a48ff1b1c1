package bench

import (
	"testing"
	"time"
)

func TestPercentile_NearestRank(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = ms(i + 1)
	}
	for _, tt := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"Empty", nil, 50, 0},
		{"One", []time.Duration{ms(7)}, 99, ms(7)},
		{"MedianOfOdd", []time.Duration{ms(1), ms(2), ms(3)}, 50, ms(2)},
		{"MedianOfEvenTakesLower", []time.Duration{ms(1), ms(2), ms(3), ms(4)}, 50, ms(2)},
		{"P50OfHundred", hundred, 50, ms(50)},
		{"P99OfHundred", hundred, 99, ms(99)},
		{"P100IsMax", hundred, 100, ms(100)},
		{"TinyPIsMin", hundred, 0.001, ms(1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("Percentile(p%g) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

func TestSpreadOf(t *testing.T) {
	for _, tt := range []struct {
		name   string
		values []float64
		want   Spread
	}{
		{"Empty", nil, Spread{}},
		{"Odd", []float64{3, 1, 2}, Spread{Median: 2, Min: 1, Max: 3}},
		{"EvenAveragesMiddle", []float64{10, 40, 20, 30}, Spread{Median: 25, Min: 10, Max: 40}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := SpreadOf(tt.values); got != tt.want {
				t.Errorf("SpreadOf(%v) = %+v, want %+v", tt.values, got, tt.want)
			}
		})
	}
}

func TestSpreadOf_LeavesInputAlone(t *testing.T) {
	values := []float64{3, 1, 2}
	SpreadOf(values)
	if values[0] != 3 || values[1] != 1 || values[2] != 2 {
		t.Errorf("SpreadOf reordered its input: %v", values)
	}
}
