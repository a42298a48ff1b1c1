package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// periodColumns are the columns scanPeriod reads from periods p, in its order.
// An open period's participants are summed from its rank counters; a
// closed one's were frozen with its ranks.
const periodColumns = `p.key, p.status, p.starts_at, p.ends_at, p.closed_at,
	COALESCE(p.participants, ` + periodTotalSQL + `), p.digest`

// scanPeriod reads one row of periodColumns of board b. A stored period's
// status is OPEN until its close starts; before its start it is NOT_STARTED.
func (db *DB) scanPeriod(b *leaderboard.Board, row pgx.Row) (*leaderboard.Period, error) {
	var (
		p      = leaderboard.Period{Board: b.ID}
		status string
		digest *string
	)
	if err := row.Scan(&p.Key, &status, &p.StartsAt, &p.EndsAt, &p.ClosedAt, &p.Participants, &digest); err != nil {
		return nil, err
	}
	if m, err := leaderboard.ParseMonth(p.Key); err == nil && b.ID == leaderboard.MainBoard {
		// main's month starts where its calendar says (MonthOfPeriod).
		p.StartsAt = m.Start(b.Location)
	}
	p.Status = leaderboard.PeriodStatus(status)
	if p.Status == leaderboard.PeriodOpen && db.now().Before(p.StartsAt) {
		p.Status = leaderboard.PeriodNotStarted
	}
	if p.EndsAt != nil {
		p.ClosesAt = new(p.EndsAt.Add(b.CloseGrace))
	}
	if digest != nil {
		p.Digest = *digest
	}
	return &p, nil
}

// boardOrNotFound returns the board with id, or ENOTFOUND.
func (db *DB) boardOrNotFound(ctx context.Context, id string) (*leaderboard.Board, error) {
	b, err := db.Board(ctx, id)
	if err == nil && b == nil {
		err = leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", id)
	}
	return b, err
}

// Period returns period key of the board: the stored one, or how a period
// that no event opened yet stands; nil when there is none. ENOTFOUND for an
// unknown board, EBADINPUT for a key that is not one of the board's.
func (db *DB) Period(ctx context.Context, board, key string) (*leaderboard.Period, error) {
	b, err := db.boardOrNotFound(ctx, board)
	if err != nil {
		return nil, err
	}
	return db.period(ctx, b, key)
}

// period is Period's answer for b.
func (db *DB) period(ctx context.Context, b *leaderboard.Board, key string) (*leaderboard.Period, error) {
	span, err := b.PeriodSpan(key)
	if err != nil {
		return nil, err
	}
	p, err := db.openedPeriod(ctx, b, key)
	if err != nil || p != nil || b.Reset == leaderboard.ResetSeason {
		return p, err
	}
	return b.UnopenedPeriod(key, span, db.now()), nil
}

// OpenedPeriod returns period key of b as stored, nil when no event opened
// it (nor createSeason made it), from the replica when there is one
// (Reader). EBADINPUT for a key of main that is not a month.
func (db *DB) OpenedPeriod(ctx context.Context, b *leaderboard.Board, key string) (*leaderboard.Period, error) {
	return db.Reader().openedPeriod(ctx, b, key)
}

// openedPeriod is OpenedPeriod read from db.
func (db *DB) openedPeriod(ctx context.Context, b *leaderboard.Board, key string) (*leaderboard.Period, error) {
	if _, _, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, err
	}
	const q = `SELECT ` + periodColumns + ` FROM periods p WHERE p.board_id = $1 AND p.key = $2`
	p, err := db.scanPeriod(b, db.pool.QueryRow(ctx, q, b.ID, key))
	if noRows(err) {
		return nil, nil
	} else if err != nil {
		return nil, errorf("read period %s of %s: %w", key, b.ID, err)
	}
	return p, db.settle(ctx, b, p)
}

// CurrentPeriod returns the period of b whose span holds now, nil before
// the board's start and once no period holds now: after its end, or between
// two seasons.
func (db *DB) CurrentPeriod(ctx context.Context, b *leaderboard.Board) (*leaderboard.Period, error) {
	key, ok, err := db.CurrentKey(ctx, b)
	if err != nil || !ok {
		return nil, err
	}
	return db.period(ctx, b, key)
}

// CurrentKey returns the key of the period of b whose span holds now, and
// false when there is none (before the board's start, after its end, between
// seasons). A calendar board's key is worked out in Go, with no read.
func (db *DB) CurrentKey(ctx context.Context, b *leaderboard.Board) (string, bool, error) {
	now := db.now()
	if now.Before(b.StartsAt) {
		return "", false, nil
	}
	if b.Reset == leaderboard.ResetSeason {
		const q = `SELECT key FROM periods WHERE board_id = $1 AND starts_at <= $2 AND ends_at > $2`
		var key string
		err := db.pool.QueryRow(ctx, q, b.ID, now).Scan(&key)
		if noRows(err) {
			return "", false, nil
		} else if err != nil {
			return "", false, errorf("read the current season of %s: %w", b.ID, err)
		}
		return key, true, nil
	}
	key, span, err := b.PeriodOf(now)
	if err != nil {
		return "", false, err
	}
	if b.EndsAt != nil && (!span.Start.Before(*b.EndsAt) || (b.Reset == leaderboard.ResetNone && !now.Before(*b.EndsAt))) {
		return "", false, nil
	}
	return key, true, nil
}

// Periods returns up to first periods of b that events opened or that
// createSeason made, newest first, from the replica when there is one
// (Reader).
func (db *DB) Periods(ctx context.Context, b *leaderboard.Board, first int) ([]leaderboard.Period, error) {
	return db.Reader().periods(ctx, b, first)
}

// periods is Periods read from db.
func (db *DB) periods(ctx context.Context, b *leaderboard.Board, first int) ([]leaderboard.Period, error) {
	const q = `SELECT ` + periodColumns + ` FROM periods p WHERE p.board_id = $1 ORDER BY p.starts_at DESC LIMIT $2`
	rows, err := db.pool.Query(ctx, q, b.ID, first)
	if err != nil {
		return nil, errorf("list periods of %s: %w", b.ID, err)
	}
	defer rows.Close()
	var periods []leaderboard.Period
	for rows.Next() {
		p, err := db.scanPeriod(b, rows)
		if err != nil {
			return nil, errorf("list periods of %s: %w", b.ID, err)
		}
		periods = append(periods, *p)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("list periods of %s: %w", b.ID, err)
	}
	settled := make([]*leaderboard.Period, len(periods))
	for i := range periods {
		settled[i] = &periods[i]
	}
	return periods, db.settle(ctx, b, settled...)
}

// settle fills the Settlement of each CLOSED period of b among periods from
// its newest message, as a month's: DISABLED when it has none, PENDING
// until that message is delivered, then DELIVERED.
func (db *DB) settle(ctx context.Context, b *leaderboard.Board, periods ...*leaderboard.Period) error {
	var keys []string
	for _, p := range periods {
		if p.Status == leaderboard.PeriodClosed {
			p.Settlement = &leaderboard.Settlement{Status: leaderboard.SettlementDisabled}
			keys = append(keys, p.Key)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	const q = `SELECT DISTINCT ON (p.key) p.key, o.attempts, o.delivered_at, o.last_error
		FROM periods p JOIN outbox o ON o.board_id = p.board_id AND o.period_id = p.id
		WHERE p.board_id = $1 AND p.key = ANY($2)
		ORDER BY p.key, o.created_at DESC`
	rows, err := db.pool.Query(ctx, q, b.ID, keys)
	if err != nil {
		return errorf("read the settlements of %s: %w", b.ID, err)
	}
	newest := map[string]leaderboard.Settlement{}
	var (
		key string
		s   leaderboard.Settlement
	)
	_, err = pgx.ForEachRow(rows, []any{&key, &s.Attempts, &s.DeliveredAt, &s.LastError}, func() error {
		s.Status = leaderboard.SettlementPending
		if s.DeliveredAt != nil {
			s.Status = leaderboard.SettlementDelivered
		}
		newest[key] = s
		s = leaderboard.Settlement{}
		return nil
	})
	if err != nil {
		return errorf("read the settlements of %s: %w", b.ID, err)
	}
	for _, p := range periods {
		if s, ok := newest[p.Key]; ok {
			*p.Settlement = s
		}
	}
	return nil
}

// CreateSeason makes season key of a SEASON board from startsAt up to
// endsAt. The board's row is locked for the check and the insert, so that
// two seasons made at once cannot overlap.
func (db *DB) CreateSeason(ctx context.Context, board, key string, startsAt, endsAt time.Time) (*leaderboard.Period, error) {
	if err := leaderboard.CheckSeasonKey(key); err != nil {
		return nil, err
	}
	// PostgreSQL keeps microseconds: a retry must find its season equal.
	startsAt, endsAt = startsAt.Truncate(time.Microsecond), endsAt.Truncate(time.Microsecond)
	var season *leaderboard.Period
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		const lockBoard = `SELECT ` + boardColumns + ` FROM boards WHERE id = $1 FOR UPDATE`
		b, err := db.scanBoard(tx.QueryRow(ctx, lockBoard, board))
		if noRows(err) {
			return leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", board)
		} else if err != nil {
			return err
		}
		if err := checkSeason(b, key, startsAt, endsAt); err != nil {
			return err
		}
		const overlapping = `SELECT ` + periodColumns + ` FROM periods p
			WHERE p.board_id = $1 AND (p.key = $2 OR (p.starts_at < $4 AND p.ends_at > $3))
			ORDER BY p.key <> $2 LIMIT 1`
		other, err := db.scanPeriod(b, tx.QueryRow(ctx, overlapping, board, key, startsAt, endsAt))
		switch {
		case err == nil && other.Key == key && other.StartsAt.Equal(startsAt) && other.EndsAt.Equal(endsAt):
			season = other
			return nil
		case err == nil && other.Key == key:
			return leaderboard.Errorf(leaderboard.ECONFLICT, "season %s of %s exists with other times", key, board)
		case err == nil:
			return leaderboard.Errorf(leaderboard.ECONFLICT, "season %s of %s would overlap season %s (%s..%s)",
				key, board, other.Key, other.StartsAt.UTC().Format(time.RFC3339), other.EndsAt.UTC().Format(time.RFC3339))
		case !noRows(err):
			return err
		}
		const insert = `INSERT INTO periods AS p (board_id, key, starts_at, ends_at, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING ` + periodColumns
		season, err = db.scanPeriod(b, tx.QueryRow(ctx, insert, board, key, startsAt, endsAt, db.now()))
		return err
	})
	if err != nil {
		return nil, errorf("create season %s of %s: %w", key, board, err)
	}
	return season, nil
}

// checkSeason returns an EBADINPUT error unless b is a SEASON board whose
// life holds a season from startsAt up to endsAt.
func checkSeason(b *leaderboard.Board, key string, startsAt, endsAt time.Time) error {
	const form = time.RFC3339
	switch {
	case b.Reset != leaderboard.ResetSeason:
		return leaderboard.Errorf(leaderboard.EBADINPUT, "board %s resets by %s: only SEASON boards have seasons", b.ID, b.Reset)
	case !endsAt.After(startsAt):
		return leaderboard.Errorf(leaderboard.EBADINPUT, "season %s: endsAt %s is not after startsAt %s",
			key, endsAt.UTC().Format(form), startsAt.UTC().Format(form))
	case startsAt.Before(b.StartsAt):
		return leaderboard.Errorf(leaderboard.EBADINPUT, "season %s starts at %s, before board %s starts at %s",
			key, startsAt.UTC().Format(form), b.ID, b.StartsAt.UTC().Format(form))
	case b.EndsAt != nil && !startsAt.Before(*b.EndsAt):
		return leaderboard.Errorf(leaderboard.EBADINPUT, "season %s starts at %s, at or after board %s ends at %s",
			key, startsAt.UTC().Format(form), b.ID, b.EndsAt.UTC().Format(form))
	}
	return b.CheckSpan(key, leaderboard.Span{Start: startsAt, End: &endsAt})
}

// BoardStatus returns b's state at the clock's now: ENDED once its end has
// passed and its last period, the one that holds the end's last instant (a
// SEASON board's last season), is CLOSED or was never opened.
func (db *DB) BoardStatus(ctx context.Context, b *leaderboard.Board) (leaderboard.BoardStatus, error) {
	now := db.now()
	if now.Before(b.StartsAt) || b.EndsAt == nil || now.Before(*b.EndsAt) {
		return b.Status(now, false), nil
	}
	var (
		last *leaderboard.Period
		err  error
	)
	// A board whose calendar cannot be worked out (ZoneError) goes by its
	// stored periods, as a SEASON board does.
	if b.Reset == leaderboard.ResetSeason || b.ZoneError() != nil {
		const q = `SELECT ` + periodColumns + ` FROM periods p
			WHERE p.board_id = $1 AND p.starts_at < $2 ORDER BY p.starts_at DESC LIMIT 1`
		if last, err = db.scanPeriod(b, db.pool.QueryRow(ctx, q, b.ID, *b.EndsAt)); noRows(err) {
			last, err = nil, nil
		}
	} else {
		key, _, keyErr := b.PeriodOf(b.EndsAt.Add(-time.Nanosecond))
		if keyErr != nil {
			return "", keyErr
		}
		last, err = db.period(ctx, b, key)
	}
	if err != nil {
		return "", errorf("read the last period of %s: %w", b.ID, err)
	}
	return b.Status(now, last == nil || last.Status == leaderboard.PeriodClosed), nil
}
