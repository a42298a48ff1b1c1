package bench

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gamebackend/leaderboard"
)

func TestPackScore_ExactAtTheExtremes(t *testing.T) {
	for _, tt := range []struct {
		score      int
		sinceStart int64
	}{
		{0, 0}, {0, maxSeconds}, {leaderboard.MaxScore, 0}, {leaderboard.MaxScore, maxSeconds},
		{leaderboard.MaxScore, 31 * 86400}, {100, 12345}, {1, 1},
	} {
		packed, err := PackScore(tt.score, tt.sinceStart)
		if err != nil {
			t.Fatalf("PackScore(%d, %d): %v", tt.score, tt.sinceStart, err)
		}
		if packed >= 1<<53 || packed != math.Trunc(packed) {
			t.Errorf("PackScore(%d, %d) = %v: not an integer below 2^53", tt.score, tt.sinceStart, packed)
		}
		if score, since := UnpackScore(packed); score != tt.score || since != tt.sinceStart {
			t.Errorf("UnpackScore(PackScore(%d, %d)) = %d, %d", tt.score, tt.sinceStart, score, since)
		}
	}
}

func TestPackScore_OrderIsTheRankingOrder(t *testing.T) {
	type key struct {
		score      int
		sinceStart int64
	}
	ranksAbove := func(a, b key) bool { // a ranks above b in the service
		if a.score != b.score {
			return a.score > b.score
		}
		return a.sinceStart < b.sinceStart
	}
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func() key {
		// Small ranges make equal scores and equal times common.
		return key{rng.IntN(3) * leaderboard.MaxScore / 2, int64(rng.IntN(3)) * maxSeconds / 2}
	}
	for range 10_000 {
		a, b := draw(), draw()
		pa, errA := PackScore(a.score, a.sinceStart)
		pb, errB := PackScore(b.score, b.sinceStart)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if ranksAbove(a, b) != (pa > pb) || (a == b) != (pa == pb) {
			t.Fatalf("%+v packs to %v, %+v to %v: order differs from the ranking", a, pa, b, pb)
		}
	}
}

func TestPackScore_RefusesOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		name       string
		score      int
		sinceStart int64
	}{
		{"ErrNegativeScore", -1, 0},
		{"ErrScoreOverMax", leaderboard.MaxScore + 1, 0},
		{"ErrBeforeMonth", 10, -1},
		{"ErrPastTimeRange", 10, maxSeconds + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := PackScore(tt.score, tt.sinceStart); err == nil {
				t.Errorf("PackScore(%d, %d) packed", tt.score, tt.sinceStart)
			}
		})
	}
}
