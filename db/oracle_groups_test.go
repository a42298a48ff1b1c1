package db_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// checkOracleGroups reads groups of p's players at the edges of the
// contract (one player, 1,000, ids without a standing, a group inside the
// tie group and around it) and checks each against the plain sort: the
// players with a standing, best first, each entry the standing the player's
// own read gives without neighbours.
func checkOracleGroups(t *testing.T, p oraclePeriod, table []boardOracleEntry, rng *rand.Rand) {
	t.Helper()
	rankOf := make(map[string]int, len(table))
	players := make([]string, len(table))
	for i, e := range table {
		rankOf[e.player], players[i] = i+1, e.player
	}
	shuffled := func(ids []string) []string {
		ids = slices.Clone(ids)
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		return ids
	}
	tie := []string{"early", "late", "nosub", "next.up", "next.down", "sub0", "sub5", "sub9"}
	for i := 0; i < oracleTieGroup; i += 181 {
		tie = append(tie, fmt.Sprintf("tie%04d", i))
	}
	nobody := []string{"nobody", "nobody.else", "ghost"}
	groups := map[string][]string{
		"the first":              {players[0]},
		"the last":               {players[len(players)-1]},
		"one in the tie group":   {"tie1000"},
		"1000, shuffled":         shuffled(players)[:1000],
		"997 and 3 nobodies":     shuffled(append(shuffled(players)[:997], nobody...)),
		"the tie group and near": shuffled(tie),
		"nobodies only":          nobody,
		"one and a nobody":       {"nobody", players[len(players)/2]},
	}
	for name, ids := range groups {
		group, err := p.group(context.Background(), ids)
		if err != nil {
			t.Fatalf("group %s: %v", name, err)
		}
		var want []int
		for _, id := range ids {
			if rank, ok := rankOf[id]; ok {
				want = append(want, rank)
			}
		}
		slices.Sort(want)
		if len(group) != len(want) {
			t.Fatalf("group %s: %d standings, want %d (the %d ids with a standing)", name, len(group), len(want), len(want))
		}
		for i, s := range group {
			where := fmt.Sprintf("group %s, groupRank %d", name, i+1)
			if diff := sameEntry(s.RankEntry, table[want[i]-1], want[i]); diff != "" {
				t.Fatalf("%s: %s", where, diff)
			}
			if len(s.Above) != 0 || len(s.Below) != 0 {
				t.Fatalf("%s: %d above, %d below; a group's standings have no neighbours", where, len(s.Above), len(s.Below))
			}
			// Sampled, as the single reads are the slow part: every entry
			// of the small groups, a tenth of the large ones.
			if len(group) > 20 && i%10 != 0 {
				continue
			}
			own, err := p.standing(context.Background(), s.Player.ID, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			own.Above, own.Below = nil, nil
			if !reflect.DeepEqual(&s, own) {
				t.Fatalf("%s: %+v; the player's own standing is %+v", where, s, *own)
			}
		}
	}
}
