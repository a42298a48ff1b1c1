package db

import (
	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// nameSQL returns the SQL expression of the name of the player of row t. A
// subquery per row, unlike a join, stays an index lookup in a generic plan,
// which cannot know how few rows a LIMIT $n lets through.
func nameSQL(t string) string {
	return `(SELECT name FROM players WHERE id = ` + t + `.player_id)`
}

// scanRankEntry reads a row of rank, score, reached_at, player_id and the
// player's name.
func scanRankEntry(row pgx.CollectableRow) (leaderboard.RankEntry, error) {
	var e leaderboard.RankEntry
	err := row.Scan(&e.Rank, &e.Score, &e.ReachedAt, &e.Player.ID, &e.Player.Name)
	return e, err
}
