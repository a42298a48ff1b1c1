package packed

import (
	"fmt"
	"testing"
)

// An index finds the rank of every id it holds, one at a time and a batch
// at a time, ids that share their first slot with another included, and
// no rank for an id it does not hold.
func TestIndex_RanksOfIsRankOf(t *testing.T) {
	const players = 5000
	x := NewIndex(players)
	for i := range players {
		x.Add(fmt.Sprint("p", i))
	}
	x.Flush()
	probed := 0
	for first := 0; first < 2*players; first += LookupBatch {
		var ids []string
		for i := first; i < first+LookupBatch; i++ {
			ids = append(ids, fmt.Sprint("p", i))
		}
		ranks := make([]int, len(ids))
		x.RanksOf(ids, ranks)
		for k, id := range ids {
			want := 0
			if i := first + k; i < players {
				want = i + 1
			}
			if r := x.slots[x.slot(id)]; r != 0 && x.IDs.At(int(r)-1) != id {
				probed++
			}
			if ranks[k] != want || x.RankOf(id) != want {
				t.Fatalf("%s: RanksOf %d, RankOf %d, want %d", id, ranks[k], x.RankOf(id), want)
			}
		}
	}
	if probed == 0 {
		t.Fatal("no id shared its first slot with another: the probe on was not tried")
	}
}

// An index over an arena's ids, as a closed period's rows hold them, finds
// their ranks and shares their bytes.
func TestIndexOf_SharesTheIDs(t *testing.T) {
	var (
		data []byte
		ends []uint32
	)
	for i := range 300 {
		data = append(data, fmt.Sprint("id-", i)...)
		ends = append(ends, uint32(len(data)))
	}
	x := IndexOf(data, ends)
	for i := range 300 {
		if got := x.RankOf(fmt.Sprint("id-", i)); got != i+1 {
			t.Fatalf("id-%d: rank %d, want %d", i, got, i+1)
		}
	}
	if x.RankOf("id-300") != 0 || &x.IDs.Data[0] != &data[0] {
		t.Fatal("an id it does not hold has a rank, or the ids were copied")
	}
}
