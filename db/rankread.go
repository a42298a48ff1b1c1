package db

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// namesScanRatio is how many more players than a period has the players
// table may hold for the period's names to be read by scanning it whole:
// at ten million players the scan takes 1.8 s, the join with the period
// 7.8 s with two workers.
const namesScanRatio = 4

// readNameBytes calls name with the id and name of every player of a period
// who has a name, in no particular order, and perhaps of players of other
// periods too, each as the bytes read, valid until name returns. players is
// SQL of a relation holding the period's players, participants of them, in
// its column player_id: its rows of board_scores.
func readNameBytes(ctx context.Context, tx pgx.Tx, players string, participants int, name func(id, name []byte) error) error {
	var allPlayers float64 // -1 before the table's first ANALYZE
	if err := tx.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'players'::regclass`).Scan(&allPlayers); err != nil {
		return err
	}
	q := `SELECT id, name FROM players WHERE name IS NOT NULL`
	if allPlayers > namesScanRatio*float64(participants) {
		q = `SELECT p.id, p.name FROM ` + players + ` m JOIN players p ON p.id = m.player_id WHERE p.name IS NOT NULL`
	}
	rows, err := tx.Query(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		raw := rows.RawValues() // text, as it is: no Scan per row
		if err := name(raw[0], raw[1]); err != nil {
			return err
		}
	}
	return rows.Err()
}
