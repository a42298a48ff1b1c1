package db_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/db"
)

// mainOnBoardTables is the migration that moves main's months onto the
// board tables; the version before it still has the month tables.
const mainOnBoardTables = 32

// monthScore is a row of scores as the board tables hold it after the move.
type monthScore struct {
	key          string
	playerID     string
	score        int32
	sortScore    int64
	sortSubscore int64
	reachedAt    time.Time
	seq          int64
}

// monthEvent is a row of score_events as the board tables hold it after the
// move.
type monthEvent struct {
	key, eventID, playerID, mode, status string
	value, newScore                      int32
	oldScore                             *int32
	occurredAt, receivedAt               time.Time
}

// rankCount is a row of period_rank_counts.
type rankCount struct {
	periodID int32
	level    int16
	bucket   int64
	sub      int64
	players  int32
}

// Migration 32 moves every month of main, open or closed, from the month
// tables onto board_scores, board_score_events and period_rank_counts (the
// counters FillRankCounts builds), drops the month tables, and its down
// migration moves them back; other boards' rows stay as they were, whether
// the upgrade rebuilds board_scores' indexes (main is the bigger) or keeps
// them (main is the smaller).
func TestMigrate32_MovesMainOntoTheBoardTables(t *testing.T) {
	pg.Reset(t)
	migrateDownTo(t, mainOnBoardTables-1)
	conn := mustConn(t)
	ctx := context.Background()
	seedMainMonths(t, conn)
	wantScores, wantEvents := monthTableRows(t, conn)
	if len(wantScores) != 2*300 || len(wantEvents) != 2*300+1 {
		t.Fatalf("seeded %d scores and %d events", len(wantScores), len(wantEvents))
	}

	rankIndex := boardScoresRankIndex(t, conn)
	migrateUp(t)
	assertMainOnBoardTables(t, conn, wantScores, wantEvents)
	if boardScoresRankIndex(t, conn) == rankIndex {
		t.Error("board_scores' rank index was kept while main's rows outnumbered the table's")
	}

	// Down: the month tables again, with their rows and counters.
	migrateDownTo(t, mainOnBoardTables-1)
	gotScores, gotEvents := monthTableRows(t, conn)
	if !slices.Equal(gotScores, wantScores) || !slices.EqualFunc(gotEvents, wantEvents, equalEvents) {
		t.Fatalf("after down: %d scores, %d events differ from the seeded ones", len(gotScores), len(gotEvents))
	}
	var left, countedWrong int
	const check = `SELECT (SELECT count(*) FROM board_scores s JOIN periods p ON p.id = s.period_id WHERE p.board_id = 'main')
		+ (SELECT count(*) FROM board_score_events WHERE board_id = 'main')
		+ (SELECT count(*) FROM period_rank_counts c JOIN periods p ON p.id = c.period_id WHERE p.board_id = 'main'),
		(SELECT count(*) FROM (SELECT month, score, count(*) AS players FROM scores GROUP BY 1, 2) s
			FULL JOIN score_counts c USING (month, score) WHERE c.players IS DISTINCT FROM s.players)`
	if err := conn.QueryRow(ctx, check).Scan(&left, &countedWrong); err != nil || left != 0 || countedWrong != 0 {
		t.Fatalf("after down: %d rows of main left on the board tables, %d score counters wrong, %v", left, countedWrong, err)
	}

	// Up again, this time with more rows of other boards than main's: the
	// indexes stay in place.
	const others = `INSERT INTO board_scores (period_id, player_id, score, sort_score, sort_subscore, reached_at, seq)
		SELECT 1000000 + g, p.id, 1, 1, 0, now(), nextval('score_seq')
		FROM generate_series(1, 3) AS g CROSS JOIN players p`
	if _, err := conn.Exec(ctx, others); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `ANALYZE board_scores, scores`); err != nil {
		t.Fatal(err)
	}
	rankIndex = boardScoresRankIndex(t, conn)
	migrateUp(t)
	assertMainOnBoardTables(t, conn, wantScores, wantEvents)
	if boardScoresRankIndex(t, conn) != rankIndex {
		t.Error("board_scores' rank index was made again while other boards' rows outnumbered main's")
	}
	var otherRows int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM board_scores WHERE period_id > 1000000`).Scan(&otherRows); err != nil || otherRows != 3*300 {
		t.Fatalf("other boards' rows: %d, %v; want %d", otherRows, err, 3*300)
	}
}

// boardScoresRankIndex returns the oid of board_scores_rank_idx, which
// changes when the index is made again.
func boardScoresRankIndex(t *testing.T, conn *pgx.Conn) uint32 {
	t.Helper()
	var oid uint32
	if err := conn.QueryRow(context.Background(), `SELECT 'board_scores_rank_idx'::regclass::oid`).Scan(&oid); err != nil {
		t.Fatal(err)
	}
	return oid
}

// seedMainMonths writes, at schema version 31, a closed October and an open
// November of main with 300 players each (many tied on score and hour), an
// event per row and one more, as the month code wrote them.
func seedMainMonths(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO players (id, name) SELECT format('p%s', lpad(g::text, 4, '0')), format('Player %s', g)
			FROM generate_series(1, 300) AS g`,
		`INSERT INTO periods (board_id, key, status, starts_at, ends_at, closed_at, participants, ranks_version)
			VALUES ('main', '2026-10', 'CLOSED', '2026-10-01Z', '2026-11-01Z', '2026-11-01 00:05Z', 300, 1),
				('main', '2026-11', 'OPEN', '2026-11-01Z', '2026-12-01Z', NULL, NULL, 0)`,
		`CREATE TABLE score_events_2026_10 PARTITION OF score_events FOR VALUES IN ('2026-10-01')`,
		`CREATE TABLE scores_2026_10 PARTITION OF scores FOR VALUES IN ('2026-10-01')`,
		`CREATE TABLE score_events_2026_11 PARTITION OF score_events FOR VALUES IN ('2026-11-01')`,
		`CREATE TABLE scores_2026_11 PARTITION OF scores FOR VALUES IN ('2026-11-01')`,
		// Scores in steps of 10 from 0 to 10000, 20 players on each of 15
		// scores, reached in one of three hours: ties on score, on hour, and
		// on reached_at to the second (broken by seq).
		`INSERT INTO scores (month, player_id, score, reached_at, seq)
			SELECT m.month, p.id, CASE WHEN m.month = '2026-10-01' THEN 10000 - (g % 15) * 10 ELSE (g % 15) * 700 END,
				m.month + make_interval(hours => g % 3, mins => g % 7), nextval('score_seq')
			FROM (VALUES (DATE '2026-10-01'), (DATE '2026-11-01')) AS m(month)
			CROSS JOIN generate_series(1, 300) AS g
			JOIN players p ON p.id = format('p%s', lpad(g::text, 4, '0'))`,
		`INSERT INTO score_events (event_id, month, player_id, mode, value, occurred_at, received_at, status,
				old_score, new_score)
			SELECT format('e-%s-%s', to_char(month, 'YYYY-MM'), player_id), month, player_id, 'SET', score,
				reached_at, reached_at + interval '1 second', 'APPLIED', NULL, score
			FROM scores
			UNION ALL
			SELECT 'e-again', DATE '2026-11-01', 'p0001', 'BEST', 1, '2026-11-02Z', '2026-11-02Z', 'UNCHANGED',
				score, score
			FROM scores WHERE month = '2026-11-01' AND player_id = 'p0001'`,
		`INSERT INTO score_hour_counts (month, score, hour, players)
			SELECT month, score, floor(extract(EPOCH FROM reached_at) / 3600)::int, count(*) FROM scores GROUP BY 1, 2, 3`,
		`INSERT INTO score_counts (month, score, players) SELECT month, score, count(*) FROM scores GROUP BY 1, 2`,
		`INSERT INTO score_block_counts (month, block, players) SELECT month, score / 100, count(*) FROM scores GROUP BY 1, 2`,
	} {
		if _, err := conn.Exec(context.Background(), q); err != nil {
			t.Fatalf("seed main's months: %v\n%s", err, q)
		}
	}
}

// monthTableRows returns the rows of scores and score_events, as the board
// tables should hold them.
func monthTableRows(t *testing.T, conn *pgx.Conn) ([]monthScore, []monthEvent) {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT to_char(month, 'YYYY-MM'), player_id, score, -score, 0, reached_at, seq
		FROM scores ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := pgx.CollectRows(rows, scanMonthScore)
	if err != nil {
		t.Fatal(err)
	}
	rows, err = conn.Query(ctx, `SELECT to_char(month, 'YYYY-MM'), event_id, player_id, mode, status, value,
		new_score, old_score, occurred_at, received_at FROM score_events ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	events, err := pgx.CollectRows(rows, scanMonthEvent)
	if err != nil {
		t.Fatal(err)
	}
	return scores, events
}

// assertMainOnBoardTables checks that main's rows are the wanted ones on the
// board tables, that its counters are those FillRankCounts builds, and that
// the month tables are gone.
func assertMainOnBoardTables(t *testing.T, conn *pgx.Conn, wantScores []monthScore, wantEvents []monthEvent) {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT p.key, s.player_id, s.score, s.sort_score, s.sort_subscore, s.reached_at, s.seq
		FROM board_scores s JOIN periods p ON p.id = s.period_id
		WHERE p.board_id = 'main' AND s.subscore IS NULL AND s.metadata IS NULL ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := pgx.CollectRows(rows, scanMonthScore)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(scores, wantScores) {
		t.Fatalf("board_scores of main: %d rows differ from the %d of scores", len(scores), len(wantScores))
	}
	rows, err = conn.Query(ctx, `SELECT p.key, e.event_id, e.player_id, e.mode, e.status, e.value, e.new_score,
			e.old_score, e.occurred_at, e.received_at
		FROM board_score_events e JOIN periods p ON p.id = e.period_id AND p.board_id = e.board_id
		WHERE e.board_id = 'main' AND e.subscore IS NULL ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	events, err := pgx.CollectRows(rows, scanMonthEvent)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(events, wantEvents, equalEvents) {
		t.Fatalf("board_score_events of main: %d rows differ from the %d of score_events", len(events), len(wantEvents))
	}

	var periods []int32
	if err := conn.QueryRow(ctx, `SELECT array_agg(id ORDER BY id) FROM periods WHERE board_id = 'main'`).Scan(&periods); err != nil {
		t.Fatal(err)
	}
	migrated := mainRankCounts(t, conn)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `DELETE FROM period_rank_counts WHERE period_id = ANY($1)`, periods); err != nil {
		t.Fatal(err)
	}
	if err := db.FillRankCounts(ctx, tx, periods); err != nil {
		t.Fatal(err)
	}
	filled := mainRankCounts(t, tx.Conn())
	if len(filled) == 0 || !slices.Equal(migrated, filled) {
		t.Fatalf("main's rank counts: the migration made %d rows, FillRankCounts %d, and they differ:\n%v\n%v",
			len(migrated), len(filled), firstDifference(migrated, filled), len(migrated) == len(filled))
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}

	var gone bool
	const dropped = `SELECT to_regclass('scores') IS NULL AND to_regclass('score_events') IS NULL
		AND to_regclass('score_counts') IS NULL AND to_regclass('score_block_counts') IS NULL
		AND to_regclass('score_hour_counts') IS NULL AND to_regclass('scores_2026_10') IS NULL
		AND to_regclass('score_events_2026_11') IS NULL AND to_regclass('score_seq') IS NOT NULL`
	if err := conn.QueryRow(ctx, dropped).Scan(&gone); err != nil || !gone {
		t.Fatalf("month tables dropped (and score_seq kept): %t, %v", gone, err)
	}
}

// mainRankCounts returns main's rows of period_rank_counts in key order.
func mainRankCounts(t *testing.T, conn *pgx.Conn) []rankCount {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT c.period_id, c.level, c.bucket, c.sub, c.players
		FROM period_rank_counts c JOIN periods p ON p.id = c.period_id WHERE p.board_id = 'main' ORDER BY 1, 2, 3, 4`)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (rankCount, error) {
		var c rankCount
		err := row.Scan(&c.periodID, &c.level, &c.bucket, &c.sub, &c.players)
		return c, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts
}

// firstDifference describes the first counter where a and b differ.
func firstDifference(a, b []rankCount) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %+v != %+v", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

func scanMonthScore(row pgx.CollectableRow) (monthScore, error) {
	var s monthScore
	err := row.Scan(&s.key, &s.playerID, &s.score, &s.sortScore, &s.sortSubscore, &s.reachedAt, &s.seq)
	return s, err
}

func scanMonthEvent(row pgx.CollectableRow) (monthEvent, error) {
	var e monthEvent
	err := row.Scan(&e.key, &e.eventID, &e.playerID, &e.mode, &e.status, &e.value, &e.newScore, &e.oldScore,
		&e.occurredAt, &e.receivedAt)
	return e, err
}

func equalEvents(a, b monthEvent) bool {
	sameOld := (a.oldScore == nil) == (b.oldScore == nil) && (a.oldScore == nil || *a.oldScore == *b.oldScore)
	a.oldScore, b.oldScore = nil, nil
	return sameOld && a == b
}
