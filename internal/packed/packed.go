// Package packed holds the one table kind that closed periods are held in
// in memory, main's closed months and every other board's closed periods
// (Table): rows in rank order, packed in columns, among them the players'
// ids back to back in an arena, and an open-addressing index from id to
// rank, built and probed a batch at a time. A map from id to rank costs
// about 40 bytes a player and a string header an id; the index costs 8 to
// 16 (a uint32 slot, at most half full) and shares the ids' arena.
package packed

import (
	"hash/maphash"
	"unsafe"
)

// Arena holds strings back to back; string i is
// Data[Offsets[i]:Offsets[i+1]]. It only grows: the bytes of a string
// added never change, so At hands out views of them, not copies.
type Arena struct {
	Data    []byte
	Offsets []uint32
}

// Add appends s.
func (a *Arena) Add(s string) {
	if a.Offsets == nil {
		a.Offsets = append(a.Offsets, 0)
	}
	a.Data = append(a.Data, s...)
	a.Offsets = append(a.Offsets, uint32(len(a.Data)))
}

// Len returns how many strings a holds.
func (a *Arena) Len() int { return max(len(a.Offsets)-1, 0) }

// At returns string i, a view of the arena's bytes: it keeps the arena's
// block alive while it is held, which a request's answer does briefly.
func (a *Arena) At(i int) string {
	b := a.Data[a.Offsets[i]:a.Offsets[i+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Equal reports whether string i is s.
func (a *Arena) Equal(i int, s string) bool {
	return string(a.Data[a.Offsets[i]:a.Offsets[i+1]]) == s
}

// Bytes is the memory a's columns hold.
func (a *Arena) Bytes() int { return cap(a.Data) + 4*cap(a.Offsets) }

// LookupBatch is how many ids an Index indexes or looks up at a time. A
// big table's index and ids are far larger than the CPU's caches, so each
// id costs a few loads from memory; taken a batch at a time, each kind of
// load is a loop of its own over the batch, whose loads the CPU makes
// together instead of one after another: the build of a 4M-player table
// with names took 1.9 s (1.8-2.0) so, against 4.0 s (3.9-4.2) one id at a
// time (measured when the build was closedperiods' own).
const LookupBatch = 64

// Index is the ids of a table's players in rank order, the id of rank r
// string r-1 of IDs, and an open-addressing index from id to rank.
type Index struct {
	IDs     Arena
	slots   []uint32 // rank, or 0 for an empty slot
	seed    maphash.Seed
	indexed int // the ids from indexed on are added but not indexed yet
}

// NewIndex returns an empty index sized for n players.
func NewIndex(n int) *Index {
	slots := 1
	for slots < 2*n { // at most half full: short probe runs
		slots <<= 1
	}
	return &Index{IDs: Arena{Offsets: make([]uint32, 1, n+1)}, slots: make([]uint32, slots), seed: maphash.MakeSeed()}
}

// IndexOf returns the index of the ids in data, id i ending at ends[i] and
// starting where id i-1 ends (0 for id 0), which it shares, not copies.
func IndexOf(data []byte, ends []uint32) *Index {
	x := NewIndex(len(ends))
	x.IDs.Data = data
	x.IDs.Offsets = append(x.IDs.Offsets, ends...)
	for x.indexed < x.IDs.Len() {
		x.Flush()
	}
	return x
}

// Add appends the id of the next rank. It is indexed with the batch it
// joins (Flush).
func (x *Index) Add(id string) {
	x.IDs.Add(id)
	if x.IDs.Len()-x.indexed == LookupBatch {
		x.Flush()
	}
}

// Flush indexes up to LookupBatch of the ids added but not indexed yet.
func (x *Index) Flush() {
	var slots [LookupBatch]uint64
	pending := min(x.IDs.Len()-x.indexed, LookupBatch)
	for k := range pending {
		slots[k] = x.slot(x.IDs.At(x.indexed + k))
	}
	var taken [LookupBatch]bool
	for k := range pending {
		taken[k] = x.slots[slots[k]] != 0
	}
	for k := range pending {
		slot := slots[k]
		if taken[k] {
			slot = x.freeSlotFrom(slot)
		}
		if x.slots[slot] != 0 { // taken by this batch
			slot = x.freeSlotFrom(slot)
		}
		x.slots[slot] = uint32(x.indexed + k + 1)
	}
	x.indexed += pending
}

// freeSlotFrom returns the first free slot from slot on.
func (x *Index) freeSlotFrom(slot uint64) uint64 {
	for x.slots[slot] != 0 {
		slot = (slot + 1) & uint64(len(x.slots)-1)
	}
	return slot
}

func (x *Index) slot(id string) uint64 {
	return maphash.String(x.seed, id) & uint64(len(x.slots)-1)
}

// Len returns how many ids x holds.
func (x *Index) Len() int { return x.IDs.Len() }

// RankOf returns the rank of the player with id, or 0 when it has none.
// Every id added is indexed (Flush) before the first lookup.
func (x *Index) RankOf(id string) int { return x.rankFrom(x.slot(id), id) }

// rankFrom returns the player's rank, probing from slot on, or 0.
func (x *Index) rankFrom(slot uint64, id string) int {
	for ; x.slots[slot] != 0; slot = (slot + 1) & uint64(len(x.slots)-1) {
		if rank := int(x.slots[slot]); x.IDs.Equal(rank-1, id) {
			return rank
		}
	}
	return 0
}

// RanksOf sets ranks[k] to the rank of ids[k], or 0, for up to
// LookupBatch ids, batching the loads as Flush does.
func (x *Index) RanksOf(ids []string, ranks []int) {
	var (
		slots  [LookupBatch]uint64
		found  [LookupBatch]uint32
		starts [LookupBatch]uint32
		first  [LookupBatch]byte
	)
	for k, id := range ids {
		slots[k] = x.slot(id)
	}
	for k := range ids {
		found[k] = x.slots[slots[k]]
	}
	for k := range ids {
		if r := found[k]; r != 0 {
			starts[k] = x.IDs.Offsets[r-1]
		}
	}
	for k := range ids {
		if found[k] != 0 && int(starts[k]) < len(x.IDs.Data) {
			first[k] = x.IDs.Data[starts[k]]
		}
	}
	for k, id := range ids {
		ranks[k] = 0
		if r := int(found[k]); r != 0 && len(id) > 0 && first[k] == id[0] && x.IDs.Equal(r-1, id) {
			ranks[k] = r
		} else if r != 0 {
			ranks[k] = x.rankFrom(slots[k], id)
		}
	}
}

// Bytes is the memory x's ids and index hold.
func (x *Index) Bytes() int { return x.IDs.Bytes() + 4*cap(x.slots) }
