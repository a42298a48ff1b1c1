package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// periodCloseLock is the class of a period's close lock (db's
// periodCloseLockClass, "lbpc"), which another instance's close holds.
const periodCloseLock = 0x6c627063

// groupBoards creates n DAY boards g0, g1, ... with three players each in
// period 2026-11-19, board i's scores 10*j+i for player pj, and returns the
// store, its clock moved to midnight (every period due), and the periods
// due as PeriodsToClose finds them. opts are the store's further options.
func groupBoards(t *testing.T, n int, opts ...db.Option) (*db.DB, []leaderboard.Period) {
	t.Helper()
	now := *utc(11, 19, 12)
	store := mustOpenDB(t, append([]db.Option{db.WithClock(func() time.Time { return now }), db.WithSettlement(true)}, opts...)...)
	var events []leaderboard.ScoreEvent
	for i := range n {
		id := fmt.Sprint("g", i)
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(0), StartsAt: utc(11, 1, 0)})
		for j := range 3 {
			events = append(events, boardEvent(id, fmt.Sprint("e", j), fmt.Sprint("p", j), leaderboard.ModeSet, 10*j+i, utc(11, 19, j)))
		}
	}
	mustSubmit(t, store, events...)
	now = *utc(11, 20, 0)
	due, err := store.PeriodsToClose(context.Background(), true, 100)
	if err != nil || len(due) != n {
		t.Fatalf("due %+v, %v; want %d periods", due, err, n)
	}
	return store, due
}

// groupDigest is the oracle's digest of board gi's period.
func groupDigest(i int) string {
	return digestOf([]string{"p2", "p1", "p0"}, []int{20 + i, 10 + i, i})
}

// periodID returns the id of board's period 2026-11-19.
func periodID(t *testing.T, board string) string {
	t.Helper()
	return mustQuery(t, `SELECT id FROM periods WHERE board_id = $1 AND key = '2026-11-19'`, board)[0][0]
}

// holdInTx runs q in a transaction of a connection of its own and keeps the
// transaction open until the returned function is called.
func holdInTx(t *testing.T, q string, args ...any) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err == nil {
		_, err = tx.Exec(ctx, q, args...)
	}
	if err != nil {
		conn.Close(ctx)
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			tx.Rollback(ctx)
			conn.Close(ctx)
		}
	}
	t.Cleanup(release)
	return release
}

// assertGroupClosed checks that exactly the boards gi of closed have their
// period CLOSED with the oracle's digest, three participants and final
// ranks, and one period.closed message that says so; and that the others'
// are OPEN without ranks or messages.
func assertGroupClosed(t *testing.T, n int, closed ...int) {
	t.Helper()
	rows := mustQuery(t, `SELECT p.board_id, p.status, COALESCE(p.digest, ''), COALESCE(p.participants, 0),
			(SELECT count(*) FROM board_final_ranks f WHERE f.period_id = p.id),
			(SELECT count(*) FROM outbox o WHERE o.period_id = p.id AND o.board_id = p.board_id),
			(SELECT COALESCE(string_agg(o.body, ''), '') FROM outbox o WHERE o.period_id = p.id AND o.board_id = p.board_id)
		FROM periods p WHERE p.board_id <> 'main' ORDER BY p.board_id`)
	if len(rows) != n {
		t.Fatalf("%d periods, want %d", len(rows), n)
	}
	for i, row := range rows {
		want := []string{fmt.Sprint("g", i), "OPEN", "", "0", "0", "0"}
		if slices.Contains(closed, i) {
			want = []string{fmt.Sprint("g", i), "CLOSED", groupDigest(i), "3", "3", "1"}
			var msg struct {
				Type, Board, Period, Digest string
				Participants                int
				Top                         []struct{ PlayerID string }
			}
			if err := json.Unmarshal([]byte(row[6]), &msg); err != nil {
				t.Fatalf("%s's message %q: %v", row[0], row[6], err)
			}
			if msg.Type != "period.closed" || msg.Board != row[0] || msg.Period != "2026-11-19" || msg.Digest != groupDigest(i) ||
				msg.Participants != 3 || len(msg.Top) != 3 || msg.Top[0].PlayerID != "p2" {
				t.Errorf("%s's message %s", row[0], row[6])
			}
		}
		if got := row[:6]; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("period %v, want %v (board, status, digest, participants, final ranks, messages)", got, want)
		}
	}
}

// closedBoards returns the sorted boards of periods, checking each CLOSED
// with the oracle's digest.
func closedBoards(t *testing.T, periods []leaderboard.Period) string {
	t.Helper()
	var boards []string
	for _, p := range periods {
		var i int
		fmt.Sscanf(p.Board, "g%d", &i)
		if p.Status != leaderboard.PeriodClosed || p.Digest != groupDigest(i) || p.Participants != 3 || p.Key != "2026-11-19" {
			t.Errorf("closed %+v", p)
		}
		boards = append(boards, p.Board)
	}
	slices.Sort(boards)
	return strings.Join(boards, " ")
}

func TestTryClosePeriods_LeavesThePeriodAnotherInstanceHolds(t *testing.T) {
	store, due := groupBoards(t, 5)
	ctx := context.Background()
	// Another instance is closing g2's period: it holds its close lock.
	releaseLock := holdInTx(t, `SELECT pg_advisory_xact_lock($1, $2::integer)`, periodCloseLock, periodID(t, "g2"))
	// A submission to g3 is in flight: it holds the period's row FOR SHARE,
	// so the group skips the row and closes it on its own once it is free.
	releaseRow := holdInTx(t, `SELECT 1 FROM periods WHERE board_id = 'g3' FOR SHARE`)
	time.AfterFunc(200*time.Millisecond, releaseRow)

	closed, err := store.TryClosePeriods(ctx, due)
	if err != nil {
		t.Fatal(err)
	}
	if got := closedBoards(t, closed); got != "g0 g1 g3 g4" {
		t.Fatalf("closed %q, want every period but g2's", got)
	}
	assertGroupClosed(t, 5, 0, 1, 3, 4)

	// Once the other instance is gone (its close rolled back), the next
	// look closes g2's period, and only it.
	releaseLock()
	closed, err = store.TryClosePeriods(ctx, due)
	if err != nil {
		t.Fatal(err)
	}
	if got := closedBoards(t, closed); got != "g2" {
		t.Fatalf("closed %q at the next look, want g2", got)
	}
	assertGroupClosed(t, 5, 0, 1, 2, 3, 4)
}

func TestTryClosePeriods_AGroupThatFailsFallsBackToSingleCloses(t *testing.T) {
	store, due := groupBoards(t, 4)
	ctx := context.Background()
	// A bad period: a final rank of g1's period is there before its close,
	// so that inserting its ranks fails, in the group and on its own.
	for _, q := range []string{
		`CREATE TABLE board_final_ranks_2026_11 PARTITION OF board_final_ranks FOR VALUES IN ('2026-11-01')`,
		`INSERT INTO board_final_ranks (bucket, period_id, rank, player_id, score, reached_at)
			VALUES ('2026-11-01', ` + periodID(t, "g1") + `, 1, 'p0', 0, now())`,
	} {
		mustQuery(t, q)
	}
	closed, err := store.TryClosePeriods(ctx, due)
	if err == nil || !strings.Contains(err.Error(), "board_final_ranks") {
		t.Fatalf("got %v, want the failure of g1's close", err)
	}
	if got := closedBoards(t, closed); got != "g0 g2 g3" {
		t.Fatalf("closed %q, want every period but the bad one", got)
	}
	rows := mustQuery(t, `SELECT board_id, status FROM periods WHERE board_id <> 'main' ORDER BY board_id`)
	if fmt.Sprint(rows) != "[[g0 CLOSED] [g1 OPEN] [g2 CLOSED] [g3 CLOSED]]" {
		t.Fatalf("periods %v, want g1's OPEN and the others CLOSED", rows)
	}
	if n := mustQuery(t, `SELECT count(*) FROM outbox WHERE board_id = 'g1'`)[0][0]; n != "0" {
		t.Fatalf("%s messages for the period that failed to close", n)
	}
}

// A period of 10,000 players or more among due small ones is closed on its
// own, by binary COPY, and ranks, digests and announces as the plain sort of
// its scores says; the small ones close in their group.
func TestTryClosePeriods_ALargePeriodClosesOnItsOwnAsAPlainSort(t *testing.T) {
	const players = 10_000
	now := *utc(11, 19, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	asc := leaderboard.OrderAsc
	for _, id := range []string{"big", "small"} {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay, Order: &asc,
			TimeZone: new("UTC"), CloseGrace: new(0), StartsAt: utc(11, 1, 0)})
	}
	if _, err := store.SeedPeriod(ctx, "big", "2026-11-19", players, db.SeedOptions{RandomSeed: 3}); err != nil {
		t.Fatal(err)
	}
	mustSubmit(t, store, boardEvent("small", "e1", "p1", leaderboard.ModeSet, 5, utc(11, 19, 1)))
	now = *utc(11, 20, 0)
	due, err := store.PeriodsToClose(ctx, true, 100)
	if err != nil || len(due) != 2 {
		t.Fatalf("due %+v, %v", due, err)
	}
	closed, err := store.TryClosePeriods(ctx, due)
	if err != nil || len(closed) != 2 {
		t.Fatalf("closed %+v, %v", closed, err)
	}

	// The plain sort: score ascending, then who reached it first, then seq.
	rows := mustQuery(t, `SELECT s.player_id, s.score FROM board_scores s JOIN periods p ON p.id = s.period_id
		WHERE p.board_id = 'big' ORDER BY s.score, s.reached_at, s.seq`)
	var (
		ids    []string
		scores []int
	)
	for _, r := range rows {
		score, _ := strconv.Atoi(r[1])
		ids, scores = append(ids, r[0]), append(scores, score)
	}
	for _, p := range closed {
		if p.Board == "big" && (p.Participants != players || p.Digest != digestOf(ids, scores)) {
			t.Fatalf("big closed %+v, want %d participants and the plain sort's digest", p, players)
		}
	}
	final := mustQuery(t, `SELECT count(*), min(rank), max(rank), bool_and(f.player_id = s.player_id AND f.score = s.score
			AND f.reached_at = s.reached_at AND f.subscore IS NULL AND f.metadata IS NULL), count(DISTINCT rank)
		FROM board_final_ranks f JOIN periods p ON p.id = f.period_id AND p.final_bucket = f.bucket AND p.board_id = 'big'
		JOIN board_scores s ON s.period_id = f.period_id AND s.player_id = f.player_id`)[0]
	if want := []string{"10000", "1", "10000", "true", "10000"}; !slices.Equal(final, want) {
		t.Fatalf("final ranks (count, first, last, as the scores, distinct) %v, want %v", final, want)
	}
	var message struct {
		Participants int
		Digest       string
		Top          []struct {
			Rank     int
			PlayerID string
			Name     *string
		}
	}
	body := mustQuery(t, `SELECT body FROM outbox WHERE board_id = 'big' AND type = 'period.closed'`)[0][0]
	if err := json.Unmarshal([]byte(body), &message); err != nil {
		t.Fatal(err)
	}
	if message.Participants != players || message.Digest != digestOf(ids, scores) || len(message.Top) != 100 ||
		message.Top[99].Rank != 100 || message.Top[99].PlayerID != ids[99] || message.Top[0].Name == nil {
		t.Fatalf("message %+v", message)
	}
	small := mustQuery(t, `SELECT status, participants FROM periods WHERE board_id = 'small'`)[0]
	if !slices.Equal(small, []string{"CLOSED", "1"}) {
		t.Fatalf("small period %v", small)
	}
}
