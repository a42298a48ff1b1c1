package db

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The standings of a group of players (a game's friends list) in one
// period, on any board, main included: one statement for the whole group,
// so that every standing comes from one snapshot and the group costs one
// round trip, open or closed. The rank of each member is counted from
// board_scores and period_rank_counts as a standing counts it
// (periodRankSQL), without neighbours. A closed period's rows and counters
// are its final ranks (a correction changes them together), so the same
// statement answers it, marked final.

// PeriodGroup returns the standings of those of playerIDs that have one in
// period key of b, best first, each without neighbours, from one
// statement. EBADINPUT when key is not a month of main.
func (db *DB) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	if _, _, err := leaderboard.MainMonth(b, key); err != nil {
		return nil, err
	}
	group, err := db.boardGroup(ctx, b, key, playerIDs)
	if err != nil {
		return nil, errorf("read a group of %d in period %s of %s: %w", len(playerIDs), key, b.ID, err)
	}
	return group, nil
}

// boardGroupStatement names one of the statements of boardGroupSQL.
type boardGroupStatement struct {
	shape        rankShape
	withMetadata bool
}

// boardGroupSQL holds, by the rankShape of a board's counters and with or
// without the rows' metadata, the statement of a group in period $2 of
// board $1: the row of each of players $3 that has one, with its rank
// counted with the counters of the board's rankLevels whose origin is $4,
// and the period's rows, start and status. Levels are written out as in
// boardStandingSQL, so that its generic plan is kept.
var boardGroupSQL = func() map[boardGroupStatement]string {
	qs := map[boardGroupStatement]string{}
	for _, shape := range rankShapes() {
		for metadata, columns := range []string{entryColumns(false), entryColumns(true)} {
			qs[boardGroupStatement{shape, metadata == 1}] = `WITH p AS (
	SELECT id, starts_at, status FROM periods WHERE board_id = $1 AND key = $2
), me AS (
	SELECT s.*, ` + hourColumnsSQL + ` FROM p JOIN board_scores s ON s.period_id = p.id AND s.player_id = ANY($3::text[])
)
SELECT ` + strings.ReplaceAll(columns, "t.", "me.") + `,
	` + periodRankSQL("me", "$4", shape) + `,
	(SELECT ` + periodTotalSQL + ` FROM p), (SELECT starts_at FROM p), (SELECT status = 'CLOSED' FROM p)
FROM me`
		}
	}
	return qs
}()

// boardGroup reads a group of period key of b in one statement (on a board
// with cohorts, with its tiers within the cohorts, in one snapshot). Once
// the period is CLOSED its rows are its final standings (Final, with the
// board's tier).
func (db *DB) boardGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	leave, err := db.closing.enter(ctx, periodRef{board: b.ID, key: key})
	if err != nil {
		return nil, err
	}
	defer leave()
	var group []leaderboard.Standing
	err = db.cohortSnapshot(ctx, b, func(q rowQuerier) error {
		var err error
		if group, err = queryBoardGroup(ctx, q, b, key, playerIDs); err != nil || !b.HasCohorts() {
			return err
		}
		final := make([]*leaderboard.Standing, len(group))
		for i := range group {
			final[i] = &group[i]
		}
		return tierInCohorts(ctx, q, b, key, final...)
	})
	if err != nil {
		return nil, err
	}
	leaderboard.SortByRank(group)
	return group, nil
}

// queryBoardGroup runs boardGroup's statement with q.
func queryBoardGroup(ctx context.Context, q rowQuerier, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	l := rankLevelsOf(b)
	statement := boardGroupStatement{shape: l.shape(), withMetadata: leaderboard.MetadataWanted(ctx)}
	rows, err := q.Query(ctx, boardGroupSQL[statement], b.ID, key, playerIDs, l.origin)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (leaderboard.Standing, error) {
		var (
			r           boardEntry
			metadata    []byte
			rank, total int64
			startsAt    time.Time
			closed      bool
		)
		err := row.Scan(&r.entry.Player.ID, &r.entry.Player.Name, &r.entry.Score, &r.entry.Subscore,
			&r.entry.ReachedAt, &metadata, &r.key.sortScore, &r.key.sortSubscore, &r.key.seq, &rank, &total, &startsAt, &closed)
		if metadata != nil {
			r.entry.Metadata = metadata
		}
		r.entry.Rank = int(rank)
		s := leaderboard.Standing{RankEntry: r.entry, Board: b.ID, Period: key, Total: int(total),
			Month: b.MonthOfPeriod(key, startsAt), Final: closed}
		if s.Final {
			s.Tier = b.TierOf(s.Rank, s.Total)
		}
		return s, err
	})
}
