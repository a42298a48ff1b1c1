package bench

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// Neighbours is how many players above and below every standing read asks for.
const Neighbours = 10

// standingQuery is the read every standing measurement sends: a rank with
// its ±10 window and the names of all 21 players, as a game client asks.
var standingQuery = fmt.Sprintf(`query Standing($month: Month!, $playerId: ID!) {
  standing(month: $month, playerId: $playerId) {
    rank score total final
    player { name }
    neighbours(above: %d, below: %d) { rank score player { name } }
  }
}`, Neighbours, Neighbours)

// Finality is what a standing read expects of the answer's final flag.
type Finality int

// The finalities a read may expect.
const (
	ExpectLive   Finality = iota // an open month: final is false
	ExpectFinal                  // a closed month: final is true
	ExpectEither                 // a month that closes meanwhile
)

func (f Finality) accepts(final bool) bool {
	return f == ExpectEither || final == (f == ExpectFinal)
}

// standingAnswer is the data of standingQuery.
type standingAnswer struct {
	Standing *struct {
		Rank, Score, Total int
		Final              bool
		Player             struct{ Name *string }
		Neighbours         []struct {
			Rank, Score int
			Player      struct{ Name *string }
		}
	}
}

// check reports what is wrong with an answer for a player who has a score,
// in a month or period of the given finality whose table is in order (DESC:
// scores never rise down the table; ASC: never fall).
func (a standingAnswer) check(finality Finality, order leaderboard.SortOrder) error {
	s := a.Standing
	switch {
	case s == nil:
		return fmt.Errorf("standing is null")
	case !finality.accepts(s.Final):
		return fmt.Errorf("final is %v, want %v", s.Final, !s.Final)
	case s.Rank < 1 || s.Rank > s.Total:
		return fmt.Errorf("rank %d outside 1..%d", s.Rank, s.Total)
	case s.Player.Name == nil || *s.Player.Name == "":
		return fmt.Errorf("rank %d: no player name", s.Rank)
	}
	above, below := min(Neighbours, s.Rank-1), min(Neighbours, s.Total-s.Rank)
	if len(s.Neighbours) != above+below {
		return fmt.Errorf("rank %d of %d: %d neighbours, want %d", s.Rank, s.Total, len(s.Neighbours), above+below)
	}
	// The window with the player in its place: consecutive ranks, scores
	// in the table's order.
	type entry struct{ rank, score int }
	window := make([]entry, 0, above+1+below)
	for i, n := range s.Neighbours {
		if n.Player.Name == nil || *n.Player.Name == "" {
			return fmt.Errorf("rank %d: neighbour at rank %d has no name", s.Rank, n.Rank)
		}
		if i == above {
			window = append(window, entry{s.Rank, s.Score})
		}
		window = append(window, entry{n.Rank, n.Score})
	}
	if above == len(s.Neighbours) {
		window = append(window, entry{s.Rank, s.Score})
	}
	for i, e := range window {
		if e.rank != s.Rank-above+i {
			return fmt.Errorf("rank %d: window has rank %d where %d belongs", s.Rank, e.rank, s.Rank-above+i)
		}
		if i > 0 && outOfOrder(order, window[i-1].score, e.score) {
			return fmt.Errorf("rank %d: rank %d scores %d, below rank %d's %d in %s order", s.Rank, e.rank, e.score,
				window[i-1].rank, window[i-1].score, order)
		}
	}
	return nil
}

// outOfOrder reports whether score may not follow the score above it in a
// table of order.
func outOfOrder(order leaderboard.SortOrder, above, score int) bool {
	if order == leaderboard.OrderAsc {
		return score < above
	}
	return score > above
}

// HTTPStanding returns, for each client of a load, an Op that asks the
// service over HTTP for the standing of a player drawn by pick in month m
// and checks the answer's shape and its final flag.
func HTTPStanding(c *GraphQL, m leaderboard.Month, pick Picker, finality Finality) Workload {
	month := m.String()
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 1))
		return func(ctx context.Context) error {
			player := pick(rng)
			var answer standingAnswer
			if err := c.Do(ctx, "", standingQuery, map[string]any{"month": month, "playerId": player}, &answer); err != nil {
				return fmt.Errorf("standing of %s: %w", player, err)
			}
			if err := answer.check(finality, leaderboard.OrderDesc); err != nil {
				return fmt.Errorf("standing of %s: %w", player, err)
			}
			return nil
		}
	}
}

// DBStanding returns, for each client of a load, an Op that reads the
// standing of a player drawn by pick in month m straight from the service's
// db package, in this process: the database's share of a read, without
// HTTP, GraphQL or the names (which the service loads in a second query).
func DBStanding(store *db.DB, m leaderboard.Month, pick Picker) Workload {
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 2))
		var main *leaderboard.Board
		return func(ctx context.Context) error {
			player := pick(rng)
			if main == nil {
				var err error
				if main, err = store.Board(ctx, leaderboard.MainBoard); err != nil {
					return err
				}
			}
			s, err := store.PeriodStanding(ctx, main, m.String(), player, Neighbours, Neighbours)
			if err != nil {
				return err
			}
			if s == nil || len(s.Above)+len(s.Below) != min(Neighbours, s.Rank-1)+min(Neighbours, s.Total-s.Rank) {
				return fmt.Errorf("standing of %s: missing or short window: %+v", player, s)
			}
			return nil
		}
	}
}
