package db

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

// A standing is read with one statement, so that its rank, total and
// neighbours come from one snapshot without a transaction's round trips.

// liveStandingSQL returns the statement of a live standing: month $1's
// status and, when player $2 has a score, their row (kind 0) with its rank and
// the month's total, then up to aboveLimit rows above (kind -1) and belowLimit
// below (kind 1), each with the player's name. Each side's two range scans
// are cut to its nearest rows before the names are looked up. Scores are
// read from table, which holds month $1's alone: the month's own partition,
// or monthOfParent (see liveStanding).
//
// PostgreSQL keeps a statement's generic plan only when it is estimated no
// dearer than planning afresh, and replanning this one cost as much as
// running it (about 0.6 ms). A LIMIT $n made the generic plan's estimate a
// tenth of the month, and the partitioned parent made it cover every
// month's partition, so it was replanned for every read. Written with
// literal limits against the month's partition, it keeps its generic plan
// from the sixth read on each connection. See docs/PERFORMANCE.md, "Live
// ranks: a plan that is kept".
func liveStandingSQL(table string, aboveLimit, belowLimit int) string {
	return `WITH mo AS (
	SELECT status, COALESCE(participants, 0) AS participants, ranks_version, id FROM periods m WHERE ` + mainPeriodOf("m", "$1") + `
), me AS (
	SELECT score, reached_at, seq, ` + hourColumnsSQL + ` FROM ` + table + ` WHERE month = $1 AND player_id = $2
), above AS (
	SELECT a.* FROM me CROSS JOIN LATERAL (` + liveAboveSQL("me", strconv.Itoa(aboveLimit), table) + `) AS a
	ORDER BY a.score ASC, a.reached_at DESC, a.seq DESC LIMIT ` + strconv.Itoa(aboveLimit) + `
), below AS (
	SELECT b.* FROM me CROSS JOIN LATERAL (` + liveBelowSQL("me", strconv.Itoa(belowLimit), table) + `) AS b
	ORDER BY b.score DESC, b.reached_at ASC, b.seq ASC LIMIT ` + strconv.Itoa(belowLimit) + `
)
SELECT 0, $2::text, (SELECT name FROM players WHERE id = $2), me.score, me.reached_at, me.seq, ` + liveRankSQL("me", table) + `,
	(` + liveTotalQuery + `), mo.status, mo.participants, mo.ranks_version, mo.id
FROM mo LEFT JOIN me ON true
UNION ALL
SELECT -1, a.player_id, ` + nameSQL("a") + `, a.score, a.reached_at, a.seq, NULL, NULL, NULL, NULL, NULL, NULL FROM above a
UNION ALL
SELECT 1, b.player_id, ` + nameSQL("b") + `, b.score, b.reached_at, b.seq, NULL, NULL, NULL, NULL, NULL, NULL FROM below b`
}

// neighbourLimits are the row limits standing statements are written with:
// a request's neighbours on each side are read with limitFor(neighbourLimits, n).
var neighbourLimits = []int{0, leaderboard.DefaultNeighbours, leaderboard.MaxNeighbours}

// partitionTable stands for the partition a standing statement reads in
// standingStatements.
const partitionTable = "{partition}"

// standingStatements holds a standing statement written for every pair of
// neighbourLimits, reading from partitionTable.
type standingStatements map[[2]int]string

func newStandingStatements(sql func(table string, aboveLimit, belowLimit int) string) standingStatements {
	qs := standingStatements{}
	for _, a := range neighbourLimits {
		for _, b := range neighbourLimits {
			qs[[2]int{a, b}] = sql(partitionTable, a, b)
		}
	}
	return qs
}

// query returns the statement reading table with room for above and below
// neighbours.
func (qs standingStatements) query(table string, above, below int) string {
	return strings.ReplaceAll(qs[[2]int{limitFor(neighbourLimits, above), limitFor(neighbourLimits, below)}], partitionTable, table)
}

var (
	liveStandingStatements  = newStandingStatements(liveStandingSQL)
	finalStandingStatements = newStandingStatements(finalStandingSQL)
)

// isUndefinedTable reports whether err is PostgreSQL's "relation does not
// exist": a partition a statement names was never made, or was dropped.
func isUndefinedTable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == pgerrcode.UndefinedTable
}

// nameSQL returns the SQL expression of the name of the player of row t. A
// subquery per row, unlike a join, stays an index lookup in a generic plan,
// which cannot know how few rows a LIMIT $n lets through.
func nameSQL(t string) string {
	return `(SELECT name FROM players WHERE id = ` + t + `.player_id)`
}

// Standing returns playerID's standing in month m with up to above and below
// neighbours (each at most leaderboard.MaxNeighbours) and their players, read
// in one snapshot, or nil when the player has no score in m. A closed month
// is read from its final ranks, an open one live.
func (db *DB) Standing(ctx context.Context, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	above = min(max(above, 0), leaderboard.MaxNeighbours)
	below = min(max(below, 0), leaderboard.MaxNeighbours)
	s, err := db.standing(ctx, m, playerID, above, below)
	if err != nil {
		return nil, errorf("read standing of %q in %s: %w", playerID, m, err)
	}
	return s, nil
}

func (db *DB) standing(ctx context.Context, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, error) {
	if c, ok := db.closedMonths.Load(m); ok {
		return db.finalStanding(ctx, m, c.(closedMonth), playerID, above, below)
	}
	leave, err := db.closing.enter(ctx, m)
	if err != nil {
		return nil, err
	}
	s, month, err := db.liveStanding(ctx, m, playerID, above, below)
	leave()
	if err == nil {
		db.closing.saw(m, month.status)
	}
	if err != nil || month.status != leaderboard.MonthClosed {
		return s, err
	}
	// A closed month changes only by a correction, which tells every
	// instance to forget it (ForgetClosedPeriod): remember it, and read its
	// frozen ranks from now on.
	c := closedMonth{participants: month.participants, table: ownPartition(month.id, month.ranksVersion), period: month.id}
	db.closedMonths.Store(m, c)
	return db.finalStanding(ctx, m, c, playerID, above, below)
}

// closedMonth is what a DB remembers of a closed month.
type closedMonth struct {
	participants int
	table        string // its final ranks of their own (ownPartition), as an SQL identifier
	period       int32  // its period's id
}

// finalStandingSQL returns the statement of a closed month's standing: the
// final ranks aboveLimit above to belowLimit below player $2's in month $1,
// in rank order, each with the player's name, read from table: the final
// ranks of their own of the month's period (periodIDMark, its id), or
// board_final_ranks itself. Literal limits, the partition's name and the
// period's id keep its generic plan, as with liveStandingSQL.
//
// The final ranks have no index by player: building one took the close 8 to
// 25 s at ten million players. A closed month's scores and counters stay as
// its final ranks were built from them (a correction changes them together),
// so the player's final rank is their live rank (liveRankSQL) in the month's
// scores, read from scoresTable as in liveStandingSQL. The rank is a scalar
// subquery, so the window is one range of the primary key (bucket,
// period_id, rank) whatever the planner believes. Right after a close the month's partition
// had no statistics yet, and a join of the partition with itself was then
// planned as a sort of the whole month (seconds at a million players) for
// every read; see docs/PERFORMANCE.md, "Right after a close". The LIMIT
// tells the planner how few rows come back without statistics, which keeps
// the index range scan its cheapest plan.
func finalStandingSQL(table string, aboveLimit, belowLimit int) string {
	return `WITH me AS (
	SELECT score, reached_at, seq, ` + hourColumnsSQL + ` FROM ` + scoresTable + ` WHERE month = $1 AND player_id = $2
), r AS (
	SELECT ` + liveRankSQL("me", scoresTable) + ` AS rank FROM me
)
SELECT f.rank, f.score, f.reached_at, f.player_id, ` + nameSQL("f") + `
FROM ` + table + ` f
WHERE f.bucket = ` + ownBucketSQL + ` AND f.period_id = ` + periodIDMark + ` AND f.rank BETWEEN (SELECT rank FROM r) - ` + strconv.Itoa(aboveLimit) +
		` AND (SELECT rank FROM r) + ` + strconv.Itoa(belowLimit) + `
ORDER BY f.rank
LIMIT ` + strconv.Itoa(aboveLimit+belowLimit+1)
}

// scoresTable stands for the month's scores in finalStandingSQL's statements.
const scoresTable = "{scores}"

// periodIDMark stands for the id of the month's period in finalStandingSQL's
// statements.
const periodIDMark = "{period}"

// monthPeriodSQL is the id of month $1's period, for a statement that reads
// main's final ranks through board_final_ranks.
var monthPeriodSQL = `(SELECT m.id FROM periods m WHERE ` + mainPeriodOf("m", "$1") + `)`

// finalStandingQuery returns the statement of a closed month's standing
// reading the final ranks from table, those of period (its id, or
// monthPeriodSQL), and the month's scores from scores.
func finalStandingQuery(table, period, scores string, above, below int) string {
	return strings.NewReplacer(scoresTable, scores, periodIDMark, period).Replace(finalStandingStatements.query(table, above, below))
}

// finalStanding reads a standing of closed month c from its final ranks: one
// range of ranks around the player's. When c's table is gone (a correction
// replaced it, or retention dropped the month, and this instance has not
// heard yet), it forgets c and reads through board_final_ranks itself.
func (db *DB) finalStanding(ctx context.Context, m leaderboard.Month, c closedMonth, playerID string, above, below int) (*leaderboard.Standing, error) {
	period := strconv.Itoa(int(c.period))
	entries, err := db.finalEntries(ctx, finalStandingQuery(c.table, period, monthTable(m), above, below), m, playerID)
	if isUndefinedTable(err) {
		db.closedMonths.Delete(m)
		entries, err = db.finalEntries(ctx, finalStandingQuery("board_final_ranks", monthPeriodSQL, monthOfParent, above, below),
			m, playerID)
	}
	if err != nil {
		return nil, err
	}
	self := slices.IndexFunc(entries, func(e leaderboard.RankEntry) bool { return e.Player.ID == playerID })
	if self < 0 {
		return nil, nil
	}
	return &leaderboard.Standing{
		RankEntry: entries[self],
		Month:     m,
		Total:     c.participants,
		Final:     true,
		Above:     entries[max(0, self-above):self],
		Below:     entries[self+1 : min(len(entries), self+1+below)],
	}, nil
}

// finalEntries runs a final standing statement q.
func (db *DB) finalEntries(ctx context.Context, q string, m leaderboard.Month, playerID string) ([]leaderboard.RankEntry, error) {
	rows, err := db.pool.Query(ctx, q, m.Date(), playerID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanRankEntry)
}

// scanRankEntry reads a row of rank, score, reached_at, player_id and the
// player's name.
func scanRankEntry(row pgx.CollectableRow) (leaderboard.RankEntry, error) {
	var e leaderboard.RankEntry
	err := row.Scan(&e.Rank, &e.Score, &e.ReachedAt, &e.Player.ID, &e.Player.Name)
	return e, err
}

// monthState is a month's row as a live standing reads it: status "" when
// the month never opened.
type monthState struct {
	status       leaderboard.MonthStatus
	participants int
	ranksVersion int
	id           int32 // its period's
}

// monthOfParent is month $1's scores read through the partitioned parent.
const monthOfParent = `(SELECT * FROM scores WHERE month = $1) AS scores`

// liveStanding reads a standing of month m from its live table, and the
// month's state. It reads the month's own partition; a month without one
// (never opened, or dropped) is read through the partitioned parent, which
// answers for it as for any.
func (db *DB) liveStanding(ctx context.Context, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, monthState, error) {
	s, month, err := db.liveStandingFrom(ctx, liveStandingStatements.query(monthTable(m), above, below), m, playerID, above, below)
	if isUndefinedTable(err) {
		return db.liveStandingFrom(ctx, liveStandingStatements.query(monthOfParent, above, below), m, playerID, above, below)
	}
	return s, month, err
}

// liveStandingFrom runs liveStanding's statement q.
func (db *DB) liveStandingFrom(ctx context.Context, q string, m leaderboard.Month, playerID string, above, below int) (*leaderboard.Standing, monthState, error) {
	rows, err := db.pool.Query(ctx, q, m.Date(), playerID)
	if err != nil {
		return nil, monthState{}, err
	}
	var (
		s                                 *leaderboard.Standing
		month                             monthState
		aboveRows, belowRows              []liveRow
		kind                              int
		id                                string
		name, monthStatus                 *string
		score, participants, ranksVersion *int
		reachedAt                         *time.Time
		seq, rank, total                  *int64
		period                            *int32
	)
	_, err = pgx.ForEachRow(rows, []any{&kind, &id, &name, &score, &reachedAt, &seq, &rank, &total, &monthStatus, &participants, &ranksVersion, &period}, func() error {
		if kind == 0 {
			month = monthState{status: leaderboard.MonthStatus(*monthStatus), participants: *participants, ranksVersion: *ranksVersion,
				id: *period}
			if score == nil {
				return nil
			}
			s = &leaderboard.Standing{Month: m, Total: int(*total)}
			s.RankEntry = leaderboard.RankEntry{Rank: int(*rank), Score: *score, ReachedAt: *reachedAt,
				Player: leaderboard.Player{ID: id, Name: name}}
		} else {
			row := liveRow{liveKey: liveKey{score: *score, reachedAt: *reachedAt, seq: *seq}, player: leaderboard.Player{ID: id, Name: name}}
			if kind < 0 {
				aboveRows = append(aboveRows, row)
			} else {
				belowRows = append(belowRows, row)
			}
		}
		name = nil
		return nil
	})
	if err != nil || s == nil {
		return nil, month, err
	}
	s.Above = rankRows(nearest(aboveRows, above, func(a, b liveKey) bool { return b.before(a) }), s.Rank, -1)
	slices.Reverse(s.Above)
	s.Below = rankRows(nearest(belowRows, below, liveKey.before), s.Rank, +1)
	return s, month, nil
}

// FinalRanks reads closed month m's final ranks from one snapshot, streaming
// them as a leaderboard.RankStream does with its entry and name, and
// returns the ranks version it read. ECONFLICT when m is not CLOSED.
func (db *DB) FinalRanks(ctx context.Context, m leaderboard.Month, entry func(leaderboard.RankEntry) error,
	name func(playerID, name string) error) (int, error) {
	var version int
	// Ten million rows take seconds to read: no statement timeout.
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		q := `SELECT id, ranks_version, participants FROM periods m WHERE ` + mainPeriodOf("m", "$1") + ` AND status = 'CLOSED'`
		var (
			id           int32
			participants int
		)
		if err := tx.QueryRow(ctx, q, m.Date()).Scan(&id, &version, &participants); noRows(err) {
			return leaderboard.Errorf(leaderboard.ECONFLICT, "month %s is not closed", m)
		} else if err != nil {
			return err
		}
		return readRanks(ctx, tx, ownPartition(id, version), participants, entry, name)
	})
	if err != nil {
		return 0, errorf("read final ranks of %s: %w", m, err)
	}
	return version, nil
}
