package db

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Cohorts are filled in the transaction that writes a player's first
// applied event of a period (applyBoardBatch), so that a player is in a
// cohort exactly when they have a score in the period. The cohort of a
// (period, league) that takes new players is a row of period_cohort_fill,
// which the batch locks (INSERT ... ON CONFLICT DO UPDATE) before it places
// anyone: batches of every instance then place a league's new players one
// batch after the other, each from the count the previous one committed, so
// that no cohort holds more than the board's cohortSize. cohort_members'
// primary key makes one cohort per player and period: a concurrent batch
// that placed the same player first fails this one, which is retried (as a
// concurrent first score of the same player fails board_scores' INSERT).
// Only batches with new players of league boards pay for it: one round trip
// more, and the wait for the fill rows of their leagues.

// newCohortPlayer is a player with no row in their period before this
// batch, whose first applied event is the batch's event index.
type newCohortPlayer struct {
	key      boardRowKey
	periodID int32
	index    int
}

// newCohortPlayers returns the players of b that are new in a period of a
// board with cohorts, in the order of their first applied events.
func newCohortPlayers(b *boardBatch, periods map[periodRef]periodState, rows map[boardRowKey]*boardRow,
	accepted []acceptedBoardEvent) []newCohortPlayer {
	var players []newCohortPlayer
	seen := map[boardRowKey]bool{}
	for _, a := range accepted {
		p := b.period[a.index]
		key := boardRowKey{periodRef: p.periodRef, player: b.events[a.index].PlayerID}
		if a.status != leaderboard.StatusApplied || seen[key] || rows[key].exists || !b.boards[p.board].HasCohorts() {
			continue
		}
		seen[key] = true
		players = append(players, newCohortPlayer{key: key, periodID: periods[p.periodRef].id, index: a.index})
	}
	return players
}

// cohortFill is the cohort of a period's league that takes new players, and
// how many it holds.
type cohortFill struct {
	cohort, size int32
}

// periodLeague names a league of a period.
type periodLeague struct {
	periodID int32
	league   int16
}

// assignCohorts places new players of boards in cohorts, locking the fill
// rows of their leagues, and queues the members' rows and the fills' new
// counts on writes. A player already in a cohort of the period (a
// correction removed their score since) keeps it. An admin's score for a player with
// no standing in an open period joins a cohort the same way
// (correctBoardRow).
func assignCohorts(ctx context.Context, tx pgx.Tx, writes *pgx.Batch, boards map[string]*leaderboard.Board,
	players []newCohortPlayer) error {
	if len(players) == 0 {
		return nil
	}
	n := len(players)
	indexes, boardIDs, ids, periodIDs := make([]int32, n), make([]string, n), make([]string, n), make([]int32, n)
	for i, p := range players {
		indexes[i], boardIDs[i], ids[i], periodIDs[i] = int32(i), p.key.board, p.key.player, p.periodID
	}
	// One statement reads each player's league and whether they are in a
	// cohort already, then locks their leagues' fill rows, making those
	// missing, in (period, league) order: concurrent batches lock in the
	// same order, and one waiting reads the count the other committed.
	const q = `WITH k AS (
			SELECT k.i, k.period_id, COALESCE(l.league, 0)::smallint AS league, m.player_id IS NOT NULL AS member
			FROM unnest($1::int[], $2::text[], $3::text[], $4::int[]) AS k(i, board_id, player_id, period_id)
			LEFT JOIN board_player_leagues l ON l.board_id = k.board_id AND l.player_id = k.player_id
			LEFT JOIN cohort_members m ON m.period_id = k.period_id AND m.player_id = k.player_id
		), fill AS (
			INSERT INTO period_cohort_fill AS f (period_id, league, cohort, size)
			SELECT DISTINCT period_id, league, 1, 0 FROM k WHERE NOT member ORDER BY period_id, league
			ON CONFLICT (period_id, league) DO UPDATE SET cohort = f.cohort
			RETURNING f.period_id, f.league, f.cohort, f.size
		)
		SELECT i, period_id, league, member, 0, 0 FROM k
		UNION ALL SELECT -1, period_id, league, false, cohort, size FROM fill`
	rows, err := tx.Query(ctx, q, indexes, boardIDs, ids, periodIDs)
	if err != nil {
		return errorf("lock cohorts: %w", err)
	}
	leagues, members, fills := make([]int16, n), make([]bool, n), map[periodLeague]*cohortFill{}
	var (
		i      int32
		pl     periodLeague
		member bool
		fill   cohortFill
	)
	_, err = pgx.ForEachRow(rows, []any{&i, &pl.periodID, &pl.league, &member, &fill.cohort, &fill.size}, func() error {
		if i < 0 {
			fills[pl] = &cohortFill{cohort: fill.cohort, size: fill.size}
		} else {
			leagues[i], members[i] = pl.league, member
		}
		return nil
	})
	if err != nil {
		return errorf("lock cohorts: %w", err)
	}
	var placed cohortMembers
	for i, p := range players {
		if members[i] {
			continue
		}
		f := fills[periodLeague{periodID: p.periodID, league: leagues[i]}]
		if f.size >= int32(*boards[p.key.board].CohortSize) {
			f.cohort, f.size = f.cohort+1, 0
		}
		f.size++
		placed.add(p.periodID, p.key.player, leagues[i], f.cohort)
	}
	queueCohortWrites(writes, placed, fills)
	return nil
}

// cohortMembers holds rows of cohort_members column by column, for unnest.
type cohortMembers struct {
	periods []int32
	players []string
	leagues []int16
	cohorts []int32
}

func (c *cohortMembers) add(periodID int32, player string, league int16, cohort int32) {
	c.periods, c.players = append(c.periods, periodID), append(c.players, player)
	c.leagues, c.cohorts = append(c.leagues, league), append(c.cohorts, cohort)
}

// queueCohortWrites queues the insert of the members placed, without ON
// CONFLICT (a player placed meanwhile by another batch fails this one, to
// be retried), and the fills' new cohorts and counts.
func queueCohortWrites(writes *pgx.Batch, placed cohortMembers, fills map[periodLeague]*cohortFill) {
	if len(placed.players) == 0 {
		return
	}
	const insert = `INSERT INTO cohort_members (period_id, player_id, league, cohort)
		SELECT * FROM unnest($1::int[], $2::text[], $3::smallint[], $4::int[]) ORDER BY 1, 2`
	writes.Queue(insert, placed.periods, placed.players, placed.leagues, placed.cohorts)
	queueFillCounts(writes, fills)
}

// lockFills locks the fill rows of the leagues of periods, making those
// missing, in (period, league) order as assignCohorts does, and returns
// them.
func lockFills(ctx context.Context, tx pgx.Tx, periods []int32, leagues []int16) (map[periodLeague]*cohortFill, error) {
	const q = `INSERT INTO period_cohort_fill AS f (period_id, league, cohort, size)
		SELECT DISTINCT period_id, league, 1, 0 FROM unnest($1::int[], $2::smallint[]) AS k(period_id, league)
		ORDER BY period_id, league
		ON CONFLICT (period_id, league) DO UPDATE SET cohort = f.cohort
		RETURNING f.period_id, f.league, f.cohort, f.size`
	rows, err := tx.Query(ctx, q, periods, leagues)
	if err != nil {
		return nil, err
	}
	fills := map[periodLeague]*cohortFill{}
	var (
		pl periodLeague
		f  cohortFill
	)
	_, err = pgx.ForEachRow(rows, []any{&pl.periodID, &pl.league, &f.cohort, &f.size}, func() error {
		fills[pl] = &cohortFill{cohort: f.cohort, size: f.size}
		return nil
	})
	return fills, err
}

// queueFillCounts queues the update of fills' cohorts and counts, in
// (period, league) order.
func queueFillCounts(writes *pgx.Batch, fills map[periodLeague]*cohortFill) {
	keys := slices.SortedFunc(maps.Keys(fills), func(x, y periodLeague) int {
		return cmp.Or(cmp.Compare(x.periodID, y.periodID), cmp.Compare(x.league, y.league))
	})
	periods, leagues, cohorts, sizes := make([]int32, 0, len(keys)), make([]int16, 0, len(keys)),
		make([]int32, 0, len(keys)), make([]int32, 0, len(keys))
	for _, k := range keys {
		f := fills[k]
		periods, leagues, cohorts, sizes = append(periods, k.periodID), append(leagues, k.league), append(cohorts, f.cohort), append(sizes, f.size)
	}
	const update = `UPDATE period_cohort_fill f SET cohort = u.cohort, size = u.size
		FROM unnest($1::int[], $2::smallint[], $3::int[], $4::int[]) AS u(period_id, league, cohort, size)
		WHERE f.period_id = u.period_id AND f.league = u.league`
	writes.Queue(update, periods, leagues, cohorts, sizes)
}
