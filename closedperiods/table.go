package closedperiods

import (
	"fmt"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/packed"
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
	ids             *packed.Index
	names           packed.Arena
	nameOf          []uint32
	scores          []uint16
	reachedAtMicros []int64

	// While the table is built: the names not given yet.
	pendingNames []namedPlayer
}

// newTable returns an empty table sized for n players.
func newTable(m leaderboard.Month, n int) *table {
	return &table{
		month:           m,
		ids:             packed.NewIndex(n),
		nameOf:          make([]uint32, 0, n),
		scores:          make([]uint16, 0, n),
		reachedAtMicros: make([]int64, 0, n),
	}
}

// add appends the entry of the next rank, without its player's name. Its
// id is indexed with the batch it joins (packed.Index.Flush).
func (t *table) add(e leaderboard.RankEntry) {
	t.ids.Add(e.Player.ID)
	t.nameOf = append(t.nameOf, 0)
	t.scores = append(t.scores, uint16(e.Score))
	t.reachedAtMicros = append(t.reachedAtMicros, e.ReachedAt.UnixMicro())
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
	t.ids.Flush()
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
	t.ids.Flush() // every rank is in by the first name
	t.pendingNames = append(t.pendingNames, namedPlayer{playerID, name})
	if len(t.pendingNames) < packed.LookupBatch {
		return nil
	}
	return t.namePending()
}

// namePending gives the players of the pending names their names.
func (t *table) namePending() error {
	pending := t.pendingNames
	t.pendingNames = t.pendingNames[:0]
	var (
		ids   [packed.LookupBatch]string
		ranks [packed.LookupBatch]int
	)
	for k, p := range pending {
		ids[k] = p.id
	}
	t.ids.RanksOf(ids[:len(pending)], ranks[:len(pending)])
	for k, p := range pending {
		rank := ranks[k]
		switch {
		case rank == 0:
			continue
		case t.nameOf[rank-1] != 0:
			return fmt.Errorf("a second name for player %q", p.id)
		}
		t.names.Add(p.name)
		t.nameOf[rank-1] = uint32(t.names.Len())
	}
	return nil
}

// orderNames rewrites the names in rank order. They arrive in the players
// table's order, so the names of a standing's neighbours would lie far apart,
// a load from memory each; in rank order they are read together. The loads
// are batched as in packed.Index.Flush. At 4M players (the benchmarks) it adds
// about 0.25 s to a build, and a standing read with its neighbours' names
// takes 3.7 µs instead of 5.3.
func (t *table) orderNames() {
	ordered := packed.Arena{Data: make([]byte, 0, len(t.names.Data)), Offsets: make([]uint32, 1, max(1, len(t.names.Offsets)))}
	var from, to [packed.LookupBatch]uint32
	for first := 0; first < len(t.nameOf); first += packed.LookupBatch {
		batch := t.nameOf[first:min(first+packed.LookupBatch, len(t.nameOf))]
		for j, k := range batch {
			if k != 0 {
				from[j] = t.names.Offsets[k-1]
			}
		}
		for j, k := range batch {
			if k != 0 {
				to[j] = t.names.Offsets[k]
			}
		}
		for j, k := range batch {
			if k != 0 {
				ordered.Data = append(ordered.Data, t.names.Data[from[j]:to[j]]...)
				ordered.Offsets = append(ordered.Offsets, uint32(len(ordered.Data)))
				batch[j] = uint32(ordered.Len())
			}
		}
	}
	t.names = ordered
}

// rankOf returns the player's rank, or 0 when the player has none.
func (t *table) rankOf(id string) int { return t.ids.RankOf(id) }

func (t *table) players() int { return len(t.scores) }

// bytes is the memory the table's columns hold.
func (t *table) bytes() int {
	return t.ids.Bytes() + t.names.Bytes() + 4*cap(t.nameOf) + 8*cap(t.reachedAtMicros) + 2*cap(t.scores)
}

// entry returns the entry of rank; its player's name, when it has one, is
// put in *name.
func (t *table) entry(rank int, name *string) leaderboard.RankEntry {
	i := rank - 1
	e := leaderboard.RankEntry{
		Rank:      rank,
		Score:     int(t.scores[i]),
		ReachedAt: time.UnixMicro(t.reachedAtMicros[i]).UTC(),
		Player:    leaderboard.Player{ID: t.ids.IDs.At(i)},
	}
	if k := t.nameOf[i]; k != 0 {
		*name = t.names.At(int(k - 1))
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
