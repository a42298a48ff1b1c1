package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The SQL in this file reads fixtures for the benchmark (which players to
// ask for) and checks its results; the service's own SQL stays in package db.

// Months returns the benchmark's two months at now in the event time zone
// loc: the previous calendar month, which it seeds and closes, and the
// current one, which it seeds and leaves open.
func Months(now time.Time, loc *time.Location) (closed, open leaderboard.Month) {
	open = leaderboard.MonthOf(now, loc)
	closed = leaderboard.MonthOf(open.Start(loc).AddDate(0, 0, -1), loc)
	return closed, open
}

// samplePlayers is how many players each pinned position draws from.
const samplePlayers = 100

// Positions are players of the open month pinned to parts of its table.
type Positions struct {
	Top    []string // ranks 1..100
	Middle []string // the 100 around the median rank
	Bottom []string // the last 100
	// Tie holds up to 1,000 players drawn at random from the big tie group
	// on db.SeedParticipationScore.
	Tie []string
}

// mainMonthScores selects the players of the board main's period $1 (a
// month, YYYY-MM) from board_scores, as s.
const mainMonthScores = `SELECT s.player_id FROM board_scores s
	JOIN periods p ON p.id = s.period_id AND p.board_id = 'main' AND p.key = $1`

// SamplePositions reads the pinned players of month m, which holds players
// score rows.
func SamplePositions(ctx context.Context, pool *pgxpool.Pool, m leaderboard.Month, players int) (Positions, error) {
	const (
		top = mainMonthScores + `
			ORDER BY s.sort_score, s.sort_subscore, s.reached_at, s.seq LIMIT $2`
		middle = mainMonthScores + `
			ORDER BY s.sort_score, s.sort_subscore, s.reached_at, s.seq OFFSET $3 LIMIT $2`
		bottom = mainMonthScores + `
			ORDER BY s.sort_score DESC, s.sort_subscore DESC, s.reached_at DESC, s.seq DESC LIMIT $2`
		tie = mainMonthScores + ` WHERE s.score = $3
			ORDER BY random() LIMIT $2 * 10`
	)
	var (
		p   Positions
		err error
	)
	key := m.String()
	if p.Top, err = playerIDs(ctx, pool, top, key, samplePlayers); err != nil {
		return p, err
	}
	if p.Middle, err = playerIDs(ctx, pool, middle, key, samplePlayers, max(players/2-samplePlayers/2, 0)); err != nil {
		return p, err
	}
	if p.Bottom, err = playerIDs(ctx, pool, bottom, key, samplePlayers); err != nil {
		return p, err
	}
	if p.Tie, err = playerIDs(ctx, pool, tie, key, samplePlayers, db.SeedParticipationScore); err != nil {
		return p, err
	}
	for name, ids := range map[string][]string{"top": p.Top, "middle": p.Middle, "bottom": p.Bottom, "tie group": p.Tie} {
		if len(ids) == 0 {
			return p, fmt.Errorf("sample the %s of %s: no players", name, m)
		}
	}
	return p, nil
}

// PlayersAbove returns the players whose score in month m is above score:
// those an ADD event could push past the maximum.
func PlayersAbove(ctx context.Context, pool *pgxpool.Pool, m leaderboard.Month, score int) (map[string]bool, error) {
	const q = mainMonthScores + ` WHERE s.score > $2`
	ids, err := playerIDs(ctx, pool, q, m.String(), score)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}

func playerIDs(ctx context.Context, pool *pgxpool.Pool, q string, args ...any) ([]string, error) {
	rows, err := pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sample players: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("sample players: %w", err)
	}
	return ids, nil
}

// Picker draws the player a request asks for.
type Picker func(rng *rand.Rand) string

// AnySeeded draws one of the seeded players 1..players, uniformly: players
// spread over the whole table.
func AnySeeded(players int) Picker {
	return func(rng *rand.Rand) string { return db.SeedPlayerID(1 + rng.IntN(players)) }
}

// OneOf draws one of ids, uniformly.
func OneOf(ids []string) Picker {
	return func(rng *rand.Rand) string { return ids[rng.IntN(len(ids))] }
}
