package db

import (
	"cmp"
	"slices"
)

// sortedByKey returns r, read with withKeyColumns in any order, in rank
// order: by its sort keys, then reached_at, then seq, as board_scores_rank_idx
// orders a period's rows. seq is unique, so the order is total and the
// same as PostgreSQL's ORDER BY of those columns. r is left as it was.
func (r *rankedRows) sortedByKey() *rankedRows {
	n := r.len()
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
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
	s := &rankedRows{columns: r.columns, ids: make([]byte, 0, len(r.ids)), idEnds: make([]uint32, 0, n),
		scores: permuted(r.scores, order), reachedAtMicros: permuted(r.reachedAtMicros, order),
		sortScores: permuted(r.sortScores, order), sortSubscores: permuted(r.sortSubscores, order),
		seqs: permuted(r.seqs, order)}
	for _, i := range order {
		s.ids = append(s.ids, r.id(int(i))...)
		s.idEnds = append(s.idEnds, uint32(len(s.ids)))
	}
	if r.columns&withBoardColumns != 0 {
		s.subscores, s.hasSubscore = permuted(r.subscores, order), permuted(r.hasSubscore, order)
		s.metadata, s.metadataEnds = make([]byte, 0, len(r.metadata)), make([]uint64, 0, n)
		for _, i := range order {
			s.metadata = append(s.metadata, r.metadata[arenaStart(r.metadataEnds, int(i)):r.metadataEnds[i]]...)
			s.metadataEnds = append(s.metadataEnds, uint64(len(s.metadata)))
		}
	}
	return s
}

// permuted returns values in order: value order[i] at i.
func permuted[E any](values []E, order []int32) []E {
	out := make([]E, len(order))
	for i, j := range order {
		out[i] = values[j]
	}
	return out
}
