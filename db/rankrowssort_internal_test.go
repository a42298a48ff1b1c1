package db

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
)

// A board's rows read in heap order come out of sortedByKey as a plain sort
// of their keys orders them, each row whole: ties of thousands at one sort
// score, broken by the subscore's key, then reached_at, then seq; with keys
// packed (small ones, and missing subscores' math.MaxInt64 among them) and
// with keys too wide to pack (seqs over the whole int64 range).
func TestSortedByKey_MatchesAPlainSort(t *testing.T) {
	for _, c := range []struct {
		n     int
		keys  string
		wide  bool
		unset bool
	}{{0, "small", false, false}, {1, "small", false, false}, {2, "small", false, false},
		{5000, "small", false, false}, {5000, "missing subscores", false, true}, {5000, "wide", true, true},
		{70000, "missing subscores", false, true}, {70000, "spread", false, false}} {
		n := c.n
		t.Run(fmt.Sprint(n, " ", c.keys), func(t *testing.T) {
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
				if c.keys == "spread" {
					x.score, x.reachedAt = rng.Int32N(1<<30), rng.Int64N(1<<40)
				}
				x.sortScore, x.sortSubscore = int64(x.score), int64(x.subscore)
				if c.unset && !x.hasSubscore {
					x.sortSubscore = math.MaxInt64
				}
				if c.wide {
					x.seq = int64(rng.Uint64())
				}
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

// BenchmarkSortedByKey orders rows drawn as a seeded DAY board's
// (SeedPeriod: ASC, a subscore each, whole minutes, seq in heap order), a
// million unless SORT_ROWS says, by the packed keys' buckets and by the
// comparison sort they replaced, then whole (order and gather).
// SORT_ROWS=10000000 go test -run '^$' -bench SortedByKey -benchtime 3x ./db/
func BenchmarkSortedByKey(b *testing.B) {
	n := 1_000_000
	if s := os.Getenv("SORT_ROWS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	r := seededHeapRows(n)
	b.Run("packed", func(b *testing.B) {
		for range b.N {
			r.rankOrder()
		}
	})
	b.Run("compared", func(b *testing.B) {
		for range b.N {
			r.comparedOrder()
		}
	})
	b.Run("whole", func(b *testing.B) {
		for range b.N {
			r.sortedByKey()
		}
	})
}

// seededHeapRows returns n rows as a seeded board's period reads them from
// its heap.
func seededHeapRows(n int) *rankedRows {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &rankedRows{columns: withBoardColumns | withKeyColumns}
	r.idEnds, r.scores = make([]uint32, 0, n), make([]int32, 0, n)
	for i := range n {
		r.ids = append(r.ids, fmt.Sprintf("player-%08d", i+1)...)
		r.idEnds = append(r.idEnds, uint32(len(r.ids)))
		score := int64(rng.IntN(10_001)) * 200_000
		sub := int64(rng.IntN(1_000_000))
		r.scores = append(r.scores, int32(score))
		r.subscores, r.hasSubscore = append(r.subscores, int32(sub)), append(r.hasSubscore, true)
		r.metadataEnds = append(r.metadataEnds, 0)
		r.reachedAtMicros = append(r.reachedAtMicros, 1_795_000_000_000_000+int64(rng.IntN(1440))*60_000_000)
		r.sortScores, r.sortSubscores = append(r.sortScores, score), append(r.sortSubscores, sub)
		r.seqs = append(r.seqs, 5000+int64(i))
	}
	return r
}
