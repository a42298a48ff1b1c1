package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Tiers apply within the cohort on a board with cohorts: a final
// standing's tier is the board's tier of the player's rank in their cohort
// over the cohort's size, which the period's close keeps in its final
// ranks (closeCohorts). Every read of a final standing of such a board tiers it
// here, so that standing, groupStandings, claimReward, the claims'
// corrections, the export and the period.closed message agree. A board
// without cohorts reads nothing more.

// cohortPlace is a player's rank in their cohort at a period's close and
// the cohort's size.
type cohortPlace struct{ rank, size int32 }

// cohortPlacesSQL reads the cohort places of players $3 in period $2 of
// board $1: by the player index of its month's partition, or by rank in a
// partition of their own (own_final_ranks).
const cohortPlacesSQL = `SELECT f.player_id, f.cohort_rank, f.cohort_size FROM periods p
	JOIN board_final_ranks f ON f.bucket = p.final_bucket AND f.period_id = p.id
	WHERE p.board_id = $1 AND p.key = $2 AND p.final_bucket <> ` + ownBucketSQL + ` AND f.player_id = ANY($3)
		AND f.cohort_rank IS NOT NULL
	UNION ALL
	SELECT f.player_id, f.cohort_rank, f.cohort_size FROM periods p CROSS JOIN LATERAL own_final_ranks(p.id, $3) f
	WHERE p.board_id = $1 AND p.key = $2 AND p.final_bucket = ` + ownBucketSQL + ` AND f.cohort_rank IS NOT NULL`

// rowQuerier is what cohortPlaces reads with: the pool or a transaction.
type rowQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// cohortPlaces returns the cohort places of players in period key of board;
// a player without one (not ranked in a cohort) is left out.
func cohortPlaces(ctx context.Context, q rowQuerier, board, key string, players []string) (map[string]cohortPlace, error) {
	rows, err := q.Query(ctx, cohortPlacesSQL, board, key, players)
	if err != nil {
		return nil, err
	}
	places := make(map[string]cohortPlace, len(players))
	var (
		player string
		p      cohortPlace
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &p.rank, &p.size}, func() error {
		places[player] = p
		return nil
	})
	return places, err
}

// cohortSnapshot runs read, the statements of a read of b's standings, on
// the pool; on a board with cohorts, in one read-only transaction, so that
// a standing's rank and its place in its cohort (tierInCohorts) come from
// one snapshot: a correction committed between two statements would pair
// the rank of one version of the period with the tier of another.
func (db *DB) cohortSnapshot(ctx context.Context, b *leaderboard.Board, read func(rowQuerier) error) error {
	if !b.HasCohorts() {
		return read(db.pool)
	}
	return db.readTx(ctx, func(tx pgx.Tx) error { return read(tx) })
}

// tierOfPlace returns b's tier of cohort place p; nil for no place.
func tierOfPlace(b *leaderboard.Board, p cohortPlace) *string {
	return b.TierOf(int(p.rank), int(p.size))
}

// tierInCohorts sets the Tier of each final standing of standings, all of
// period key of b, to its tier in its cohort, when b has cohorts; nothing
// is read otherwise.
func tierInCohorts(ctx context.Context, q rowQuerier, b *leaderboard.Board, key string, standings ...*leaderboard.Standing) error {
	if b == nil || !b.HasCohorts() {
		return nil
	}
	var players []string
	for _, s := range standings {
		if s != nil && s.Final {
			players = append(players, s.Player.ID)
		}
	}
	if len(players) == 0 {
		return nil
	}
	places, err := cohortPlaces(ctx, q, b.ID, key, players)
	if err != nil {
		return err
	}
	for _, s := range standings {
		if s != nil && s.Final {
			s.Tier = tierOfPlace(b, places[s.Player.ID])
		}
	}
	return nil
}
