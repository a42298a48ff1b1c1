package closedperiods

import (
	"fmt"
	"hash/maphash"
	"time"
	"unsafe"

	"github.com/gamebackend/leaderboard"
)

// table is the frozen table of one closed month, in rank order, packed so that
// ten million demo players take about 620 MiB: ids and names in two byte
// arenas, and an open-addressing index from id to rank.
type table struct {
	month leaderboard.Month
	// closing marks the table of a month whose close has not committed:
	// its ranks are the month's, frozen, but not final yet.
	closing bool
	// version is the month's ranks version the table holds; 0 while it is
	// staged.
	version int
	// The row of rank r is at index r-1 of each column but names, which
	// arrive after the ranks, in no order, and are put in rank order once
	// all are in: nameOf[r-1] is the index in names of the name of the
	// player of rank r, plus one; 0 when it has none.
	ids, names      arena
	nameOf          []uint32
	scores          []uint16
	reachedAtMicros []int64
	index           []uint32 // rank, or 0 for an empty slot
	seed            maphash.Seed

	// While the table is built: the rows added but not indexed yet are
	// those from indexed on, and the names not given yet are pendingNames.
	indexed      int
	pendingNames []namedPlayer
}

// arena holds strings back to back; string i is data[offsets[i]:offsets[i+1]].
// It only grows: the bytes of a string added never change, so at hands out
// views of them, not copies.
type arena struct {
	data    []byte
	offsets []uint32
}

func (a *arena) add(s string) {
	if a.offsets == nil {
		a.offsets = append(a.offsets, 0)
	}
	a.data = append(a.data, s...)
	a.offsets = append(a.offsets, uint32(len(a.data)))
}

// at returns string i, a view of the arena's bytes: it keeps the arena's
// block alive while it is held, which a request's answer does briefly.
func (a *arena) at(i int) string {
	b := a.data[a.offsets[i]:a.offsets[i+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (a *arena) equal(i int, s string) bool {
	return string(a.data[a.offsets[i]:a.offsets[i+1]]) == s
}

// newTable returns an empty table sized for n players.
func newTable(m leaderboard.Month, n int) *table {
	slots := 1
	for slots < 2*n { // at most half full: short probe runs
		slots <<= 1
	}
	return &table{
		month:           m,
		ids:             arena{offsets: make([]uint32, 1, n+1)},
		nameOf:          make([]uint32, 0, n),
		scores:          make([]uint16, 0, n),
		reachedAtMicros: make([]int64, 0, n),
		index:           make([]uint32, slots),
		seed:            maphash.MakeSeed(),
	}
}

// add appends the entry of the next rank, without its player's name. Its
// id is indexed with the batch it joins (indexPending).
func (t *table) add(e leaderboard.RankEntry) {
	t.ids.add(e.Player.ID)
	t.nameOf = append(t.nameOf, 0)
	t.scores = append(t.scores, uint16(e.Score))
	t.reachedAtMicros = append(t.reachedAtMicros, e.ReachedAt.UnixMicro())
	if t.players()-t.indexed == lookupBatch {
		t.indexPending()
	}
}

// lookupBatch is how many ids the table indexes or looks up at a time. A
// month's index and ids are far larger than the CPU's caches, so each id
// costs a few loads from memory; taken a batch at a time, each kind of load
// is a loop of its own over the batch, whose loads the CPU makes together
// instead of one after another: BenchmarkBuild, a 4M-player table with
// names, takes 1.9 s (1.8-2.0) here, against 4.0 s (3.9-4.2) one id at a
// time.
const lookupBatch = 64

// indexPending indexes the ids of the rows added since the last call.
func (t *table) indexPending() {
	var slots [lookupBatch]uint64
	pending := t.players() - t.indexed
	for k := range pending {
		slots[k] = t.slot(t.ids.at(t.indexed + k))
	}
	var taken [lookupBatch]bool
	for k := range pending {
		taken[k] = t.index[slots[k]] != 0
	}
	for k := range pending {
		slot := slots[k]
		if taken[k] {
			slot = t.freeSlotFrom(slot)
		}
		if t.index[slot] != 0 { // taken by this batch
			slot = t.freeSlotFrom(slot)
		}
		t.index[slot] = uint32(t.indexed + k + 1)
	}
	t.indexed += pending
}

// freeSlotFrom returns the first free slot from slot on.
func (t *table) freeSlotFrom(slot uint64) uint64 {
	for t.index[slot] != 0 {
		slot = (slot + 1) & uint64(len(t.index)-1)
	}
	return slot
}

// adder returns a function that adds each entry of the next rank, without
// its player's name, and fails past participants entries or out of order.
func (t *table) adder(participants int) func(leaderboard.RankEntry) error {
	return func(e leaderboard.RankEntry) error {
		if e.Rank != t.players()+1 {
			return fmt.Errorf("rank %d follows rank %d", e.Rank, t.players())
		}
		if t.players() == participants {
			return fmt.Errorf("more than %d ranks", participants)
		}
		t.add(e)
		return nil
	}
}

// complete indexes and names what is pending, and returns an error unless
// the table holds participants ranks.
func (t *table) complete(participants int) error {
	t.indexPending()
	if err := t.namePending(); err != nil {
		return err
	}
	t.orderNames()
	if t.players() != participants {
		return fmt.Errorf("%d ranks for %d participants", t.players(), participants)
	}
	return nil
}

// namedPlayer is a name waiting for its player's rank.
type namedPlayer struct{ id, name string }

// setName gives the player with the id its name, with the batch it joins
// (namePending); a player without a rank in the month is ignored.
func (t *table) setName(playerID, name string) error {
	t.indexPending() // every rank is in by the first name
	t.pendingNames = append(t.pendingNames, namedPlayer{playerID, name})
	if len(t.pendingNames) < lookupBatch {
		return nil
	}
	return t.namePending()
}

// namePending gives the players of the pending names their names.
func (t *table) namePending() error {
	pending := t.pendingNames
	t.pendingNames = t.pendingNames[:0]
	var (
		slots  [lookupBatch]uint64
		ranks  [lookupBatch]uint32
		starts [lookupBatch]uint32
		first  [lookupBatch]byte
	)
	for k, p := range pending {
		slots[k] = t.slot(p.id)
	}
	for k := range pending {
		ranks[k] = t.index[slots[k]]
	}
	for k := range pending {
		if r := ranks[k]; r != 0 {
			starts[k] = t.ids.offsets[r-1]
		}
	}
	for k := range pending {
		if ranks[k] != 0 && int(starts[k]) < len(t.ids.data) {
			first[k] = t.ids.data[starts[k]]
		}
	}
	for k, p := range pending {
		rank := 0
		if r := int(ranks[k]); r != 0 && len(p.id) > 0 && first[k] == p.id[0] && t.ids.equal(r-1, p.id) {
			rank = r
		} else if r != 0 {
			rank = t.rankFrom(slots[k], p.id)
		}
		switch {
		case rank == 0:
			continue
		case t.nameOf[rank-1] != 0:
			return fmt.Errorf("a second name for player %q", p.id)
		}
		t.names.add(p.name)
		t.nameOf[rank-1] = uint32(len(t.names.offsets) - 1)
	}
	return nil
}

// orderNames rewrites the names in rank order. They arrive in the players
// table's order, so the names of a standing's neighbours would lie far apart,
// a load from memory each; in rank order they are read together. The loads
// are batched as in indexPending. At 4M players (the benchmarks) it adds
// about 0.25 s to a build, and a standing read with its neighbours' names
// takes 3.7 µs instead of 5.3.
func (t *table) orderNames() {
	ordered := arena{data: make([]byte, 0, len(t.names.data)), offsets: make([]uint32, 1, max(1, len(t.names.offsets)))}
	var from, to [lookupBatch]uint32
	for first := 0; first < len(t.nameOf); first += lookupBatch {
		batch := t.nameOf[first:min(first+lookupBatch, len(t.nameOf))]
		for j, k := range batch {
			if k != 0 {
				from[j] = t.names.offsets[k-1]
			}
		}
		for j, k := range batch {
			if k != 0 {
				to[j] = t.names.offsets[k]
			}
		}
		for j, k := range batch {
			if k != 0 {
				ordered.data = append(ordered.data, t.names.data[from[j]:to[j]]...)
				ordered.offsets = append(ordered.offsets, uint32(len(ordered.data)))
				batch[j] = uint32(len(ordered.offsets) - 1)
			}
		}
	}
	t.names = ordered
}

func (t *table) slot(id string) uint64 {
	return maphash.String(t.seed, id) & uint64(len(t.index)-1)
}

// rankOf returns the player's rank, or 0 when the player has none.
func (t *table) rankOf(id string) int { return t.rankFrom(t.slot(id), id) }

// rankFrom returns the player's rank, probing from slot on, or 0.
func (t *table) rankFrom(slot uint64, id string) int {
	for ; t.index[slot] != 0; slot = (slot + 1) & uint64(len(t.index)-1) {
		if rank := int(t.index[slot]); t.ids.equal(rank-1, id) {
			return rank
		}
	}
	return 0
}

func (t *table) players() int { return len(t.scores) }

// bytes is the memory the table's columns hold.
func (t *table) bytes() int {
	return cap(t.ids.data) + cap(t.names.data) + 4*(cap(t.ids.offsets)+cap(t.names.offsets)+cap(t.index)+cap(t.nameOf)) +
		8*cap(t.reachedAtMicros) + 2*cap(t.scores)
}

// entry returns the entry of rank; its player's name, when it has one, is
// put in *name.
func (t *table) entry(rank int, name *string) leaderboard.RankEntry {
	i := rank - 1
	e := leaderboard.RankEntry{
		Rank:      rank,
		Score:     int(t.scores[i]),
		ReachedAt: time.UnixMicro(t.reachedAtMicros[i]).UTC(),
		Player:    leaderboard.Player{ID: t.ids.at(i)},
	}
	if k := t.nameOf[i]; k != 0 {
		*name = t.names.at(int(k - 1))
		e.Player.Name = name
	}
	return e
}

// standing returns the player's standing with up to above and below
// neighbours, or nil when the player has no rank. Its entries and names
// are two allocations, whatever the number of neighbours.
func (t *table) standing(id string, above, below int) *leaderboard.Standing {
	rank := t.rankOf(id)
	if rank == 0 {
		return nil
	}
	first, last := max(1, rank-above), min(t.players(), rank+below)
	entries, names := make([]leaderboard.RankEntry, last-first+1), make([]string, last-first+1)
	for r := first; r <= last; r++ {
		entries[r-first] = t.entry(r, &names[r-first])
	}
	s := &leaderboard.Standing{RankEntry: entries[rank-first], Month: t.month, Total: t.players(), Final: !t.closing}
	if rank > first {
		s.Above = entries[: rank-first : rank-first]
	}
	if rank < last {
		s.Below = entries[rank-first+1:]
	}
	return s
}
