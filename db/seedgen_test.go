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
		g := &seedGenerator{rng: rand.New(rand.NewPCG(7, seedStream)), from: from, until: from.Add(72 * time.Hour),
			month: from, firstSeq: 1000}
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
