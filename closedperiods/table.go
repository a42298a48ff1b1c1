package closedperiods

import (
	"fmt"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/packed"
)

// table is the frozen table of one closed month: its rows are a
// packed.Table, the one kind every closed period is held in, with the
// columns a month needs (ids and their index, names, two-byte scores,
// reached-at times), so that ten million demo players take about 620 MiB.
type table struct {
	month leaderboard.Month
	// closing marks the table of a month whose close has not committed:
	// its ranks are the month's, frozen, but not final yet.
	closing bool
	// version is the month's ranks version the table holds; 0 while it is
	// staged.
	version int
	rows    *packed.Table
}

// newTable returns an empty table sized for n players.
func newTable(m leaderboard.Month, n int) *table {
	return &table{month: m, rows: packed.NewTable(n)}
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
		t.rows.Add(e.Player.ID, e.Score, e.ReachedAt.UnixMicro())
		return nil
	}
}

// complete indexes and names what is pending, and returns an error unless
// the table holds participants ranks.
func (t *table) complete(participants int) error {
	if err := t.rows.Complete(); err != nil {
		return err
	}
	if t.players() != participants {
		return fmt.Errorf("%d ranks for %d participants", t.players(), participants)
	}
	return nil
}

// setName gives the player with the id its name; a player without a rank
// in the month is ignored.
func (t *table) setName(playerID, name string) error { return t.rows.SetName(playerID, name) }

// rankOf returns the player's rank, or 0 when the player has none.
func (t *table) rankOf(id string) int { return t.rows.RankOf(id) }

func (t *table) players() int { return t.rows.Players() }

// bytes is the memory the table's columns hold.
func (t *table) bytes() int { return t.rows.Bytes() }

// entry returns the entry of rank; its player's name, when it has one, is
// put in *name.
func (t *table) entry(rank int, name *string) leaderboard.RankEntry { return t.rows.Entry(rank, name) }

// standing returns the player's standing with up to above and below
// neighbours, or nil when the player has no rank. Its entries and names
// are two allocations, whatever the number of neighbours.
func (t *table) standing(id string, above, below int) *leaderboard.Standing {
	rank := t.rankOf(id)
	if rank == 0 {
		return nil
	}
	entries, self := t.rows.Window(rank, above, below)
	s := &leaderboard.Standing{RankEntry: entries[self], Month: t.month, Total: t.players(), Final: !t.closing}
	if self > 0 {
		s.Above = entries[:self:self]
	}
	if self < len(entries)-1 {
		s.Below = entries[self+1:]
	}
	return s
}
