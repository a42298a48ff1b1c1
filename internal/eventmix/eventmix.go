// Package eventmix makes the score events the benchmarks submit: the same
// mix for the HTTP suite (internal/bench) and the db-level benchmarks, so
// that their figures compare.
package eventmix

import (
	"fmt"
	"math/rand/v2"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The mix of a generated batch, in percent of its events; the rest are
// first events of new players.
const (
	AddShare  = 40 // ADD 1..10 to a seeded player
	BestShare = 30 // BEST 0..3000 for a seeded player
	SetShare  = 20 // SET 0..3000 for a seeded player
)

// MaxScoreForAdd is the highest seeded score that still takes ADD events
// (on a board whose maximum is main's 10000): far enough below the maximum
// that the mix's ADDs cannot pass it.
const MaxScoreForAdd = 9900

// Source makes the events of one client: a mix of ADD, BEST and SET on
// random seeded players, and first events of new players.
type Source struct {
	rng     *rand.Rand
	prefix  string
	players int
	// noAdd holds the seeded players an ADD could push past the maximum
	// score; they get BEST or SET instead.
	noAdd map[string]bool
	next  int
}

// New returns an event source whose event ids are prefix and a counter,
// whose players are drawn from seeded players 1..players and new ones, and
// whose random choices follow seed.
func New(prefix string, seed uint64, players int, noAdd map[string]bool) *Source {
	return &Source{rng: rand.New(rand.NewPCG(seed, 3)), prefix: prefix, players: players, noAdd: noAdd}
}

// Batch returns the next n events, for main (Board "").
func (s *Source) Batch(n int) []leaderboard.ScoreEvent {
	events := make([]leaderboard.ScoreEvent, n)
	for i := range events {
		s.next++
		e := leaderboard.ScoreEvent{EventID: fmt.Sprintf("%s%d", s.prefix, s.next),
			PlayerID: db.SeedPlayerID(1 + s.rng.IntN(s.players))}
		switch roll := s.rng.IntN(100); {
		case roll < AddShare && !s.noAdd[e.PlayerID]:
			e.Mode, e.Value = leaderboard.ModeAdd, 1+s.rng.IntN(10)
		case roll < AddShare+BestShare:
			e.Mode, e.Value = leaderboard.ModeBest, s.rng.IntN(3001)
		case roll < AddShare+BestShare+SetShare:
			e.Mode, e.Value = leaderboard.ModeSet, s.rng.IntN(3001)
		default:
			e.PlayerID = "new-" + e.EventID
			e.PlayerName = new(db.SeedPlayerName(s.rng))
			e.Mode, e.Value = leaderboard.ModeBest, s.rng.IntN(3001)
		}
		events[i] = e
	}
	return events
}
