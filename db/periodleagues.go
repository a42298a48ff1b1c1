package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The leagues' part of a period's close, in the close's own transaction:
// each cohort's members are ranked in the board's order, each gets the
// league they play next (Board.NextLeague's rule), and the players whose
// league changes have it recorded in board_player_leagues, where their
// next first event of the board finds it. The results are columns of the
// period's final ranks (cohort_rank, cohort_size, next_league), written
// with them: a period ranked by rankPeriod has them computed here from its
// ranked rows and cohort_members, and copied in the same COPY
// (placeInCohorts), where updating a row of every member cost three
// quarters of a million-player close; a group of small periods
// (closeGroupTx) has them set in SQL after its INSERT (rankCohortsSQL).
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

// newCohortSummary returns the summary of a period of b with nobody counted.
func newCohortSummary(b *leaderboard.Board) *cohortSummary {
	s := &cohortSummary{}
	for _, l := range b.Leagues {
		s.leagues = append(s.leagues, leagueMoves{Name: l.Name})
	}
	return s
}

// count counts n players of league who play next in league next; leagues
// that b no longer has are not counted.
func (s *cohortSummary) count(league, next, n int) {
	if league < 0 || league >= len(s.leagues) {
		return
	}
	m := &s.leagues[league]
	m.Players += n
	switch {
	case next > league:
		m.Promoted += n
	case next < league:
		m.Demoted += n
	}
}

// leagueMoves is a league's line in the period.closed message: its players
// ranked in the period and how many of them move up and down.
type leagueMoves struct {
	Name     string `json:"name"`
	Players  int    `json:"players"`
	Promoted int    `json:"promoted"`
	Demoted  int    `json:"demoted"`
}

// cohortResults are the cohort results of a period's ranked rows, row i's at
// i: its rank in its cohort (0 for a row in no cohort), the cohort's size,
// and the league the player plays next.
type cohortResults struct {
	ranks, sizes []int32
	next         []int16
}

// cohortKey names a cohort of a period: its league and number.
type cohortKey struct {
	league int16
	cohort int32
}

// placeInCohorts returns the cohort places of rows, the ranked rows of
// period id of b, from the period's cohort_members, and the league moves
// they make: each cohort's members ranked in the rows' order, which is the
// board's.
func placeInCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, rows *rankedRows) (*cohortResults,
	*cohortSummary, error) {
	const q = `SELECT player_id, league, cohort FROM cohort_members WHERE period_id = $1`
	read, err := tx.Query(ctx, q, id)
	if err != nil {
		return nil, nil, err
	}
	members := make(map[string]cohortKey, rows.len())
	var (
		player string
		k      cohortKey
	)
	if _, err := pgx.ForEachRow(read, []any{&player, &k.league, &k.cohort}, func() error {
		members[player] = k
		return nil
	}); err != nil {
		return nil, nil, err
	}
	n := rows.len()
	keys, in, sizes := make([]cohortKey, n), make([]bool, n), map[cohortKey]int32{}
	for i := range n {
		if k, ok := members[string(rows.id(i))]; ok {
			keys[i], in[i] = k, true
			sizes[k]++
		}
	}
	places := &cohortResults{ranks: make([]int32, n), sizes: make([]int32, n), next: make([]int16, n)}
	summary, ranked := newCohortSummary(b), make(map[cohortKey]int32, len(sizes))
	for i, k := range keys {
		if !in[i] {
			continue
		}
		ranked[k]++
		places.ranks[i], places.sizes[i] = ranked[k], sizes[k]
		next := b.NextLeague(int(k.league), int(ranked[k]), int(sizes[k]))
		places.next[i] = int16(next)
		summary.count(int(k.league), next, 1)
	}
	return places, summary, nil
}

// closeCohorts finishes the cohorts of period row of b, whose final ranks
// are in bucket, after its ranks: sets the cohort results in SQL unless
// ranks has them (rankCohortsSQL), ranks' cohorts count and the tiers of
// its top as ranks in their cohorts, records the next leagues, and moves
// the players whose league changes. Nothing is done when b has no cohorts.
func closeCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, bucket time.Time,
	ranks *rankedPeriod) error {
	if !b.HasCohorts() {
		return nil
	}
	if ranks.cohorts == nil {
		summary, err := rankCohortsSQL(ctx, tx, b, row.id, bucket)
		if err != nil {
			return fmt.Errorf("rank the cohorts: %w", err)
		}
		ranks.cohorts = summary
	}
	const cohorts = `SELECT COALESCE(sum(cohort), 0) FROM period_cohort_fill WHERE period_id = $1`
	if err := tx.QueryRow(ctx, cohorts, row.id).Scan(&ranks.cohorts.cohorts); err != nil {
		return fmt.Errorf("count the cohorts: %w", err)
	}
	if err := tierTopInCohorts(ctx, tx, b, row.id, bucket, ranks.top); err != nil {
		return fmt.Errorf("tier the top in their cohorts: %w", err)
	}
	if len(b.Leagues) == 0 {
		return nil
	}
	if err := recordNextLeagues(ctx, tx, b, row, bucket); err != nil {
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
// as b's tier of its rank in its cohort of period id, whose final ranks are
// in bucket: tiers apply within the cohort.
func tierTopInCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, bucket time.Time, top []periodEntry) error {
	if len(top) == 0 {
		return nil
	}
	const q = `SELECT rank, cohort_rank, cohort_size FROM board_final_ranks
		WHERE bucket = $1 AND period_id = $2 AND rank <= $3 AND cohort_rank IS NOT NULL`
	rows, err := tx.Query(ctx, q, bucket, id, len(top))
	if err != nil {
		return err
	}
	places := map[int32]cohortPlace{}
	var (
		rank int32
		p    cohortPlace
	)
	if _, err := pgx.ForEachRow(rows, []any{&rank, &p.rank, &p.size}, func() error { places[rank] = p; return nil }); err != nil {
		return err
	}
	for i := range top {
		top[i].Tier = tierOfPlace(b, places[int32(top[i].Rank)])
	}
	return nil
}

// rankCohortsSQL sets the cohort results of every member of period id with
// a score in its final ranks in bucket, and returns the period's moves by
// league: a small period of a group close, whose final ranks were written
// by SQL.
func rankCohortsSQL(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, id int32, bucket time.Time) (*cohortSummary, error) {
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
			UPDATE board_final_ranks f SET cohort_rank = r.rank, cohort_size = r.size, next_league = CASE
					WHEN r.rank <= r.promote AND r.league < $4 - 1 THEN r.league + 1
					WHEN r.size >= r.promote + r.demote AND r.rank > r.size - r.demote AND r.rank > r.promote
						AND r.league > 0 THEN r.league - 1
					ELSE r.league END
			FROM ranked r WHERE f.bucket = $5 AND f.period_id = $1 AND f.player_id = r.player_id
			RETURNING r.league, f.next_league
		)
		SELECT league, next_league, count(*) FROM moved GROUP BY league, next_league`
	// The period's rows are newer than the planner's statistics (its id
	// lies past their histogram: a row or two estimated), and a nested loop
	// of the members and their ranks would sort every cohort again for each
	// member: quadratic. Hash joins keep the statement linear whatever the
	// statistics say, for this statement only.
	if _, err := tx.Exec(ctx, `SET LOCAL enable_nestloop = off`); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, q, id, promote, demote, len(b.Leagues), bucket)
	if err != nil {
		return nil, err
	}
	summary := newCohortSummary(b)
	var league, next, n int
	_, err = pgx.ForEachRow(rows, []any{&league, &next, &n}, func() error {
		summary.count(league, next, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `SET LOCAL enable_nestloop TO DEFAULT`); err != nil {
		return nil, err
	}
	return summary, nil
}

// recordNextLeagues records, for every ranked member of period row of b,
// whose final ranks are in bucket, whose next league is not the one
// board_player_leagues gives them, that league, unless the close of a later
// period of b decided it already.
func recordNextLeagues(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, bucket time.Time) error {
	const q = `INSERT INTO board_player_leagues AS l (board_id, player_id, league, decided_at)
		SELECT $2, f.player_id, f.next_league, $3
		FROM board_final_ranks f LEFT JOIN board_player_leagues o ON o.board_id = $2 AND o.player_id = f.player_id
		WHERE f.bucket = $4 AND f.period_id = $1 AND f.next_league IS NOT NULL AND f.next_league <> COALESCE(o.league, 0)
		ORDER BY f.player_id
		ON CONFLICT (board_id, player_id) DO UPDATE SET league = EXCLUDED.league, decided_at = EXCLUDED.decided_at
		WHERE l.decided_at <= EXCLUDED.decided_at`
	_, err := tx.Exec(ctx, q, row.id, b.ID, row.startsAt, bucket)
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
// closed period row of b, whose final ranks (with their cohort results)
// were written again in bucket: the members a correction removed get back
// the league they played the period in, unless a later period's close
// decided theirs; the others are moved again from the corrected scores.
func rerankCohorts(ctx context.Context, tx pgx.Tx, b *leaderboard.Board, row *periodRow, bucket time.Time, ranks *rankedPeriod) error {
	if !b.HasCohorts() {
		return nil
	}
	const unrank = `UPDATE board_player_leagues l SET league = m.league FROM cohort_members m
		WHERE m.period_id = $1 AND l.board_id = $2 AND l.player_id = m.player_id AND l.decided_at = $3
			AND l.league <> m.league AND NOT EXISTS (
				SELECT 1 FROM board_scores s WHERE s.period_id = m.period_id AND s.player_id = m.player_id)`
	if _, err := tx.Exec(ctx, unrank, row.id, b.ID, row.startsAt); err != nil {
		return fmt.Errorf("unrank removed members: %w", err)
	}
	return closeCohorts(ctx, tx, b, row, bucket, ranks)
}
