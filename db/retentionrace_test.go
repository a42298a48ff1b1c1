package db_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// Retention racing a correction of the closed period it is due to drop, in
// each order, driven by locks a second connection holds: the correction's
// message is recorded and waits for its delivery, and retention drops the
// period only once it was delivered; or retention drops the period first
// and the correction, which waited for it, fails and records nothing. No
// message is lost, for main's month and a board's period, both dropped by
// dropPeriod.

// retentionRaceKinds are main and a DAY board that keeps no closed period;
// holdDrop is a lock that holds a drop after it locked the period's row, and
// that a correction never takes before that row.
var retentionRaceKinds = []struct {
	name, board, key, holdDrop string
	retain                     db.Retention
}{
	{"main", leaderboard.MainBoard, "2026-11", `LOCK TABLE period_purges IN SHARE MODE`,
		db.Retention{MainMonths: new(0)}},
	{"day", "daily", "2026-11-20", `LOCK TABLE period_purges IN SHARE MODE`, db.Retention{Limit: 10}},
}

func TestDropOldPeriods_RacingACorrectionLosesNoMessage(t *testing.T) {
	for _, kind := range retentionRaceKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Run("the correction commits between retention's look and its drop", func(t *testing.T) {
				r := openRetentionRace(t, kind.board, kind.key)
				// The correction holds the period's row and waits to record its
				// message; retention has looked (every message delivered) and
				// waits for the row.
				r.hold(t, `LOCK TABLE outbox IN SHARE MODE`)
				corrected := r.correct()
				r.waitForWaiters(t, 1)
				dropped := r.drop(kind.retain)
				r.waitForWaiters(t, 2)
				r.release(t)
				if c := within(t, corrected); c.err != nil {
					t.Fatalf("correction: %v", c.err)
				}
				if d := within(t, dropped); d.err != nil || len(d.periods) != 0 {
					t.Fatalf("retention dropped %+v, %v; want nothing while the correction's message is pending", d.periods, d.err)
				}
				if got := r.messages(t); got != "closed:delivered corrected:pending" {
					t.Fatalf("messages %s, want the correction's pending", got)
				}
				// Delivered, the message lets retention drop the period.
				r.deliverAll(t)
				if got := r.messages(t); got != "closed:delivered corrected:delivered" {
					t.Fatalf("messages %s, want both delivered", got)
				}
				if periods, err := r.store.DropOldPeriods(context.Background(), kind.retain); err != nil || len(periods) != 1 {
					t.Fatalf("retention once delivered: %+v, %v", periods, err)
				}
			})
			t.Run("retention drops the period while the correction waits", func(t *testing.T) {
				r := openRetentionRace(t, kind.board, kind.key)
				r.hold(t, kind.holdDrop)
				dropped := r.drop(kind.retain)
				r.waitForWaiters(t, 1)
				corrected := r.correct()
				r.waitForWaiters(t, 2)
				r.release(t)
				if d := within(t, dropped); d.err != nil || len(d.periods) != 1 || d.periods[0].Key != kind.key {
					t.Fatalf("retention dropped %+v, %v; want %s", d.periods, d.err, kind.key)
				}
				c := within(t, corrected)
				if le := (*leaderboard.Error)(nil); !errors.As(c.err, &le) || le.Code != leaderboard.ENOTFOUND {
					t.Fatalf("correction of a dropped period: %+v, %v; want ENOTFOUND", c.correction, c.err)
				}
				if got := r.messages(t); got != "" {
					t.Fatalf("messages %s outlived their period", got)
				}
				if n := mustQuery(t, `SELECT count(*) FROM corrections`); n[0][0] != "0" {
					t.Fatalf("%s corrections outlived their period", n[0][0])
				}
			})
		})
	}
}

// retentionRace is a closed period, its closed message delivered, that
// retention is due to drop, and a connection that holds locks.
type retentionRace struct {
	store        *db.DB
	board, key   string
	holder, look *pgx.Conn
	held         pgx.Tx
}

// openRetentionRace closes period key of board (main's month, or a DAY
// board's day that keeps no closed period) with three players, delivers
// its closed message, and sets the clock to when retention drops it.
func openRetentionRace(t *testing.T, board, key string) *retentionRace {
	t.Helper()
	ctx := context.Background()
	now := testNow
	store := mustOpenDB(t, db.WithSettlement(true), db.WithClock(func() time.Time { return now }))
	events := board
	if board == leaderboard.MainBoard {
		events = ""
	} else {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: board, Name: board, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0), RetainPeriods: new(0)})
	}
	for i, player := range []string{"ann", "bob", "cat"} {
		mustSubmit(t, store, boardEvent(events, fmt.Sprint("e", i), player, leaderboard.ModeSet, 10*(i+1), utc(11, 20, 9)))
	}
	now = *utc(12, 2, 0)
	if board == leaderboard.MainBoard {
		mustCloseMain(t, store, november)
	} else if _, err := store.ClosePeriod(ctx, board, key); err != nil {
		t.Fatal(err)
	}
	r := &retentionRace{store: store, board: board, key: key}
	r.deliverAll(t)
	for _, c := range []**pgx.Conn{&r.holder, &r.look} {
		conn, err := pgx.Connect(ctx, pg.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		*c = conn
	}
	return r
}

// hold takes lock in a transaction of the holding connection.
func (r *retentionRace) hold(t *testing.T, lock string) {
	t.Helper()
	tx, err := r.holder.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(context.Background(), lock); err != nil {
		t.Fatal(err)
	}
	r.held = tx
}

// release ends the holding connection's transaction.
func (r *retentionRace) release(t *testing.T) {
	t.Helper()
	if err := r.held.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// waitForWaiters waits until n sessions wait for a lock.
func (r *retentionRace) waitForWaiters(t *testing.T, n int) {
	t.Helper()
	const q = `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
	for deadline := time.Now().Add(10 * time.Second); ; {
		var waiting int
		if err := r.look.QueryRow(context.Background(), q).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions wait for a lock after 10 s, want %d", waiting, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// within returns what ch yields, failing the test after 30 s.
func within[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	var v T
	select {
	case v = <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer after 30 s")
	}
	return v
}

type correctResult struct {
	correction *leaderboard.Correction
	err        error
}

// correct corrects bob's score of the period, in the background.
func (r *retentionRace) correct() <-chan correctResult {
	done := make(chan correctResult, 1)
	go func() {
		c, err := r.store.CorrectScore(context.Background(), r.board, r.key, "bob", new(5), "cheating")
		done <- correctResult{c, err}
	}()
	return done
}

type dropResult struct {
	periods []leaderboard.Period
	err     error
}

// drop runs retention, in the background.
func (r *retentionRace) drop(keep db.Retention) <-chan dropResult {
	done := make(chan dropResult, 1)
	go func() {
		periods, err := r.store.DropOldPeriods(context.Background(), keep)
		done <- dropResult{periods, err}
	}()
	return done
}

// deliverAll delivers every message due.
func (r *retentionRace) deliverAll(t *testing.T) {
	t.Helper()
	deliver := func(context.Context, leaderboard.Message) error { return nil }
	for {
		more, err := r.store.DeliverNext(context.Background(), deliver, func(int) time.Duration { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			return
		}
	}
}

// messages lists the outbox, "closed:delivered corrected:pending" and so
// on, in the order recorded.
func (r *retentionRace) messages(t *testing.T) string {
	t.Helper()
	const q = `SELECT coalesce(string_agg(split_part(type, '.', 2) || ':' ||
		CASE WHEN delivered_at IS NULL THEN 'pending' ELSE 'delivered' END, ' ' ORDER BY created_at), '') FROM outbox`
	return mustQuery(t, q)[0][0]
}

// mustCloseMain closes main's month m through the period close.
func mustCloseMain(t *testing.T, store *db.DB, m leaderboard.Month) {
	t.Helper()
	if _, err := store.ClosePeriod(context.Background(), leaderboard.MainBoard, m.String()); err != nil {
		t.Fatalf("close %s: %v", m, err)
	}
}
