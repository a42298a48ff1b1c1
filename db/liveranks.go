package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// LiveRanks returns the current rank of each key that has a score row, on
// any board, main included, in one round of reads for all the keys a request
// asks for; keys without one, and keys of a period or board that does not
// exist, are absent. It reads on the primary, also on the replica's view:
// the ranks asked for are those of scores just submitted, which a lagging
// replica may not have yet.
func (db *DB) LiveRanks(ctx context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]int, error) {
	if db.primary != nil {
		db = db.primary
	}
	ranks := map[leaderboard.PeriodPlayer]int{}
	if len(keys) > 0 {
		if err := db.boardLiveRanks(ctx, keys, ranks); err != nil {
			return nil, err
		}
	}
	return ranks, nil
}

// boardLiveRanksQuery reads the live rank of each key (board $1[i], period
// key $2[i], player $3[i]) that has a row in board_scores, with its index i
// (from 1), in one statement: each row's rank is counted with its period's
// counters, summed over every level (everyShape: the boards' levels differ), as
// boardStandingSQL counts it.
var boardLiveRanksQuery = `SELECT k.i, ` + periodRankSQL("me", "o.origin", everyShape) + `
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(board_id, key, player_id, i)
JOIN periods p ON p.board_id = k.board_id AND p.key = k.key
JOIN boards b ON b.id = p.board_id
CROSS JOIN LATERAL (SELECT ` + originSQL + `) AS o(origin)
CROSS JOIN LATERAL (SELECT s.*, ` + hourColumnsSQL + `
	FROM board_scores s WHERE s.period_id = p.id AND s.player_id = k.player_id) AS me`

// boardLiveRanks adds to ranks the live rank of each key, of any board,
// that has a score row, read in one statement.
func (db *DB) boardLiveRanks(ctx context.Context, keys []leaderboard.PeriodPlayer, ranks map[leaderboard.PeriodPlayer]int) error {
	boards, periods, players := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		boards[i], periods[i], players[i] = k.Board, k.Period, k.PlayerID
	}
	rows, err := db.pool.Query(ctx, boardLiveRanksQuery, boards, periods, players)
	if err != nil {
		return errorf("read live ranks of boards: %w", err)
	}
	var i, rank int64
	_, err = pgx.ForEachRow(rows, []any{&i, &rank}, func() error {
		ranks[keys[i-1]] = int(rank)
		return nil
	})
	if err != nil {
		return errorf("read live ranks of boards: %w", err)
	}
	return nil
}
