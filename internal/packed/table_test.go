package packed

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// oracleRow is a row as the oracle holds it: plain fields, ranked by a
// plain sort.
type oracleRow struct {
	id, name        string
	named           bool
	score, subscore int
	hasSubscore     bool
	metadata        string
	reachedAtMicros int64
	key             Key
}

// randomRows returns n rows of random scores (wide or not), subscores,
// metadata and names, in rank order by a plain sort: score high to low,
// then earlier, then sequence.
func randomRows(rng *rand.Rand, n int, wide bool) []oracleRow {
	rows := make([]oracleRow, n)
	base := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	for i := range rows {
		r := &rows[i]
		r.id = fmt.Sprintf("p%d-%x", i, rng.Uint32())
		r.score = rng.IntN(40)
		if wide {
			r.score = rng.IntN(5)*1_000_000_000 - 2_000_000_000
		}
		r.reachedAtMicros = base + int64(rng.IntN(5))
		r.hasSubscore = wide && rng.IntN(3) > 0
		r.subscore = rng.IntN(7) - 3
		if wide && rng.IntN(2) == 0 {
			r.metadata = fmt.Sprintf(`{"car":%d}`, rng.IntN(5))
		}
		r.named = rng.IntN(4) > 0
		r.name = "Name " + strconv.Itoa(i)
		r.key = Key{SortScore: -int64(r.score), SortSubscore: int64(r.subscore), Seq: int64(i + 1)}
	}
	slices.SortFunc(rows, func(a, b oracleRow) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.reachedAtMicros, b.reachedAtMicros),
			cmp.Compare(a.key.Seq, b.key.Seq))
	})
	return rows
}

// entry returns row i of rows as a table's entry of rank i+1, its time in loc.
func (r oracleRow) entry(rank int, loc *time.Location) leaderboard.RankEntry {
	e := leaderboard.RankEntry{Rank: rank, Score: r.score, ReachedAt: time.UnixMicro(r.reachedAtMicros).In(loc),
		Player: leaderboard.Player{ID: r.id}}
	if r.named {
		e.Player.Name = new(r.name)
	}
	if r.hasSubscore {
		e.Subscore = new(r.subscore)
	}
	if r.metadata != "" {
		e.Metadata = []byte(r.metadata)
	}
	return e
}

// buildTable builds the table of rows as a month is built (Add), or, with
// columns, as a board's period is (TableOf), and names it from the names
// of rows and of players it does not hold, in random order.
func buildTable(t *testing.T, rng *rand.Rand, rows []oracleRow, columns bool) *Table {
	t.Helper()
	var table *Table
	if columns {
		var c Columns
		for _, r := range rows {
			c.IDs = append(c.IDs, r.id...)
			c.IDEnds = append(c.IDEnds, uint32(len(c.IDs)))
			c.Scores = append(c.Scores, int32(r.score))
			c.ReachedAtMicros = append(c.ReachedAtMicros, r.reachedAtMicros)
			c.Subscores = append(c.Subscores, int32(r.subscore))
			c.HasSubscore = append(c.HasSubscore, r.hasSubscore)
			c.Metadata = append(c.Metadata, r.metadata...)
			c.MetadataEnds = append(c.MetadataEnds, uint64(len(c.Metadata)))
			c.Keys = append(c.Keys, r.key)
		}
		table = TableOf(c, time.Local)
	} else {
		table = NewTable(len(rows))
		for _, r := range rows {
			table.Add(r.id, r.score, r.reachedAtMicros)
		}
	}
	type named struct{ id, name string }
	var names []named
	for i, r := range rows {
		if r.named {
			names = append(names, named{r.id, r.name})
		}
		names = append(names, named{fmt.Sprint("stranger-", i), "Stranger"})
	}
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	buf := make([]byte, 0, 64)
	for _, n := range names {
		// Views of a buffer reused for the next name, as db's reads hand them.
		buf = append(append(buf[:0], n.id...), n.name...)
		if err := table.SetName(view(buf[:len(n.id)]), view(buf[len(n.id):])); err != nil {
			t.Fatal(err)
		}
	}
	if err := table.Complete(); err != nil {
		t.Fatal(err)
	}
	return table
}

// Every read of a table, built as a month's or as a board's period's, is
// the plain sort's: each player's rank and entry, every window of 0..4
// neighbours each side, every page of 1..5 from every rank with its
// cursors, and a group's ranks best first; ids it does not hold have no
// rank.
func TestTable_ReadsAreThePlainSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	for round := range 40 {
		wide, columns := round%2 == 1, round%4 >= 2
		rows := randomRows(rng, 1+rng.IntN(150), wide)
		for i := range rows {
			if !columns { // a month has no board's columns
				rows[i].hasSubscore, rows[i].metadata = false, ""
			}
		}
		table := buildTable(t, rng, rows, columns)
		loc := time.UTC
		if columns {
			loc = time.Local
		}
		want := make([]leaderboard.RankEntry, len(rows))
		for i, r := range rows {
			want[i] = r.entry(i+1, loc)
		}
		if table.Players() != len(rows) {
			t.Fatalf("round %d: %d players, want %d", round, table.Players(), len(rows))
		}
		for i, r := range rows {
			if got := table.RankOf(r.id); got != i+1 {
				t.Fatalf("round %d: rank of %s %d, want %d", round, r.id, got, i+1)
			}
			if columns && table.Key(i+1) != r.key {
				t.Fatalf("round %d: key of rank %d %+v, want %+v", round, i+1, table.Key(i+1), r.key)
			}
			for above := range 5 {
				for below := range 5 {
					entries, self := table.Window(i+1, above, below)
					first, last := max(0, i-above), min(len(rows), i+1+below)
					if !reflect.DeepEqual(entries, want[first:last]) || self != i-first {
						t.Fatalf("round %d: window of rank %d -%d+%d:\n got %+v (self %d)\nwant %+v", round, i+1, above,
							below, entries, self, want[first:last])
					}
				}
			}
		}
		if table.RankOf("stranger-0") != 0 || table.RankOf("") != 0 {
			t.Fatalf("round %d: a player it does not hold has a rank", round)
		}
		cursor := func(rank int) string { return fmt.Sprint("c", rank) }
		for after := 0; after <= len(rows); after++ {
			for first := 0; first <= 5; first++ {
				page := table.Page(after, first, cursor)
				to := min(after+first, len(rows))
				wantPage := &leaderboard.Page{Edges: []leaderboard.Edge{}, HasNextPage: to < len(rows), Total: len(rows)}
				for i := after; i < to; i++ {
					wantPage.Edges = append(wantPage.Edges, leaderboard.Edge{Cursor: cursor(i + 1), Entry: want[i]})
				}
				if !reflect.DeepEqual(page, wantPage) {
					t.Fatalf("round %d: page of %d after rank %d:\n got %+v\nwant %+v", round, first, after, page, wantPage)
				}
			}
		}
		var ids []string
		var wantRanks []int
		for i, r := range rows {
			if rng.IntN(3) == 0 {
				ids, wantRanks = append(ids, r.id), append(wantRanks, i+1)
			}
			if rng.IntN(5) == 0 {
				ids = append(ids, fmt.Sprint("nobody-", i))
			}
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		if got := table.RanksOf(ids); !slices.Equal(got, wantRanks) && len(got)+len(wantRanks) > 0 {
			t.Fatalf("round %d: group ranks %v, want %v", round, got, wantRanks)
		}
	}
}

// A table holds its names in rank order, whatever order they came in, so
// that a standing's neighbours' names lie together in memory.
func TestTable_NamesInRankOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 2))
	table := buildTable(t, rng, randomRows(rng, 1000, false), false)
	previous := uint32(0)
	for i, k := range table.nameOf {
		if k == 0 {
			continue
		}
		if start := table.names.Offsets[k-1]; start < previous {
			t.Fatalf("the name of rank %d starts at byte %d, before the name of a higher rank (%d)", i+1, start, previous)
		}
		previous = table.names.Offsets[k]
	}
}

// A month's scores take two bytes until one does not fit, then four, each
// score kept; a board's columns in which no row has a value are dropped.
func TestTable_ColumnsAsNarrowAsTheirValues(t *testing.T) {
	table := NewTable(3)
	for i, score := range []int{7, 65535, 70000, -4} {
		table.Add(fmt.Sprint("p", i), score, 0)
	}
	if err := table.Complete(); err != nil {
		t.Fatal(err)
	}
	for rank, want := range []int{7, 65535, 70000, -4} {
		if got := table.Entry(rank+1, new(string)).Score; got != want {
			t.Errorf("score of rank %d: %d, want %d", rank+1, got, want)
		}
	}
	narrow := NewTable(1)
	narrow.Add("p", 10000, 0)
	board := TableOf(Columns{IDs: []byte("ab"), IDEnds: []uint32{1, 2}, Scores: []int32{2, 1},
		ReachedAtMicros: []int64{0, 0}, Subscores: []int32{0, 0}, HasSubscore: []bool{false, false},
		MetadataEnds: []uint64{0, 0}}, time.UTC)
	if narrow.wide != nil || board.subscores != nil || board.hasSubscore != nil || board.metadataEnds != nil {
		t.Error("a month's scores are wide, or a board's empty columns were kept")
	}
}

// A second name for a player is refused.
func TestTable_RefusesASecondName(t *testing.T) {
	table := NewTable(1)
	table.Add("p", 1, 0)
	for _, name := range []string{"A", "B"} {
		if err := table.SetName("p", name); err != nil {
			t.Fatal(err)
		}
	}
	if err := table.Complete(); err == nil {
		t.Fatal("a second name was taken")
	}
}
