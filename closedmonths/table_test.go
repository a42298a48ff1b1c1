package closedmonths

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// A table built from names in another order than the ranks' answers every
// player's name, and holds the names in rank order, so that a standing's
// neighbours' names lie together in memory.
func TestBuild_NamesInRankOrder(t *testing.T) {
	const players = 1000
	m, _ := leaderboard.NewMonth(2026, time.November)
	ranked := make([]string, players)
	for i := range ranked {
		ranked[i] = fmt.Sprintf("p%04d", i)
	}
	rand.New(rand.NewPCG(5, 6)).Shuffle(players, func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	nameOf := func(id string) (string, bool) { return "Name of " + id, id[len(id)-1] != '7' }
	f, err := Build(m, players, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		for i, id := range ranked {
			if err := entry(leaderboard.RankEntry{Rank: i + 1, Score: players - i, Player: leaderboard.Player{ID: id}}); err != nil {
				return err
			}
		}
		for i := players - 1; i >= 0; i-- { // ids in descending order
			id := fmt.Sprintf("p%04d", i)
			if n, ok := nameOf(id); ok {
				if err := name(id, n); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	table := f.table
	for rank, id := range ranked {
		s := table.standing(id, 1, 1)
		if s == nil || s.Rank != rank+1 || s.Player.ID != id {
			t.Fatalf("standing of %s: %+v, want rank %d", id, s, rank+1)
		}
		want, named := nameOf(id)
		switch {
		case named && (s.Player.Name == nil || *s.Player.Name != want):
			t.Fatalf("name of %s: %v, want %q", id, s.Player.Name, want)
		case !named && s.Player.Name != nil:
			t.Fatalf("name of %s: %q, want none", id, *s.Player.Name)
		}
	}
	previous := uint32(0)
	for i, k := range table.nameOf {
		if k == 0 {
			continue
		}
		if start := table.names.offsets[k-1]; start < previous {
			t.Fatalf("the name of rank %d starts at byte %d, before the name of a higher rank (%d)", i+1, start, previous)
		}
		previous = table.names.offsets[k]
	}
}

// A month whose players have no names builds, and answers no names.
func TestBuild_WithoutNames(t *testing.T) {
	m, _ := leaderboard.NewMonth(2026, time.November)
	f, err := Build(m, 2, func(entry func(leaderboard.RankEntry) error, _ func(playerID, name string) error) error {
		for i, id := range []string{"b", "a"} {
			if err := entry(leaderboard.RankEntry{Rank: i + 1, Score: 10 - i, Player: leaderboard.Player{ID: id}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := f.table.standing("a", 1, 1)
	if s == nil || s.Rank != 2 || s.Player.Name != nil || len(s.Above) != 1 || s.Above[0].Player.ID != "b" || s.Above[0].Player.Name != nil {
		t.Fatalf("standing of a: %+v", s)
	}
}
