package db

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The seeded data depends on the random seed alone: drawn in chunks of any
// size it is the same, ids run in order and sequence numbers from firstSeq.
func TestSeedGenerator_ChunksDoNotChangeTheData(t *testing.T) {
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	draw := func(chunk int) seedRows {
		g := &seedGenerator{rng: rand.New(rand.NewPCG(7, seedStream)), lo: leaderboard.MinScore, hi: leaderboard.MaxScore, from: from, until: from.Add(72 * time.Hour), firstSeq: 1000}
		var all seedRows
		for done := 0; done < 250; done += chunk {
			r := g.chunk(done, min(chunk, 250-done))
			all.ids = append(all.ids, r.ids...)
			all.names = append(all.names, r.names...)
			all.scores = append(all.scores, r.scores...)
			all.reachedAt = append(all.reachedAt, r.reachedAt...)
			all.seqs = append(all.seqs, r.seqs...)
		}
		return all
	}
	one, many := draw(250), draw(7)
	if !slices.Equal(one.ids, many.ids) || !slices.Equal(one.names, many.names) || !slices.Equal(one.scores, many.scores) ||
		!slices.EqualFunc(one.reachedAt, many.reachedAt, time.Time.Equal) || !slices.Equal(one.seqs, many.seqs) {
		t.Fatal("chunks of 7 drew other data than one chunk of 250")
	}
	for i := range one.ids {
		if one.ids[i] != SeedPlayerID(i+1) || one.seqs[i] != 1000+int64(i) {
			t.Fatalf("player %d: id %s seq %d", i, one.ids[i], one.seqs[i])
		}
		if s := one.scores[i]; s < leaderboard.MinScore || s > leaderboard.MaxScore {
			t.Fatalf("player %d: score %d", i, s)
		}
		if at := one.reachedAt[i]; at.Before(from) || !at.Before(from.Add(72*time.Hour)) {
			t.Fatalf("player %d: reached at %s", i, at)
		}
	}
}

// A board's seed draws main's distribution stretched over the board's
// range: main's own scores for 0..10000, and for 0..2,000,000,000 scores
// that rarely tie, with subscores from a stream that changes no other draw.
func TestSeedGenerator_StretchesScoresOverTheBoardsRange(t *testing.T) {
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	draw := func(lo, hi int, subscores bool) seedRows {
		g := &seedGenerator{rng: rand.New(rand.NewPCG(7, seedStream)), lo: lo, hi: hi, from: from,
			until: from.Add(time.Hour)}
		if subscores {
			g.subscores = rand.New(rand.NewPCG(7, subscoreStream))
		}
		r := g.chunk(0, 20_000)
		return seedRows{names: slices.Clone(r.names), scores: slices.Clone(r.scores), subscores: slices.Clone(r.subscores)}
	}
	mains := draw(leaderboard.MinScore, leaderboard.MaxScore, false)
	rng := rand.New(rand.NewPCG(7, seedStream))
	for i := range mains.scores {
		SeedPlayerName(rng)
		if want := SeedScore(rng); int(mains.scores[i]) != want {
			t.Fatalf("player %d of main's range: score %d, SeedScore drew %d", i, mains.scores[i], want)
		}
		SeedReachedAt(rng, from, from.Add(time.Hour))
	}
	if same := draw(leaderboard.MinScore, leaderboard.MaxScore, true); !slices.Equal(same.scores, mains.scores) ||
		!slices.Equal(same.names, mains.names) || len(same.subscores) != len(mains.scores) {
		t.Fatal("drawing subscores changed the other draws")
	}

	const hi = 2_000_000_000
	wide := draw(0, hi, true)
	distinct := map[int32]bool{}
	for i, s := range wide.scores {
		if s < 0 || s > hi || wide.subscores[i] < 0 || wide.subscores[i] >= 1_000_000 {
			t.Fatalf("player %d: score %d subscore %d", i, s, wide.subscores[i])
		}
		distinct[s] = true
	}
	// Only the participation score (3 %) ties: main's range would give at
	// most 10,001 distinct scores.
	if len(distinct) < 19_000 {
		t.Fatalf("%d distinct scores of 20,000 over 0..%d", len(distinct), hi)
	}
}
