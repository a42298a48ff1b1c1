package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The leagues' part of a period's close (closeCohorts), in the close's own
// transaction: each cohort's members are ranked in the board's order, each
// gets the league they play next (Board.NextLeague's rule, in SQL: a
// million players' cohorts are ranked and moved without leaving the
// database), and the players whose league changes have it recorded in
// board_player_leagues, where their next first event of the board finds it.
// Every write sets values computed from the period's scores alone, never
// adds to what is stored: a close cut off anywhere rolls back with its
// transaction, and the close that runs again (any instance's) computes and
// writes the same, so nobody is promoted twice. A player who joined the
// board's next period before this close committed (within the close grace)
// is moved to a cohort of their new league there (rehomeEarlyPlayers).

// cohortSummary is what the close of a league board's period says of its
// cohorts in its period.closed message.
type cohortSummary struct {
	cohorts int
	leagues []leagueMoves
}

// leagueMoves is a league's line in the period.closed message: its players
// ranked in the period and how many of them move up and down.
type leagueMoves struct {
	Name     string `json:"name"`
	Players  int    `json:"players"`
	Promoted int    `json:"promoted"`
	Demoted  int    `json:"demoted"`
}

// closeCohorts ranks the cohorts of period row of b, records each ranked
// member's next league, and moves the players whose league changes; it
// sets ranks' cohorts, and the tiers of its top as ranks in their cohorts.
// Nothing is done when b has no cohorts.
func closeCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, ranks *rankedPeriod) error {
	if !b.HasCohorts() {
		return nil
	}
	summary, err := rankCohorts(ctx, tx, b, row.id)
	if err != nil {
		return fmt.Errorf("rank the cohorts: %w", err)
	}
	ranks.cohorts = summary
	if err := tierTopInCohorts(ctx, tx, b, row.id, ranks.top); err != nil {
		return fmt.Errorf("tier the top in their cohorts: %w", err)
	}
	if len(b.Leagues) == 0 {
		return nil
	}
	if err := recordNextLeagues(ctx, tx, b, row); err != nil {
		return fmt.Errorf("record the next leagues: %w", err)
	}
	if row.endsAt != nil {
		if err := rehomeEarlyPlayers(ctx, tx, b, *row.endsAt); err != nil {
			return fmt.Errorf("move early players of the next period: %w", err)
		}
	}
	return nil
}

// tierTopInCohorts sets the tier of each of top, a period's first ranks,
// as b's tier of its rank in its cohort of period id: tiers apply within
// the cohort.
func tierTopInCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, top []periodEntry) error {
	if len(top) == 0 {
		return nil
	}
	players := make([]string, len(top))
	for i, e := range top {
		players[i] = e.PlayerID
	}
	const q = `SELECT player_id, cohort_rank, cohort_size FROM cohort_members
		WHERE period_id = $1 AND player_id = ANY($2) AND cohort_rank IS NOT NULL`
	rows, err := tx.Query(ctx, q, id, players)
	if err != nil {
		return err
	}
	type place struct{ rank, size int }
	places := map[string]place{}
	var (
		player string
		p      place
	)
	if _, err := pgx.ForEachRow(rows, []any{&player, &p.rank, &p.size}, func() error { places[player] = p; return nil }); err != nil {
		return err
	}
	for i := range top {
		p := places[top[i].PlayerID]
		top[i].Tier = b.TierOf(p.rank, p.size)
	}
	return nil
}

// rankCohorts sets cohort_rank and next_league of every member of period
// id with a score, and returns the period's cohorts and moves by league.
func rankCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32) (*cohortSummary, error) {
	promote, demote := make([]int32, len(b.Leagues)), make([]int32, len(b.Leagues))
	for i, l := range b.Leagues {
		promote[i], demote[i] = int32(l.Promote), int32(l.Demote)
	}
	// As Board.NextLeague: the top promote up (not from the last league),
	// the bottom demote down (not from the first, and only in a cohort of at
	// least promote + demote); a board without leagues keeps league 0.
	const q = `WITH ranked AS (
			SELECT m.player_id, m.league,
				ROW_NUMBER() OVER (PARTITION BY m.league, m.cohort ORDER BY ` + cohortOrder + `) AS rank,
				count(*) OVER (PARTITION BY m.league, m.cohort) AS size,
				COALESCE(($2::int[])[m.league + 1], 0) AS promote, COALESCE(($3::int[])[m.league + 1], 0) AS demote
			FROM cohort_members m JOIN board_scores s ON s.period_id = m.period_id AND s.player_id = m.player_id
			WHERE m.period_id = $1
		), moved AS (
			UPDATE cohort_members m SET cohort_rank = r.rank, cohort_size = r.size, next_league = CASE
					WHEN r.rank <= r.promote AND r.league < $4 - 1 THEN r.league + 1
					WHEN r.size >= r.promote + r.demote AND r.rank > r.size - r.demote AND r.rank > r.promote
						AND r.league > 0 THEN r.league - 1
					ELSE r.league END
			FROM ranked r WHERE m.period_id = $1 AND m.player_id = r.player_id
			RETURNING m.league, m.next_league
		)
		SELECT league, count(*), count(*) FILTER (WHERE next_league > league), count(*) FILTER (WHERE next_league < league)
		FROM moved GROUP BY league ORDER BY league`
	rows, err := tx.Query(ctx, q, id, promote, demote, len(b.Leagues))
	if err != nil {
		return nil, err
	}
	summary := &cohortSummary{}
	for _, l := range b.Leagues {
		summary.leagues = append(summary.leagues, leagueMoves{Name: l.Name})
	}
	var (
		league int
		m      leagueMoves
	)
	_, err = pgx.ForEachRow(rows, []any{&league, &m.Players, &m.Promoted, &m.Demoted}, func() error {
		if league < len(summary.leagues) {
			summary.leagues[league].Players, summary.leagues[league].Promoted, summary.leagues[league].Demoted =
				m.Players, m.Promoted, m.Demoted
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	const cohorts = `SELECT COALESCE(sum(cohort), 0) FROM period_cohort_fill WHERE period_id = $1`
	if err := tx.QueryRow(ctx, cohorts, id).Scan(&summary.cohorts); err != nil {
		return nil, err
	}
	return summary, nil
}

// recordNextLeagues records, for every ranked member of period row of b
// whose next league is not the one board_player_leagues gives them, that
// league, unless the close of a later period of b decided it already.
func recordNextLeagues(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow) error {
	const q = `INSERT INTO board_player_leagues AS l (board_id, player_id, league, decided_at)
		SELECT $2, m.player_id, m.next_league, $3
		FROM cohort_members m LEFT JOIN board_player_leagues o ON o.board_id = $2 AND o.player_id = m.player_id
		WHERE m.period_id = $1 AND m.next_league IS NOT NULL AND m.next_league <> COALESCE(o.league, 0)
		ORDER BY m.player_id
		ON CONFLICT (board_id, player_id) DO UPDATE SET league = EXCLUDED.league, decided_at = EXCLUDED.decided_at
		WHERE l.decided_at <= EXCLUDED.decided_at`
	_, err := tx.Exec(ctx, q, row.id, b.ID, row.startsAt)
	return err
}

// rehomeEarlyPlayers moves the members of b's OPEN periods that start at or
// after end (the next period, which takes events while the one ending at
// end is in its close grace) whose league is no longer the one
// board_player_leagues gives them: each leaves their cohort (which is not
// refilled) for the filling cohort of their new league, as a new player
// would join it. Players who join after this close commits read their new
// league.
func rehomeEarlyPlayers(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, end time.Time) error {
	const q = `SELECT m.period_id, m.player_id, l.league
		FROM periods p
		JOIN cohort_members m ON m.period_id = p.id
		JOIN board_player_leagues l ON l.board_id = p.board_id AND l.player_id = m.player_id
		WHERE p.board_id = $1 AND p.starts_at >= $2 AND p.status = 'OPEN' AND m.league <> l.league
		ORDER BY m.period_id, m.player_id`
	rows, err := tx.Query(ctx, q, b.ID, end)
	if err != nil {
		return err
	}
	var (
		movers cohortMembers
		m      struct {
			period int32
			player string
			league int16
		}
	)
	_, err = pgx.ForEachRow(rows, []any{&m.period, &m.player, &m.league}, func() error {
		movers.add(m.period, m.player, m.league, 0)
		return nil
	})
	if err != nil || len(movers.players) == 0 {
		return err
	}
	fills, err := lockFills(ctx, tx, movers.periods, movers.leagues)
	if err != nil {
		return err
	}
	for i := range movers.players {
		f := fills[periodLeague{periodID: movers.periods[i], league: movers.leagues[i]}]
		if f.size >= int32(*b.CohortSize) {
			f.cohort, f.size = f.cohort+1, 0
		}
		f.size++
		movers.cohorts[i] = f.cohort
	}
	writes := &pgx.Batch{}
	const move = `UPDATE cohort_members m SET league = u.league, cohort = u.cohort
		FROM unnest($1::int[], $2::text[], $3::smallint[], $4::int[]) AS u(period_id, player_id, league, cohort)
		WHERE m.period_id = u.period_id AND m.player_id = u.player_id`
	writes.Queue(move, movers.periods, movers.players, movers.leagues, movers.cohorts)
	queueFillCounts(writes, fills)
	return tx.SendBatch(ctx, writes).Close()
}

// addTo returns message v, a periodMessage or a monthMessage, with the
// cohorts' count and leagues' moves of s; v as it is when s is nil (a board
// without cohorts: its body stays byte for byte as it was).
func (s *cohortSummary) addTo(v any) any {
	if s == nil {
		return v
	}
	switch m := v.(type) {
	case periodMessage:
		m.Cohorts, m.Leagues = &s.cohorts, s.leagues
		return m
	case monthMessage:
		m.Cohorts, m.Leagues = &s.cohorts, s.leagues
		return m
	}
	return v
}

// rerankCohorts is closeCohorts again in the transaction of a correction of
// closed period row of b: the members a correction removed lose their rank
// and next league, and get back the league they played the period in,
// unless a later period's close decided theirs; the others are ranked and
// moved again from the corrected scores.
func rerankCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, ranks *rankedPeriod) error {
	if !b.HasCohorts() {
		return nil
	}
	const unrank = `WITH unranked AS (
			UPDATE cohort_members m SET cohort_rank = NULL, cohort_size = NULL, next_league = NULL
			WHERE m.period_id = $1 AND m.cohort_rank IS NOT NULL AND NOT EXISTS (
				SELECT 1 FROM board_scores s WHERE s.period_id = m.period_id AND s.player_id = m.player_id)
			RETURNING m.player_id, m.league
		)
		UPDATE board_player_leagues l SET league = u.league FROM unranked u
		WHERE l.board_id = $2 AND l.player_id = u.player_id AND l.decided_at = $3`
	if _, err := tx.Exec(ctx, unrank, row.id, b.ID, row.startsAt); err != nil {
		return fmt.Errorf("unrank removed members: %w", err)
	}
	return closeCohorts(ctx, tx, b, row, ranks)
}
