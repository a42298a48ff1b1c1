package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Reads of cohorts, open or closed, from cohort_members and the period's
// scores (board_scores keeps a closed period's rows, as its final ranks
// were made from them): a cohort is at most 1,000 rows of
// cohort_members_cohort_idx, each joined to its score by primary key. Its
// members rank in the board's order, as the period's table does.

// cohortOrder ranks the rows s of board_scores in the board's order.
const cohortOrder = `s.sort_score, s.sort_subscore, s.reached_at, s.seq`

// Cohort returns cohort id of period key of b, every member with a score
// best first, each RankEntry's Rank the rank in the cohort; nil when b has
// no cohorts or the period no such cohort.
func (db *DB) Cohort(ctx context.Context, b *leaderboard.Board, key, id string) (*leaderboard.Cohort, error) {
	league, number, ok := leaderboard.ParseCohortID(id)
	if !b.HasCohorts() || !ok {
		return nil, nil
	}
	const q = `SELECT m.player_id, pl.name, s.score, s.subscore, s.reached_at, s.metadata
		FROM periods p
		JOIN cohort_members m ON m.period_id = p.id AND m.league = $3 AND m.cohort = $4
		JOIN board_scores s ON s.period_id = m.period_id AND s.player_id = m.player_id
		JOIN players pl ON pl.id = m.player_id
		WHERE p.board_id = $1 AND p.key = $2
		ORDER BY ` + cohortOrder
	rows, err := db.pool.Query(ctx, q, b.ID, key, league, number)
	if err != nil {
		return nil, errorf("read cohort %s of %s %s: %w", id, b.ID, key, err)
	}
	c := &leaderboard.Cohort{ID: id, Board: b.ID, Period: key, League: b.LeagueName(league), Members: []leaderboard.RankEntry{}}
	var e leaderboard.RankEntry
	_, err = pgx.ForEachRow(rows, []any{&e.Player.ID, &e.Player.Name, &e.Score, &e.Subscore, &e.ReachedAt, &e.Metadata}, func() error {
		e.Rank = len(c.Members) + 1
		c.Members = append(c.Members, e)
		e = leaderboard.RankEntry{}
		return nil
	})
	if err != nil {
		return nil, errorf("read cohort %s of %s %s: %w", id, b.ID, key, err)
	}
	if len(c.Members) == 0 {
		return nil, nil
	}
	c.Size = len(c.Members)
	return c, nil
}

// CohortOf returns player's cohort in period key of b: its id and league,
// the player's rank in it and its size (its members with a score), and once
// the close set it the league the player plays next. Nil when b has no
// cohorts or the player no score in the period.
func (db *DB) CohortOf(ctx context.Context, b *leaderboard.Board, key, player string) (*leaderboard.CohortRef, error) {
	refs, err := db.CohortsOf(ctx, b, key, []string{player})
	return refs[player], err
}

// CohortsOf returns the cohorts of players in period key of b, as CohortOf
// does for each, in one statement: the cohorts of those with a score are
// ranked once each. Players without a cohort are left out of the map.
func (db *DB) CohortsOf(ctx context.Context, b *leaderboard.Board, key string, players []string) (map[string]*leaderboard.CohortRef, error) {
	if !b.HasCohorts() || len(players) == 0 {
		return nil, nil
	}
	const q = `WITH cohorts AS (
			SELECT DISTINCT m.period_id, p.final_bucket, m.league, m.cohort
			FROM periods p
			JOIN cohort_members m ON m.period_id = p.id AND m.player_id = ANY($3)
			WHERE p.board_id = $1 AND p.key = $2
		), ranked AS (
			SELECT o.period_id, c.final_bucket, o.player_id, o.league, o.cohort,
				ROW_NUMBER() OVER (PARTITION BY o.league, o.cohort ORDER BY ` + cohortOrder + `) AS rank,
				count(*) OVER (PARTITION BY o.league, o.cohort) AS size
			FROM cohorts c
			JOIN cohort_members o ON o.period_id = c.period_id AND o.league = c.league AND o.cohort = c.cohort
			JOIN board_scores s ON s.period_id = o.period_id AND s.player_id = o.player_id
		)
		SELECT r.player_id, r.league, r.cohort, f.next_league, r.rank, r.size
		FROM ranked r
		LEFT JOIN LATERAL (SELECT f.next_league FROM board_final_ranks f
			WHERE r.final_bucket <> ` + ownBucketSQL + ` AND f.bucket = r.final_bucket AND f.period_id = r.period_id
				AND f.player_id = r.player_id
			UNION ALL
			SELECT f.next_league FROM own_final_ranks(r.period_id, ARRAY[r.player_id]) f
			WHERE r.final_bucket = ` + ownBucketSQL + `) f ON true
		WHERE r.player_id = ANY($3)`
	rows, err := db.pool.Query(ctx, q, b.ID, key, players)
	if err != nil {
		return nil, errorf("read the cohorts of %d players in %s %s: %w", len(players), b.ID, key, err)
	}
	refs := make(map[string]*leaderboard.CohortRef, len(players))
	var (
		player         string
		league, cohort int
		next           *int16
		rank, size     int
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &league, &cohort, &next, &rank, &size}, func() error {
		ref := &leaderboard.CohortRef{ID: leaderboard.CohortID(league, cohort), League: b.LeagueName(league), Rank: rank, Size: size}
		if next != nil {
			ref.NextLeague = b.LeagueName(int(*next))
		}
		refs[player] = ref
		return nil
	})
	if err != nil {
		return nil, errorf("read the cohorts of %d players in %s %s: %w", len(players), b.ID, key, err)
	}
	return refs, nil
}
