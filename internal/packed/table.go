package packed

import (
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/gamebackend/leaderboard"
)

// Table is the frozen table of one closed period in rank order, the one
// kind that main's closed months and every other board's closed periods
// are held in: the row of rank r is at index r-1 of each column. Every
// table has ids (with their Index), names, scores and reached-at times; a
// board's period adds the columns a month lacks, each kept only when some
// row has a value: subscores, metadata, the keys its cursors carry, and
// cohort places. A month's scores (0..10000) are two bytes a row; a score
// outside 0..65535 widens the column to four. Once built (Complete) it is
// read-only, so safe for concurrent use.
type Table struct {
	ids *Index
	// names arrive after the rows, in no order, and are put in rank order
	// once all are in (orderNames): nameOf[r-1] is the index in names of
	// the name of the player of rank r, plus one; 0 when it has none.
	names  Arena
	nameOf []uint32
	// One of narrow and wide holds the scores: narrow while every score
	// fits a uint16.
	narrow          []uint16
	wide            []int32
	reachedAtMicros []int64
	loc             *time.Location // of the entries' ReachedAt

	// A board's columns, nil when no row has a value.
	subscores    []int32
	hasSubscore  []bool
	metadata     []byte
	metadataEnds []uint64 // 64-bit: 10M players' metadata may pass 4 GiB
	keys         []Key
	places       []Place

	// While the table is built: the names not given yet, their ids and
	// names back to back, copied (SetName's are views).
	pending     []byte
	pendingEnds []uint32 // an id's end, then its name's, for each name
}

// Key is a row's place in its board's order, but its reached-at time: the
// sort keys and sequence number that a board's cursors carry. The table
// holds them for its owner, which orders and encodes them.
type Key struct{ SortScore, SortSubscore, Seq int64 }

// Place is a row's place in its cohort, on a board with cohorts; zero for
// a row in none.
type Place struct{ Rank, Size int32 }

// NewTable returns an empty table sized for n players, to fill with Add,
// SetName and Complete; its entries' times are in UTC.
func NewTable(n int) *Table {
	return &Table{ids: NewIndex(n), nameOf: make([]uint32, 0, n), narrow: make([]uint16, 0, n),
		reachedAtMicros: make([]int64, 0, n), loc: time.UTC}
}

// Add appends the row of the next rank, without its player's name. Its id
// is indexed with the batch it joins (Index.Flush). The score must fit an
// int32, as every board's does.
func (t *Table) Add(id string, score int, reachedAtMicros int64) {
	t.ids.Add(id)
	t.nameOf = append(t.nameOf, 0)
	switch {
	case t.wide == nil && score >= 0 && score <= 1<<16-1:
		t.narrow = append(t.narrow, uint16(score))
	case t.wide == nil:
		t.wide = make([]int32, len(t.narrow), max(cap(t.narrow), len(t.narrow)+1))
		for i, s := range t.narrow {
			t.wide[i] = int32(s)
		}
		t.narrow = nil
		fallthrough
	default:
		t.wide = append(t.wide, int32(score))
	}
	t.reachedAtMicros = append(t.reachedAtMicros, reachedAtMicros)
}

// Columns are a board's period's rows in rank order, column by column, as
// a close reads them. TableOf takes them over: none is copied.
type Columns struct {
	// IDs are the players' ids back to back, row i's ending at IDEnds[i]
	// and starting where row i-1's ends (0 for row 0).
	IDs             []byte
	IDEnds          []uint32
	Scores          []int32
	ReachedAtMicros []int64
	// Subscores[i] is row i's subscore when HasSubscore[i]; both nil for a
	// board whose rows have none.
	Subscores   []int32
	HasSubscore []bool
	// Metadata is the rows' metadata back to back, row i's ending at
	// MetadataEnds[i] as ids do; empty for none.
	Metadata     []byte
	MetadataEnds []uint64
	Keys         []Key // nil when the owner pages by none
}

// TableOf returns the table of the rows c holds, their entries' times in
// loc, to name with SetName and Complete. Of the optional columns, those in
// which no row has a value are dropped.
func TableOf(c Columns, loc *time.Location) *Table {
	t := &Table{ids: IndexOf(c.IDs, c.IDEnds), nameOf: make([]uint32, len(c.Scores)), wide: c.Scores,
		reachedAtMicros: c.ReachedAtMicros, loc: loc, keys: c.Keys}
	if slices.Contains(c.HasSubscore, true) {
		t.subscores, t.hasSubscore = c.Subscores, c.HasSubscore
	}
	if len(c.Metadata) > 0 {
		t.metadata, t.metadataEnds = c.Metadata, c.MetadataEnds
	}
	return t
}

// AddPlaces gives the table a column of cohort places, every row in no
// cohort until SetPlace.
func (t *Table) AddPlaces() { t.places = make([]Place, t.Players()) }

// SetPlace sets the cohort place of the player of rank; the table has
// places (AddPlaces).
func (t *Table) SetPlace(rank int, p Place) { t.places[rank-1] = p }

// PlaceOf returns the cohort place of rank, and false when the table has
// no places.
func (t *Table) PlaceOf(rank int) (Place, bool) {
	if t.places == nil {
		return Place{}, false
	}
	return t.places[rank-1], true
}

// SetName gives the player with the id its name, with the batch it joins
// (Complete names the last); a player without a rank is ignored. id and
// name are copied: they may be views of a buffer the caller reuses. Every
// row is in by the first name.
func (t *Table) SetName(id, name string) error {
	t.flushIDs()
	t.pending = append(t.pending, id...)
	t.pendingEnds = append(t.pendingEnds, uint32(len(t.pending)))
	t.pending = append(t.pending, name...)
	t.pendingEnds = append(t.pendingEnds, uint32(len(t.pending)))
	if len(t.pendingEnds) < 2*LookupBatch {
		return nil
	}
	return t.namePending()
}

// flushIDs indexes every id added.
func (t *Table) flushIDs() {
	for t.ids.indexed < t.ids.Len() {
		t.ids.Flush()
	}
}

// Complete indexes and names what is pending, and puts the names in rank
// order; it returns an error when a player was named twice.
func (t *Table) Complete() error {
	t.flushIDs()
	if err := t.namePending(); err != nil {
		return err
	}
	t.pending, t.pendingEnds = nil, nil
	t.orderNames()
	return nil
}

// namePending gives the players of the pending names their names.
func (t *Table) namePending() error {
	var (
		ids   [LookupBatch]string
		names [LookupBatch]string
		ranks [LookupBatch]int
	)
	n := len(t.pendingEnds) / 2
	start := uint32(0)
	for k := range n {
		idEnd, nameEnd := t.pendingEnds[2*k], t.pendingEnds[2*k+1]
		ids[k], names[k] = view(t.pending[start:idEnd]), view(t.pending[idEnd:nameEnd])
		start = nameEnd
	}
	t.ids.RanksOf(ids[:n], ranks[:n])
	for k := range n {
		rank := ranks[k]
		switch {
		case rank == 0:
			continue
		case t.nameOf[rank-1] != 0:
			return fmt.Errorf("a second name for player %q", ids[k])
		}
		t.names.Add(names[k])
		t.nameOf[rank-1] = uint32(t.names.Len())
	}
	t.pending, t.pendingEnds = t.pending[:0], t.pendingEnds[:0]
	return nil
}

func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// orderNames rewrites the names in rank order. They arrive in the players
// table's order, so the names of a standing's neighbours would lie far apart,
// a load from memory each; in rank order they are read together. The loads
// are batched as in Index.Flush. At 4M players (closedperiods' benchmarks)
// it adds about 0.25 s to a build, and a standing read with its neighbours'
// names takes 3.7 µs instead of 5.3.
func (t *Table) orderNames() {
	ordered := Arena{Data: make([]byte, 0, len(t.names.Data)), Offsets: make([]uint32, 1, max(1, len(t.names.Offsets)))}
	var from, to [LookupBatch]uint32
	for first := 0; first < len(t.nameOf); first += LookupBatch {
		batch := t.nameOf[first:min(first+LookupBatch, len(t.nameOf))]
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

// Players returns how many rows the table holds.
func (t *Table) Players() int { return len(t.reachedAtMicros) }

// RankOf returns the player's rank, or 0 when the player has none.
func (t *Table) RankOf(id string) int { return t.ids.RankOf(id) }

// RanksOf returns the ranks of those of ids with one, best first: RankOf
// of each, those without a rank left out, sorted. It looks the ids up a batch at
// a time (Index.RanksOf), so that the processor has many of a large table's
// cache misses in flight at once, not one id's in a row: 200 ids in a table
// of 4M players, 55 µs against 70 to 100.
func (t *Table) RanksOf(ids []string) []int {
	found := make([]int, len(ids))
	for first := 0; first < len(ids); first += LookupBatch {
		last := min(first+LookupBatch, len(ids))
		t.ids.RanksOf(ids[first:last], found[first:last])
	}
	ranks := make([]int, 0, len(ids))
	for _, rank := range found {
		if rank != 0 {
			ranks = append(ranks, rank)
		}
	}
	slices.Sort(ranks)
	return ranks
}

// Key returns the key of rank; the table has keys (Columns.Keys).
func (t *Table) Key(rank int) Key { return t.keys[rank-1] }

// ReachedAtMicros returns when the player of rank reached its score, in
// microseconds since 1970 UTC.
func (t *Table) ReachedAtMicros(rank int) int64 { return t.reachedAtMicros[rank-1] }

// Entry returns the entry of rank; its player's name, when it has one, is
// put in *name, so that the names of an answer can be one allocation. The
// id, name and metadata are views of the table's bytes, never written once
// built, as a month's are.
func (t *Table) Entry(rank int, name *string) leaderboard.RankEntry {
	i := rank - 1
	e := leaderboard.RankEntry{
		Rank:      rank,
		ReachedAt: time.UnixMicro(t.reachedAtMicros[i]).In(t.loc),
		Player:    leaderboard.Player{ID: t.ids.IDs.At(i)},
	}
	if t.wide != nil {
		e.Score = int(t.wide[i])
	} else {
		e.Score = int(t.narrow[i])
	}
	if k := t.nameOf[i]; k != 0 {
		*name = t.names.At(int(k - 1))
		e.Player.Name = name
	}
	if t.subscores != nil && t.hasSubscore[i] {
		e.Subscore = new(int(t.subscores[i]))
	}
	if t.metadata != nil {
		start := uint64(0)
		if i > 0 {
			start = t.metadataEnds[i-1]
		}
		if end := t.metadataEnds[i]; end > start {
			e.Metadata = t.metadata[start:end]
		}
	}
	return e
}

// Entries returns the entries of ranks first to last, 1 <= first and last
// <= Players(): the entries one allocation, their names another.
func (t *Table) Entries(first, last int) []leaderboard.RankEntry {
	n := max(last-first+1, 0)
	entries, names := make([]leaderboard.RankEntry, n), make([]string, n)
	for i := range entries {
		entries[i] = t.Entry(first+i, &names[i])
	}
	return entries
}

// Window returns the entries of rank and of up to above and below
// neighbours, clipped at the table's ends, and the index of rank's.
func (t *Table) Window(rank, above, below int) (entries []leaderboard.RankEntry, self int) {
	first, last := max(1, rank-max(above, 0)), min(t.Players(), rank+max(below, 0))
	return t.Entries(first, last), rank - first
}

// Page returns the page of up to first entries after rank after (0 for the
// top), each with the cursor that cursor returns for its rank.
func (t *Table) Page(after, first int, cursor func(rank int) string) *leaderboard.Page {
	from := min(max(after, 0), t.Players())
	to := min(from+max(first, 0), t.Players())
	page := &leaderboard.Page{Edges: make([]leaderboard.Edge, to-from), HasNextPage: to < t.Players(), Total: t.Players()}
	names := make([]string, len(page.Edges))
	for i := range page.Edges {
		rank := from + 1 + i
		page.Edges[i] = leaderboard.Edge{Cursor: cursor(rank), Entry: t.Entry(rank, &names[i])}
	}
	return page
}

// Bytes is the memory the table's columns hold.
func (t *Table) Bytes() int {
	return t.ids.Bytes() + t.names.Bytes() + 4*cap(t.nameOf) + 2*cap(t.narrow) + 4*cap(t.wide) +
		8*cap(t.reachedAtMicros) + 4*cap(t.subscores) + cap(t.hasSubscore) + cap(t.metadata) +
		8*cap(t.metadataEnds) + int(unsafe.Sizeof(Key{}))*cap(t.keys) + int(unsafe.Sizeof(Place{}))*cap(t.places)
}
