package db

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

// A board's rows read in heap order come out of sortedByKey as a plain sort
// of their keys orders them, each row whole: ties of thousands at one sort
// score, broken by the subscore's key, then reached_at, then seq.
func TestSortedByKey_MatchesAPlainSort(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			type row struct {
				id                      string
				score, subscore         int32
				hasSubscore             bool
				metadata                string
				reachedAt               int64
				sortScore, sortSubscore int64
				seq                     int64
			}
			rows := make([]row, n)
			r := &rankedRows{columns: withBoardColumns | withKeyColumns}
			for i, seq := range rng.Perm(n) {
				x := row{id: fmt.Sprintf("player-%d", i), score: rng.Int32N(3), subscore: rng.Int32N(2),
					hasSubscore: rng.IntN(2) == 0, reachedAt: rng.Int64N(3), seq: int64(seq)}
				if rng.IntN(3) == 0 {
					x.metadata = fmt.Sprintf(`{"i":%d}`, i)
				}
				x.sortScore, x.sortSubscore = int64(x.score), int64(x.subscore)
				rows[i] = x
				r.ids = append(r.ids, x.id...)
				r.idEnds = append(r.idEnds, uint32(len(r.ids)))
				r.scores = append(r.scores, x.score)
				r.subscores, r.hasSubscore = append(r.subscores, x.subscore), append(r.hasSubscore, x.hasSubscore)
				r.metadata = append(r.metadata, x.metadata...)
				r.metadataEnds = append(r.metadataEnds, uint64(len(r.metadata)))
				r.reachedAtMicros = append(r.reachedAtMicros, x.reachedAt)
				r.sortScores, r.sortSubscores = append(r.sortScores, x.sortScore), append(r.sortSubscores, x.sortSubscore)
				r.seqs = append(r.seqs, x.seq)
			}
			sort.Slice(rows, func(i, j int) bool {
				a, b := rows[i], rows[j]
				if a.sortScore != b.sortScore {
					return a.sortScore < b.sortScore
				}
				if a.sortSubscore != b.sortSubscore {
					return a.sortSubscore < b.sortSubscore
				}
				if a.reachedAt != b.reachedAt {
					return a.reachedAt < b.reachedAt
				}
				return a.seq < b.seq
			})
			s := r.sortedByKey()
			if s.len() != n {
				t.Fatalf("got %d rows, want %d", s.len(), n)
			}
			for i, want := range rows {
				got := row{id: string(s.id(i)), score: s.scores[i], subscore: s.subscores[i], hasSubscore: s.hasSubscore[i],
					metadata: string(s.metadataOf(i)), reachedAt: s.reachedAtMicros[i], sortScore: s.sortScores[i],
					sortSubscore: s.sortSubscores[i], seq: s.seqs[i]}
				if got != want {
					t.Fatalf("rank %d: got %+v, want %+v", i+1, got, want)
				}
			}
		})
	}
}
