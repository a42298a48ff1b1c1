package app

import (
	"context"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
	"github.com/gamebackend/leaderboard/db"
)

// periodSource is what the closed periods in memory read through, on every
// board, main's months among them: the standings, groups and pages of
// periods not loaded from the replica, as every public read (a submit's
// rank is read on the primary: LiveRanks); the closed periods to load from
// the primary, which a close or correction announced has surely reached.
type periodSource struct {
	*db.DB
	reader *db.DB
}

// PeriodStanding reads from the replica.
func (s periodSource) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, playerID string, above, below int) (*leaderboard.Standing, error) {
	return s.reader.PeriodStanding(ctx, b, key, playerID, above, below)
}

// PeriodLeaderboard reads from the replica.
func (s periodSource) PeriodLeaderboard(ctx context.Context, b *leaderboard.Board, key string, first int, after string) (*leaderboard.Page, error) {
	return s.reader.PeriodLeaderboard(ctx, b, key, first, after)
}

// PeriodGroup reads from the replica.
func (s periodSource) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	return s.reader.PeriodGroup(ctx, b, key, playerIDs)
}

// LoadClosedPeriod loads the period as the db does, as a FrozenPeriod.
func (s periodSource) LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
	admit func(participants int, end time.Time) bool) (closedperiods.FrozenPeriod, error) {
	p, err := s.DB.LoadClosedPeriod(ctx, b, key, admit)
	if p == nil {
		return nil, err // a nil *db.ClosedPeriod is no FrozenPeriod
	}
	return p, err
}

// periodHandoff has the closes of this instance hand the periods they close
// to cache: staged, not final, as soon as the close built it, and final as
// its close commits.
func periodHandoff(cache *closedperiods.Cache) db.PeriodHandoff {
	return db.PeriodHandoff{Fits: cache.PeriodFits,
		Closed: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
			cache.PeriodClosed(b, key, p, end)
		},
		Closing: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
			cache.PeriodClosing(b, key, p, end)
		},
		Abandoned: func(b *leaderboard.Board, key string) { cache.PeriodAbandoned(b.ID, key) }}
}
