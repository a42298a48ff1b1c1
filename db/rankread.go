package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// rankOrder is the order of a month's ranks, which the close's ROW_NUMBER()
// numbers.
const rankOrder = `score DESC, reached_at ASC, seq ASC`

// readRanks calls entry with each row of a final ranks table in rank order,
// its player without a name, then, unless name is nil, name with the rank and
// name of each of its players who has one, in no particular order. Joined in
// rank order, the names would make the database sort the whole month again:
// at ten million players, 24 s before the first row, against a hash join of
// 11-19 s here, and only what needs the names pays for their read.
func readRanks(ctx context.Context, tx pgx.Tx, table string, entry func(leaderboard.RankEntry) error,
	name func(rank int, name string) error) error {
	// Every row has the same month: ordered by both, the primary key gives
	// the order without a sort.
	rows, err := tx.Query(ctx, `SELECT rank, score, reached_at, player_id FROM `+table+` ORDER BY month, rank`)
	if err != nil {
		return err
	}
	var e leaderboard.RankEntry
	if _, err := pgx.ForEachRow(rows, []any{&e.Rank, &e.Score, &e.ReachedAt, &e.Player.ID}, func() error {
		return entry(e)
	}); err != nil || name == nil {
		return err
	}
	rows, err = tx.Query(ctx, `SELECT f.rank, p.name FROM `+table+` f JOIN players p ON p.id = f.player_id
		WHERE p.name IS NOT NULL`)
	if err != nil {
		return err
	}
	var n string
	_, err = pgx.ForEachRow(rows, []any{&e.Rank, &n}, func() error { return name(e.Rank, n) })
	return err
}
