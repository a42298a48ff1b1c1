package closedmonths

import (
	"fmt"
	"hash/maphash"
	"time"

	"github.com/gamebackend/leaderboard"
)

// table is the frozen table of one closed month, in rank order, packed so that
// ten million players take about 640 MiB: ids and names in two byte
// arenas, and an open-addressing index from id to rank.
type table struct {
	month leaderboard.Month
	// The row of rank r is at index r-1 of each column but names, which
	// arrive after the ranks, in no order: nameOf[r-1] is the index in names
	// of the name of the player of rank r, plus one; 0 when it has none.
	ids, names      arena
	nameOf          []uint32
	scores          []uint16
	reachedAtMicros []int64
	index           []uint32 // rank, or 0 for an empty slot
	seed            maphash.Seed
}

// arena holds strings back to back; string i is data[offsets[i]:offsets[i+1]].
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

func (a *arena) at(i int) string {
	return string(a.data[a.offsets[i]:a.offsets[i+1]])
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

// add appends the entry of the next rank, without its player's name.
func (t *table) add(e leaderboard.RankEntry) {
	i := len(t.scores)
	t.ids.add(e.Player.ID)
	t.nameOf = append(t.nameOf, 0)
	t.scores = append(t.scores, uint16(e.Score))
	t.reachedAtMicros = append(t.reachedAtMicros, e.ReachedAt.UnixMicro())
	slot := t.slot(e.Player.ID)
	for t.index[slot] != 0 {
		slot = (slot + 1) & uint64(len(t.index)-1)
	}
	t.index[slot] = uint32(i + 1)
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

// complete returns an error unless the table holds participants ranks.
func (t *table) complete(participants int) error {
	if t.players() != participants {
		return fmt.Errorf("%d ranks for %d participants", t.players(), participants)
	}
	return nil
}

// setName gives the player with the id its name; a player without a rank
// in the month is ignored.
func (t *table) setName(playerID, name string) error {
	rank := t.rankOf(playerID)
	switch {
	case rank == 0:
		return nil
	case t.nameOf[rank-1] != 0:
		return fmt.Errorf("a second name for player %q", playerID)
	}
	t.names.add(name)
	t.nameOf[rank-1] = uint32(len(t.names.offsets) - 1)
	return nil
}

func (t *table) slot(id string) uint64 {
	return maphash.String(t.seed, id) & uint64(len(t.index)-1)
}

// rankOf returns the player's rank, or 0 when the player has none.
func (t *table) rankOf(id string) int {
	for slot := t.slot(id); t.index[slot] != 0; slot = (slot + 1) & uint64(len(t.index)-1) {
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

func (t *table) entry(rank int) leaderboard.RankEntry {
	i := rank - 1
	return leaderboard.RankEntry{
		Rank:      rank,
		Score:     int(t.scores[i]),
		ReachedAt: time.UnixMicro(t.reachedAtMicros[i]).UTC(),
		Player:    t.player(i),
	}
}

// player returns the player of row i, which holds rank i+1.
func (t *table) player(i int) leaderboard.Player {
	p := leaderboard.Player{ID: t.ids.at(i)}
	if k := t.nameOf[i]; k != 0 {
		p.Name = new(t.names.at(int(k - 1)))
	}
	return p
}

// standing returns the player's standing with up to above and below
// neighbours, or nil when the player has no rank.
func (t *table) standing(id string, above, below int) *leaderboard.Standing {
	rank := t.rankOf(id)
	if rank == 0 {
		return nil
	}
	s := &leaderboard.Standing{RankEntry: t.entry(rank), Month: t.month, Total: t.players(), Final: true}
	for r := max(1, rank-above); r <= min(t.players(), rank+below); r++ {
		switch {
		case r < rank:
			s.Above = append(s.Above, t.entry(r))
		case r > rank:
			s.Below = append(s.Below, t.entry(r))
		}
	}
	return s
}
