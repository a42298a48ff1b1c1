package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// rankOrder is the order of a month's ranks, which the close's ranks follow.
const rankOrder = `score DESC, reached_at ASC, seq ASC`

// readRanks calls entry with each row of a table of final ranks of their
// own (ownPartition) in rank order,
// its player without a name, then, unless name is nil, reads the names of
// the table's players with readNames.
func readRanks(ctx context.Context, tx pgx.Tx, table string, participants int, entry func(leaderboard.RankEntry) error,
	name func(playerID, name string) error) error {
	// Every row has the same bucket and period: ordered by all three, the
	// primary key gives the order without a sort.
	rows, err := tx.Query(ctx, `SELECT rank, score, reached_at, player_id FROM `+table+` ORDER BY bucket, period_id, rank`)
	if err != nil {
		return err
	}
	var e leaderboard.RankEntry
	if _, err := pgx.ForEachRow(rows, []any{&e.Rank, &e.Score, &e.ReachedAt, &e.Player.ID}, func() error {
		return entry(e)
	}); err != nil || name == nil {
		return err
	}
	return readNames(ctx, tx, table, participants, name)
}

// namesScanRatio is how many more players than a month has the players
// table may hold for the month's names to be read by scanning it whole:
// at ten million players the scan takes 1.8 s, the join with the month 7.8 s
// with two workers.
const namesScanRatio = 4

// readNames calls name with the id and name of every player of a month who
// has a name, in no particular order, and perhaps of players of other
// months too. monthPlayers holds the month's players, participants of them,
// in its column player_id: its partition of scores, or its final ranks.
func readNames(ctx context.Context, tx pgx.Tx, monthPlayers string, participants int, name func(playerID, name string) error) error {
	return readNameBytes(ctx, tx, monthPlayers, participants, func(id, n []byte) error {
		return name(string(id), string(n))
	})
}

// readNameBytes is readNames handing over each id and name as the bytes
// read, valid until name returns.
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
