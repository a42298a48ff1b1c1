package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Players returns the players with the given ids; unknown ids are absent.
func (db *DB) Players(ctx context.Context, ids []string) (map[string]leaderboard.Player, error) {
	const q = `SELECT id, name FROM players WHERE id = ANY($1)`
	rows, err := db.pool.Query(ctx, q, ids)
	if err != nil {
		return nil, errorf("read players: %w", err)
	}
	players := make(map[string]leaderboard.Player, len(ids))
	var p leaderboard.Player
	_, err = pgx.ForEachRow(rows, []any{&p.ID, &p.Name}, func() error {
		players[p.ID] = p
		p.Name = nil
		return nil
	})
	if err != nil {
		return nil, errorf("read players: %w", err)
	}
	return players, nil
}
