package db

import (
	"cmp"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// sortedByKey returns r, read with withKeyColumns in any order, in rank
// order: by its sort keys, then reached_at, then seq, as board_scores_rank_idx
// orders a period's rows. seq is unique, so the order is total and the
// same as PostgreSQL's ORDER BY of those columns. r is left as it was.
func (r *rankedRows) sortedByKey() *rankedRows {
	return r.permuted(r.rankOrder())
}

// rankOrder returns the rows of r in rank order, as their indexes. The four
// keys of a row are packed into one 128-bit number when they fit, each
// less its column's least, which orders as the keys do: then the rows are
// dealt into 65,536 buckets by the number's top bits (one counting pass),
// and each bucket, a few hundred rows at ten million, is sorted on its own,
// the buckets shared out among the cores. Against one comparison sort of
// the indexes through four columns, that reads memory in order and sorts
// small, cached runs (docs/PERFORMANCE.md, "a board's close at main's
// speed"). Keys that do not fit, such as seqs spread over more than 2^64
// minus the other keys' bits, are sorted by comparison.
func (r *rankedRows) rankOrder() []uint32 {
	cols := [4][]int64{r.sortScores, r.sortSubscores, r.reachedAtMicros, r.seqs}
	var packs [4]keyPacking
	for i, c := range cols {
		packs[i] = packingOf(c)
	}
	hiBits, loBits := packs[0].bits+packs[1].bits, packs[2].bits+packs[3].bits
	if hiBits > 64 || loBits > 64 {
		return r.comparedOrder()
	}
	keyOf := func(i int) packedKey {
		return packedKey{
			hi:  packs[0].of(cols[0][i])<<packs[1].bits | packs[1].of(cols[1][i]),
			lo:  packs[2].of(cols[2][i])<<packs[3].bits | packs[3].of(cols[3][i]),
			row: uint32(i)}
	}
	keys := sortPackedKeys(r.len(), keyOf, hiBits, loBits)
	order := make([]uint32, len(keys))
	for i, k := range keys {
		order[i] = k.row
	}
	return order
}

// keyPacking packs the values of one key column into bits bits, in order:
// each less least, and math.MaxInt64 (a missing subscore's key) one above
// the largest other value, so that it alone does not widen the column.
type keyPacking struct {
	least, sentinel int64
	bits            int
}

// packingOf returns the packing of values.
func packingOf(values []int64) keyPacking {
	least, most, hasMax := int64(math.MaxInt64), int64(math.MinInt64), false
	for _, v := range values {
		if v == math.MaxInt64 {
			hasMax = true
			continue
		}
		least, most = min(least, v), max(most, v)
	}
	if least > most { // none but the sentinel, or no rows
		return keyPacking{least: math.MaxInt64}
	}
	span := uint64(most) - uint64(least)
	p := keyPacking{least: least, sentinel: math.MaxInt64}
	if hasMax {
		span++
		if span == 0 { // every int64 but MaxInt64 is used: more than 64 bits
			return keyPacking{bits: 65}
		}
		p.sentinel = int64(span)
	}
	p.bits = bits.Len64(span)
	return p
}

// of returns v packed.
func (p keyPacking) of(v int64) uint64 {
	if v == math.MaxInt64 {
		return uint64(p.sentinel)
	}
	return uint64(v) - uint64(p.least)
}

// packedKey is a row's four keys as one 128-bit number, hi then lo, and the
// row's index.
type packedKey struct {
	hi, lo uint64
	row    uint32
}

func comparePackedKeys(a, b packedKey) int {
	if c := cmp.Compare(a.hi, b.hi); c != 0 {
		return c
	}
	return cmp.Compare(a.lo, b.lo)
}

// bucketBits is how many of a key's top bits deal it to a bucket.
const bucketBits = 16

// sortPackedKeys returns the keys of n rows, keyOf(i) row i's, whose hi
// holds hiBits bits and lo loBits, in order: each dealt straight to its
// bucket by its top bits, then each bucket sorted.
func sortPackedKeys(n int, keyOf func(int) packedKey, hiBits, loBits int) []packedKey {
	bucketOf := topBits(hiBits, loBits)
	starts := make([]int, 1<<bucketBits+1)
	for i := range n {
		starts[bucketOf(keyOf(i))+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	keys := make([]packedKey, n)
	next := slices.Clone(starts[:1<<bucketBits])
	for i := range n {
		k := keyOf(i)
		b := bucketOf(k)
		keys[next[b]] = k
		next[b]++
	}
	inParallel(n, starts, func(from, to int) {
		for b := from; b < to; b++ {
			slices.SortFunc(keys[starts[b]:starts[b+1]], comparePackedKeys)
		}
	})
	return keys
}

// topBits returns the function that gives a key's bucket: the top
// bucketBits of its hiBits+loBits bits, or all of them when fewer.
func topBits(hiBits, loBits int) func(packedKey) uint64 {
	shift := max(hiBits+loBits-bucketBits, 0)
	const mask = 1<<bucketBits - 1
	if shift >= loBits {
		return func(k packedKey) uint64 { return k.hi >> (shift - loBits) & mask }
	}
	// A shift by 64 or more leaves no bit: hi's when lo has all 64.
	return func(k packedKey) uint64 { return (k.hi<<(loBits-shift) | k.lo>>shift) & mask }
}

// inParallel calls work on ranges of buckets, one a core, each with about
// as many of the n keys: starts[b] is where bucket b starts.
func inParallel(n int, starts []int, work func(from, to int)) {
	cores := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	from := 0
	for c := 1; c <= cores; c++ {
		to := len(starts) - 1
		if c < cores {
			to, _ = slices.BinarySearch(starts, n*c/cores)
			to = max(min(to, len(starts)-1), from)
		}
		lo := from
		wg.Go(func() { work(lo, to) })
		from = to
	}
	wg.Wait()
}

// comparedOrder returns rankOrder's order by comparing the rows' keys, for
// keys that do not pack.
func (r *rankedRows) comparedOrder() []uint32 {
	order := make([]uint32, r.len())
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int {
		if c := cmp.Compare(r.sortScores[a], r.sortScores[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(r.sortSubscores[a], r.sortSubscores[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(r.reachedAtMicros[a], r.reachedAtMicros[b]); c != 0 {
			return c
		}
		return cmp.Compare(r.seqs[a], r.seqs[b])
	})
	return order
}

// permuted returns r's rows in order, each column gathered by a goroutine
// of its own.
func (r *rankedRows) permuted(order []uint32) *rankedRows {
	s := &rankedRows{columns: r.columns &^ unnumbered}
	var wg sync.WaitGroup
	wg.Go(func() { s.ids, s.idEnds = gatherArena(r.ids, r.idEnds, order) })
	wg.Go(func() {
		s.scores, s.reachedAtMicros = gathered(r.scores, order), gathered(r.reachedAtMicros, order)
		s.sortScores, s.sortSubscores = gathered(r.sortScores, order), gathered(r.sortSubscores, order)
		s.seqs = gathered(r.seqs, order)
		if r.columns&withBoardColumns != 0 {
			s.subscores, s.hasSubscore = gathered(r.subscores, order), gathered(r.hasSubscore, order)
		}
	})
	if r.columns&withBoardColumns != 0 {
		wg.Go(func() { s.metadata, s.metadataEnds = gatherArena(r.metadata, r.metadataEnds, order) })
	}
	wg.Wait()
	return s
}

// gathered returns values in order: value order[i] at i.
func gathered[E any](values []E, order []uint32) []E {
	out := make([]E, len(order))
	for i, j := range order {
		out[i] = values[j]
	}
	return out
}

// gatherArena returns the values of an arena (back to back in arena, value
// i ending at ends[i]) in order, as an arena of the same kind.
func gatherArena[E uint32 | uint64](arena []byte, ends []E, order []uint32) ([]byte, []E) {
	out, outEnds := make([]byte, 0, len(arena)), make([]E, 0, len(order))
	for _, i := range order {
		out = append(out, arena[arenaStart(ends, int(i)):ends[i]]...)
		outEnds = append(outEnds, E(len(out)))
	}
	return out, outEnds
}
