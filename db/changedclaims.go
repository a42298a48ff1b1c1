package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// A correction of a CLOSED period keeps its claims: a claim holds the
// standing as it was claimed (claims' rank, score and tier), and the
// period's *.corrected message lists, as changedClaims, every claim whose
// standing the corrected final ranks no longer match, so that the reward
// system can settle the difference. The comparison is with the standing as
// claimed, not as it stood before this correction: a claim that an earlier
// correction changed is listed again, with the same before, until a
// correction gives it back its claimed standing.

// changedClaim is one of a corrected message's changedClaims: the claimed
// standing as claimed and as it stands now, After nil when the correction
// removed the player.
type changedClaim struct {
	PlayerID  string           `json:"playerId"`
	ClaimID   string           `json:"claimId"`
	ClaimedAt time.Time        `json:"claimedAt"`
	Before    claimedStanding  `json:"before"`
	After     *claimedStanding `json:"after"`
}

// claimedStanding is what a reward is keyed by: rank, score and tier.
type claimedStanding struct {
	Rank  int     `json:"rank"`
	Score int     `json:"score"`
	Tier  *string `json:"tier"`
}

// claimsChanged returns the changedClaims of the message that announces
// correction c, none when c is nil.
func (c *messageCorrect) claimsChanged() []changedClaim {
	if c == nil {
		return nil
	}
	return c.changedClaims
}

// periodClaimsSQL reads the claims of period $2 of board $1, by the claims'
// primary key, in player order.
const periodClaimsSQL = `SELECT player_id, claim_id, claimed_at, rank, score, tier FROM claims
	WHERE board_id = $1 AND period_key = $2 ORDER BY player_id`

// changedClaims compares the claims of closed period row of b with its
// final ranks as corrected, read in the correction's transaction, and
// returns the claims that changed, in player order. participants is the
// corrected count, by which tiers are given (on a board with cohorts, by the
// cohorts as ranked again).
func changedClaims(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *closedPeriodRow,
	participants int) ([]changedClaim, error) {
	key := row.key
	rows, err := tx.Query(ctx, periodClaimsSQL, b.ID, key)
	if err != nil {
		return nil, fmt.Errorf("read the claims: %w", err)
	}
	claims, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (changedClaim, error) {
		var c changedClaim
		err := row.Scan(&c.PlayerID, &c.ClaimID, &c.ClaimedAt, &c.Before.Rank, &c.Before.Score, &c.Before.Tier)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the claims: %w", err)
	}
	if len(claims) == 0 {
		return nil, nil
	}
	players := make([]string, len(claims))
	for i, c := range claims {
		players[i] = c.PlayerID
	}
	q, args := claimedFinalRanksSQL(row, players)
	rows, err = tx.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read the claimed players' final ranks: %w", err)
	}
	now := make(map[string]claimedStanding, len(claims))
	var (
		player string
		s      claimedStanding
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &s.Rank, &s.Score}, func() error {
		s.Tier = b.TierOf(s.Rank, participants)
		now[player] = s
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the claimed players' final ranks: %w", err)
	}
	if b.HasCohorts() {
		if err := tierClaimsInCohorts(ctx, tx, b, key, now); err != nil {
			return nil, fmt.Errorf("read the claimed players' cohort ranks: %w", err)
		}
	}
	var changed []changedClaim
	for _, c := range claims {
		after, ok := now[c.PlayerID]
		switch {
		case !ok:
			changed = append(changed, c)
		case after.Rank != c.Before.Rank || after.Score != c.Before.Score || !sameTier(after.Tier, c.Before.Tier):
			c.After = &after
			changed = append(changed, c)
		}
	}
	return changed, nil
}

// sameTier reports whether two tiers, nil for none, are the same.
func sameTier(x, y *string) bool {
	return x == nil && y == nil || x != nil && y != nil && *x == *y
}

// claimedFinalRanksSQL is the query, and its arguments, of the player id,
// rank and score of those of players who still stand in closed period row.
func claimedFinalRanksSQL(row *closedPeriodRow, players []string) (string, []any) {
	if row.bucket.Equal(ownBucket) {
		// No player index in a partition of their own: each player's rank,
		// then their row by it (own_final_ranks).
		return `SELECT player_id, rank, score FROM own_final_ranks($1, $2)`, []any{row.id, players}
	}
	// The bucket picks the partition, its player index each player's row.
	const q = `SELECT player_id, rank, score FROM board_final_ranks
		WHERE bucket = $1 AND period_id = $2 AND player_id = ANY($3)`
	return q, []any{*row.bucket, row.id, players}
}

// tierClaimsInCohorts sets the tier of each of now, the claimed players'
// corrected standings in period key of b, a board with cohorts, to its tier
// in its cohort as the correction ranked it again.
func tierClaimsInCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, key string, now map[string]claimedStanding) error {
	players := make([]string, 0, len(now))
	for player := range now {
		players = append(players, player)
	}
	places, err := cohortPlaces(ctx, tx, b.ID, key, players)
	if err != nil {
		return err
	}
	for player, s := range now {
		s.Tier = tierOfPlace(b, places[player])
		now[player] = s
	}
	return nil
}
