package closedperiods

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// A table built from names in another order than the ranks' answers every
// player's name (that it holds them in rank order is packed's
// TestTable_NamesInRankOrder).
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

// Every standing of a small table, for every rank and every count of
// neighbours above and below from 0 to 12 (past both ends of the table), is
// the plain slice of the rows around the player: no neighbour dropped at an
// end, none added, each with its own score, time and name.
func TestTable_StandingIsTheSliceAroundThePlayer(t *testing.T) {
	const players = 15
	m, _ := leaderboard.NewMonth(2026, time.November)
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]leaderboard.RankEntry, players)
	for i := range rows {
		rows[i] = leaderboard.RankEntry{Rank: i + 1, Score: 10000 - i/2*10, // pairs of equal scores
			ReachedAt: start.Add(time.Duration(i)*time.Hour + time.Duration(i)*time.Microsecond),
			Player:    leaderboard.Player{ID: fmt.Sprintf("p%02d", i+1)}}
		if i%3 != 1 {
			rows[i].Player.Name = new("Name " + rows[i].Player.ID)
		}
	}
	f, err := Build(m, players, func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		for _, r := range rows {
			if err := entry(leaderboard.RankEntry{Rank: r.Rank, Score: r.Score, ReachedAt: r.ReachedAt, Player: leaderboard.Player{ID: r.Player.ID}}); err != nil {
				return err
			}
		}
		for _, r := range rows {
			if r.Player.Name != nil {
				if err := name(r.Player.ID, *r.Player.Name); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	describe := func(entries []leaderboard.RankEntry) string {
		var b strings.Builder
		for _, e := range entries {
			name := "<none>"
			if e.Player.Name != nil {
				name = *e.Player.Name
			}
			fmt.Fprintf(&b, "[%d %d %s %s %q] ", e.Rank, e.Score, e.ReachedAt.Format(time.RFC3339Nano), e.Player.ID, name)
		}
		return b.String()
	}
	for rank := 1; rank <= players; rank++ {
		i := rank - 1
		for above := 0; above <= 12; above++ {
			for below := 0; below <= 12; below++ {
				s := f.table.standing(rows[i].Player.ID, above, below)
				if s == nil {
					t.Fatalf("rank %d: no standing", rank)
				}
				wantAbove, wantBelow := rows[max(0, i-above):i], rows[i+1:min(players, i+1+below)]
				if got, want := describe([]leaderboard.RankEntry{s.RankEntry}), describe(rows[i:i+1]); got != want {
					t.Fatalf("rank %d: the player is %s, want %s", rank, got, want)
				}
				if got, want := describe(s.Above), describe(wantAbove); got != want || len(s.Above) != len(wantAbove) {
					t.Fatalf("rank %d, %d above: %s, want %s", rank, above, got, want)
				}
				if got, want := describe(s.Below), describe(wantBelow); got != want || len(s.Below) != len(wantBelow) {
					t.Fatalf("rank %d, %d below: %s, want %s", rank, below, got, want)
				}
				if s.Month != m || s.Total != players || !s.Final {
					t.Fatalf("rank %d: month %s, total %d, final %t; want %s, %d, true", rank, s.Month, s.Total, s.Final, m, players)
				}
			}
		}
	}
	if s := f.table.standing("p16", 12, 12); s != nil {
		t.Errorf("a player without a rank has a standing: %+v", s)
	}
}
