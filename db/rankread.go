package db

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// rankOrder is the order of a month's ranks, which the close's ranks follow.
const rankOrder = `score DESC, reached_at ASC, seq ASC`

// namesScanRatio is how many more players than a month has the players
// table may hold for the month's names to be read by scanning it whole:
// at ten million players the scan takes 1.8 s, the join with the month 7.8 s
// with two workers.
const namesScanRatio = 4

// readNameBytes calls name with the id and name of every player of a month
// who has a name, in no particular order, and perhaps of players of other
// months too, each as the bytes read, valid until name returns.
// monthPlayers holds the month's players, participants of them, in its
// column player_id: its partition of scores, or its final ranks.
func readNameBytes(ctx context.Context, tx pgx.Tx, monthPlayers string, participants int, name func(id, name []byte) error) error {
	var allPlayers float64 // -1 before the table's first ANALYZE
	if err := tx.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'players'::regclass`).Scan(&allPlayers); err != nil {
		return err
	}
	q := `SELECT id, name FROM players WHERE name IS NOT NULL`
	if allPlayers > namesScanRatio*float64(participants) {
		q = `SELECT p.id, p.name FROM ` + monthPlayers + ` m JOIN players p ON p.id = m.player_id WHERE p.name IS NOT NULL`
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
