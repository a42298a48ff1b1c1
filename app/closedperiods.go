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

// correctionsFollowed has the closed periods in memory of this instance
// follow each correction made through it before its caller hears of it
// (closedperiods.Cache.Follow), so that the caller's next read here meets
// the corrected period.
type correctionsFollowed struct {
	leaderboard.CorrectionService
	follow func(context.Context)
}

// CorrectScore corrects, then follows the correction.
func (c correctionsFollowed) CorrectScore(ctx context.Context, board, key, playerID string, score *int, reason string) (*leaderboard.Correction, error) {
	correction, err := c.CorrectionService.CorrectScore(ctx, board, key, playerID, score, reason)
	if err == nil {
		c.follow(ctx)
	}
	return correction, err
}

// erasuresFollowed is correctionsFollowed of the erasures, which correct
// the closed periods their player had a score in.
type erasuresFollowed struct {
	leaderboard.ErasureService
	follow func(context.Context)
}

// ErasePlayer erases, then follows the closed periods it corrected.
func (e erasuresFollowed) ErasePlayer(ctx context.Context, playerID, reason string) (*leaderboard.Erasure, error) {
	erasure, err := e.ErasureService.ErasePlayer(ctx, playerID, reason)
	if err == nil && erasure != nil && erasure.CorrectedPeriods > 0 {
		e.follow(ctx)
	}
	return erasure, err
}

// followClosedPeriods has the closed periods in memory follow the
// corrections and erasures this instance just made. A failure is logged,
// not answered: the write is made, and the Watcher follows it by its
// announcement or the next check of the versions.
func (m *Main) followClosedPeriods(ctx context.Context) {
	if m.ClosedPeriods == nil {
		return
	}
	if err := m.ClosedPeriods.Follow(ctx, m.DB); err != nil {
		m.Logger.WarnContext(ctx, "closed periods in memory not brought to the versions of a correction or erasure; the watcher will",
			"err", err)
	}
}
