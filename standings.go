package leaderboard

import (
	"context"
	"encoding/json"
	"time"
)

// Player is a player of the game, known by the game's own id.
type Player struct {
	ID   string
	Name *string // display name; nil when the game never sent one
}

// RankEntry is one row of a period's table.
type RankEntry struct {
	Rank      int
	Score     int
	ReachedAt time.Time
	// Player is read along with the rank, so that answering the entry's
	// player needs no second read.
	Player Player
	// Subscore and Metadata are those of the newest event that changed the
	// row; nil when it carried none, always on main, which keeps neither.
	Subscore *int
	Metadata json.RawMessage
}

// Standing is one player's place in a period, with the players around it,
// all read from one snapshot of the period.
type Standing struct {
	RankEntry
	// Month is the month of main's period; on another board, the month its
	// period starts in.
	Month Month
	// Board and Period name the standing's period; on main Period is the
	// month's key.
	Board  string
	Period string
	Total  int  // players ranked in the period
	Final  bool // true once the period is closed
	// Tier is the board's reward tier of a final standing; nil while live
	// and where no tier holds the rank.
	Tier *string
	// ClaimedAt is when the standing's reward was claimed (claimReward), if
	// it was and the read knows it; nil otherwise.
	ClaimedAt *time.Time
	// Above holds up to the requested number of entries ranked just above, and
	// Below those just below, both in rank order.
	Above, Below []RankEntry
}

// Percentile is the share of the period's players the standing ranks level
// with or above, in percent: 100 for the first, 100/total for the last.
func (s *Standing) Percentile() float64 {
	if s.Total <= 0 {
		return 0
	}
	return 100 * float64(s.Total-s.Rank+1) / float64(s.Total)
}

// Neighbours returns at most above entries ranked just above s and at most
// below entries just below it, in rank order, s itself excluded. It never
// returns more than s was read with.
func (s *Standing) Neighbours(above, below int) []RankEntry {
	above = min(max(above, 0), len(s.Above))
	below = min(max(below, 0), len(s.Below))
	out := make([]RankEntry, 0, above+below)
	out = append(out, s.Above[len(s.Above)-above:]...)
	return append(out, s.Below[:below]...)
}

// Edge is one entry of a leaderboard page with its opaque cursor.
type Edge struct {
	Cursor string
	Entry  RankEntry
}

// Page is one page of a period's table, from the top down.
type Page struct {
	Edges       []Edge
	HasNextPage bool
	Total       int
}

// StandingService reads the standings and tables of the periods of every
// board, main's months included: a period is named by its board and its key
// (main's are months, "2026-11").
type StandingService interface {
	// PeriodStanding returns the standing of playerID in period key of b
	// with up to above and below neighbours, all from one snapshot; nil when
	// the player has no score there or the period has no rows. EBADINPUT
	// for a key that is not one of b's.
	PeriodStanding(ctx context.Context, b *Board, key, playerID string, above, below int) (*Standing, error)
	// PeriodLeaderboard returns up to first entries of period key of b after
	// the cursor (from the top when after is ""), in b's order. EBADINPUT
	// for a key that is not one of b's, and for a malformed cursor or one of
	// another period.
	PeriodLeaderboard(ctx context.Context, b *Board, key string, first int, after string) (*Page, error)
}

// RankService reads the live ranks of submitted scores, on every board.
type RankService interface {
	// LiveRanks returns the current rank of each key that has a score, read
	// where the scores were written (it sees every write committed before
	// it); keys without one, or of a period or board that does not exist,
	// are absent. Main's keys name its months ("2026-11").
	LiveRanks(ctx context.Context, keys []PeriodPlayer) (map[PeriodPlayer]int, error)
}

// PeriodPlayer names one player's row in one period of a board.
type PeriodPlayer struct {
	Board    string
	Period   string
	PlayerID string
}

// metadataLeftOut marks a context whose reads may leave metadata out.
type metadataLeftOut struct{}

// WithoutMetadata returns ctx marked so that the standings and tables read
// under it may leave the rows' metadata out (nil): its caller does not answer
// it, and a row's metadata may be up to MaxMetadataBytes.
func WithoutMetadata(ctx context.Context) context.Context {
	return context.WithValue(ctx, metadataLeftOut{}, true)
}

// MetadataWanted reports whether reads under ctx must return the rows'
// metadata: true unless ctx comes from WithoutMetadata.
func MetadataWanted(ctx context.Context) bool {
	return ctx.Value(metadataLeftOut{}) == nil
}

// subscoreLeftOut marks a context whose standings may leave their
// neighbours' subscores out.
type subscoreLeftOut struct{}

// WithoutNeighbourSubscores returns ctx marked so that the standings read
// under it may leave their neighbours' subscores out (nil) on a board
// without a tie-break, whose sort key does not hold them: its caller does
// not answer them.
func WithoutNeighbourSubscores(ctx context.Context) context.Context {
	return context.WithValue(ctx, subscoreLeftOut{}, true)
}

// NeighbourSubscoresWanted reports whether standings read under ctx must
// return their neighbours' subscores: true unless ctx comes from
// WithoutNeighbourSubscores.
func NeighbourSubscoresWanted(ctx context.Context) bool {
	return ctx.Value(subscoreLeftOut{}) == nil
}
