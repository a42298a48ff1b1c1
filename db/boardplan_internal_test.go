package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// BoardReadGenericPlans runs each statement of the reads of period key of b
// reads times on one connection, as BoardStanding and BoardLeaderboard run
// them: playerID's standing with ten neighbours each side, the first page of
// ten, and the page after playerID's row with the rank before it and the
// period's total. It returns, by statement, how many of those runs
// PostgreSQL ran with a generic plan (pg_prepared_statements).
func (db *DB) BoardReadGenericPlans(ctx context.Context, b *leaderboard.Board, key, playerID string,
	reads int) (map[string]int64, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var (
		periodID                int32
		sortScore, sortSubscore int64
		reachedAt               time.Time
		seq                     int64
	)
	err = conn.QueryRow(ctx, `SELECT p.id, s.sort_score, s.sort_subscore, s.reached_at, s.seq
		FROM periods p JOIN board_scores s ON s.period_id = p.id AND s.player_id = $3
		WHERE p.board_id = $1 AND p.key = $2`, b.ID, key, playerID).Scan(&periodID, &sortScore, &sortSubscore, &reachedAt, &seq)
	if err != nil {
		return nil, err
	}
	l := rankLevelsOf(b)
	top, next := boardPageSQLOf(false, limitFor(pageLimits, 11))
	statements := map[string]struct {
		sql  string
		args []any
	}{
		"standing": {boardStandingSQL[boardStatement{shape: l.shape(), above: 10, below: 10}],
			[]any{b.ID, key, playerID, l.origin}},
		"top":      {top, []any{periodID}},
		"next":     {next, []any{periodID, sortScore, sortSubscore, reachedAt, seq}},
		"rowsUpTo": {rowsUpToSQL[l.shape()], []any{periodID, sortScore, sortSubscore, reachedAt, seq, l.origin}},
		"total":    {periodTotalQuery, []any{periodID}},
	}
	generic := map[string]int64{}
	plans := func(sql string) (n int64, err error) {
		err = conn.QueryRow(ctx, `SELECT COALESCE(sum(generic_plans), 0) FROM pg_prepared_statements
			WHERE statement = $1`, sql).Scan(&n)
		return n, err
	}
	for name, s := range statements {
		before, err := plans(s.sql)
		if err != nil {
			return nil, err
		}
		for range reads {
			rows, err := conn.Query(ctx, s.sql, s.args...)
			if err != nil {
				return nil, err
			}
			if _, err := pgx.CollectRows(rows, func(pgx.CollectableRow) (struct{}, error) { return struct{}{}, nil }); err != nil {
				return nil, err
			}
		}
		after, err := plans(s.sql)
		if err != nil {
			return nil, err
		}
		generic[name] = after - before
	}
	return generic, nil
}

// BoardStandingCounterRows runs the statement of playerID's standing in
// period key of b with ten neighbours each side, as boardStanding runs it,
// under EXPLAIN (ANALYZE, FORMAT JSON), and returns the counter rows it
// summed: the rows its scans of period_rank_counts returned, over all their
// loops.
func (db *DB) BoardStandingCounterRows(ctx context.Context, b *leaderboard.Board, key, playerID string) (int64, error) {
	l := rankLevelsOf(b)
	sql := boardStandingSQL[boardStatement{shape: l.shape(), above: 10, below: 10}]
	var plan []map[string]any
	if err := db.pool.QueryRow(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+sql, b.ID, key, playerID, l.origin).Scan(&plan); err != nil {
		return 0, err
	}
	if len(plan) != 1 {
		return 0, fmt.Errorf("EXPLAIN answered %d plans", len(plan))
	}
	return rowsOfRelation(plan[0]["Plan"], "period_rank_counts"), nil
}

// rowsOfRelation returns the rows that the scans of relation in plan node
// (a node of EXPLAIN's JSON) and its children returned, each node's rows a
// loop times its loops.
func rowsOfRelation(node any, relation string) int64 {
	n, ok := node.(map[string]any)
	if !ok {
		return 0
	}
	var rows int64
	if n["Relation Name"] == relation {
		perLoop, _ := n["Actual Rows"].(float64)
		loops, _ := n["Actual Loops"].(float64)
		rows += int64(perLoop * loops)
	}
	children, _ := n["Plans"].([]any)
	for _, c := range children {
		rows += rowsOfRelation(c, relation)
	}
	return rows
}
