package db_test

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
)

// dyingCloses is an instance that dies once it has accepted a close: its
// closes never commit, and end only when the instance stops.
type dyingCloses struct{ *db.DB }

func (dyingCloses) ClosePeriod(ctx context.Context, _, _ string) (*leaderboard.Period, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// submitted is one single-event call of the writers racing a close.
type submitted struct {
	start  time.Time
	player string
	score  int
	result leaderboard.ScoreResult
}

// waitForPeriod polls store until period key of board satisfies done, for
// up to within, and returns it.
func waitForPeriod(t *testing.T, store *db.DB, board, key string, within time.Duration,
	done func(*leaderboard.Period) bool) *leaderboard.Period {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		p, err := store.Period(context.Background(), board, key)
		if err != nil {
			t.Fatal(err)
		}
		if done(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("period %s of %s after %s: %+v", key, board, within, p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestClosePeriod_AcceptedCloseOfAKilledInstanceIsFinishedByAnother is the
// early close cut off by a kill: instance A accepts closePeriod of a period
// not yet due while writers of both instances submit, and dies before its
// close commits. From the answer on, the period reads CLOSING and every
// event is REJECTED on both instances; instance B, with auto close off,
// closes it at its first look, with the digest of a plain sort of the
// events taken.
func TestClosePeriod_AcceptedCloseOfAKilledInstanceIsFinishedByAnother(t *testing.T) {
	for _, c := range []struct {
		reset leaderboard.Reset
		key   string
	}{{leaderboard.ResetNone, "all"}, {leaderboard.ResetDay, "2026-11-19"}} {
		t.Run(string(c.reset), func(t *testing.T) {
			clock := db.WithClock(func() time.Time { return *utc(11, 19, 12) })
			storeA := mustOpenDB(t, clock, db.WithSettlement(true))
			storeB, err := db.Open(context.Background(), pg.URL, clock, db.WithSettlement(true))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(storeB.Close)
			mustCreateBoard(t, storeA, leaderboard.BoardSpec{ID: "b", Name: "B", Reset: c.reset,
				TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
			logger := slog.New(slog.DiscardHandler)
			instanceA := lifecycle.NewPeriodCloser(dyingCloses{storeA}, logger, lifecycle.PeriodCloserOptions{MaxWait: 2 * time.Second})

			var (
				next  atomic.Int64
				stop  = make(chan struct{})
				mu    sync.Mutex
				calls []submitted
				wg    sync.WaitGroup
			)
			for w := range 4 {
				store := []*db.DB{storeA, storeB}[w%2]
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						n := int(next.Add(1))
						s := submitted{start: time.Now(), player: fmt.Sprintf("p%05d", n), score: n}
						results, err := store.SubmitScores(context.Background(),
							[]leaderboard.ScoreEvent{boardEvent("b", "e"+s.player, s.player, leaderboard.ModeSet, n, nil)})
						if err != nil {
							t.Errorf("submit: %v", err)
							return
						}
						s.result = results[0]
						mu.Lock()
						calls = append(calls, s)
						mu.Unlock()
					}
				})
			}
			for next.Load() < 100 {
				time.Sleep(time.Millisecond)
			}
			p, err := instanceA.ClosePeriod(context.Background(), "b", c.key)
			accepted := time.Now()
			if err != nil || p.Status != leaderboard.PeriodClosing {
				t.Fatalf("closePeriod answered %+v, %v; want the period CLOSING", p, err)
			}
			time.Sleep(100 * time.Millisecond) // the writers go on after the answer
			close(stop)
			wg.Wait()
			instanceA.Close() // the kill: A's close never commits

			var (
				taken []submitted
				late  int
			)
			for _, s := range calls {
				switch {
				case s.start.After(accepted) && (s.result.Status != leaderboard.StatusRejected ||
					s.result.Err == nil || s.result.Err.Code != leaderboard.EMONTHCLOSED):
					t.Fatalf("an event sent after the close was accepted was %s (%v)", s.result.Status, s.result.Err)
				case s.start.After(accepted):
					late++
				case s.result.Status == leaderboard.StatusApplied:
					taken = append(taken, s)
				}
			}
			if late == 0 || len(taken) < 100 {
				t.Fatalf("%d events taken before the accept, %d sent after it: the race was not run", len(taken), late)
			}
			for _, store := range []*db.DB{storeA, storeB} {
				if p, err := store.Period(context.Background(), "b", c.key); err != nil || p.Status != leaderboard.PeriodClosing {
					t.Fatalf("after the kill the period reads %+v, %v; want CLOSING on every instance", p, err)
				}
			}

			instanceB := lifecycle.NewPeriodCloser(storeB, logger, lifecycle.PeriodCloserOptions{})
			defer instanceB.Close()
			instanceB.Kick(false) // the scheduler's tick, auto close off: the period is not due
			closed := waitForPeriod(t, storeB, "b", c.key, 10*time.Second,
				func(p *leaderboard.Period) bool { return p.Status == leaderboard.PeriodClosed })

			slices.SortFunc(taken, func(x, y submitted) int { return cmp.Compare(y.score, x.score) })
			players, scores := make([]string, len(taken)), make([]int, len(taken))
			for i, s := range taken {
				players[i], scores[i] = s.player, s.score
			}
			if want := digestOf(players, scores); closed.Digest != want || closed.Participants != len(taken) {
				t.Fatalf("closed with %d participants, digest %s; want the plain sort's %d, %s",
					closed.Participants, closed.Digest, len(taken), want)
			}
			if n := mustQuery(t, `SELECT count(*) FROM outbox WHERE period_id IS NOT NULL`); n[0][0] != "1" {
				t.Fatalf("%s settlement messages, want 1", n[0][0])
			}
		})
	}
}

// TestClosePeriod_CloseCutOffByALostSessionIsTriedAgainSoon: the accepted
// close's session is lost while it runs (here while it waits for the close
// lock, which the test holds); its job tries again within the retry's
// backoff, not at a scheduler's tick (there is none here), and closes the
// period once it can.
func TestClosePeriod_CloseCutOffByALostSessionIsTriedAgainSoon(t *testing.T) {
	store := mustOpenDB(t, db.WithClock(func() time.Time { return *utc(11, 19, 12) }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store, boardEvent("laps", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 19, 9)),
		boardEvent("laps", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 19, 10)))
	id := mustQuery(t, `SELECT id FROM periods WHERE board_id = 'laps' AND key = '2026-11-19'`)[0][0]
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const periodCloseLockClass = 0x6c627063
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, $2::integer)`, periodCloseLockClass, id); err != nil {
		t.Fatal(err)
	}
	closer := lifecycle.NewPeriodCloser(store, slog.New(slog.DiscardHandler), lifecycle.PeriodCloserOptions{
		MaxWait: 200 * time.Millisecond, Retry: 50 * time.Millisecond, RetryMax: 100 * time.Millisecond})
	defer closer.Close()
	if p, err := closer.ClosePeriod(ctx, "laps", "2026-11-19"); err != nil || p.Status != leaderboard.PeriodClosing {
		t.Fatalf("closePeriod answered %+v, %v; want CLOSING", p, err)
	}
	waiter := func(not int) int {
		t.Helper()
		const q = `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock' AND wait_event = 'advisory' AND pid <> $1`
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			var pid int
			err := conn.QueryRow(ctx, q, not).Scan(&pid)
			if err == nil {
				return pid
			}
			if time.Now().After(deadline) {
				t.Fatalf("no close waits for the close lock after 3 s: %v", err)
			}
		}
	}
	first := waiter(0)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend($1)`, first); err != nil {
		t.Fatal(err)
	}
	waiter(first) // tried again, within the backoff
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1, $2::integer)`, periodCloseLockClass, id); err != nil {
		t.Fatal(err)
	}
	p := waitForPeriod(t, store, "laps", "2026-11-19", 3*time.Second,
		func(p *leaderboard.Period) bool { return p.Status == leaderboard.PeriodClosed })
	if want := digestOf([]string{"ann", "bob"}, []int{30, 20}); p.Digest != want {
		t.Fatalf("digest %s, want %s", p.Digest, want)
	}
}

// StopPeriod alone: the period reads CLOSING, takes no event, and is listed
// for a close with auto close off; a CLOSED period stays as it is.
func TestStopPeriod_RecordsClosingAndRefusesEvents(t *testing.T) {
	store := mustOpenDB(t, db.WithClock(func() time.Time { return *utc(11, 19, 12) }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store, boardEvent("laps", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 19, 9)))

	// Every instance hears of the stop as it commits, once.
	listenCtx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	heard := make(chan string, 4)
	go store.ListenClosingPeriods(listenCtx, func(board, key string) { heard <- board + " " + key })
	// The LISTEN in place before the stop: its session's last statement.
	listening := mustConn(t)
	for waited := time.Duration(0); ; waited += 10 * time.Millisecond {
		var n int
		const q = `SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN leaderboard_closing_periods'`
		if err := listening.QueryRow(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if waited > 10*time.Second {
			t.Fatal("the listener did not LISTEN within 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p, err := store.StopPeriod(ctx, "laps", "2026-11-19")
	if err != nil || p.Status != leaderboard.PeriodClosing || p.Participants != 1 {
		t.Fatalf("stopped: %+v, %v; want CLOSING with its one participant", p, err)
	}
	select {
	case got := <-heard:
		if got != "laps 2026-11-19" {
			t.Fatalf("heard %q, want laps 2026-11-19", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stop was not announced")
	}
	if again, err := store.StopPeriod(ctx, "laps", "2026-11-19"); err != nil || again.Status != leaderboard.PeriodClosing {
		t.Fatalf("second stop: %+v, %v", again, err)
	}
	select {
	case got := <-heard:
		t.Fatalf("a period already CLOSING announced again: %q", got)
	case <-time.After(300 * time.Millisecond):
	}
	assertOutcomes(t, mustSubmit(t, store, boardEvent("laps", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 19, 10))),
		rejected(leaderboard.EMONTHCLOSED))
	due, err := store.PeriodsToClose(ctx, false, 10)
	if err != nil || len(due) != 1 || due[0].Key != "2026-11-19" || due[0].Status != leaderboard.PeriodClosing {
		t.Fatalf("to close with auto close off: %+v, %v; want the CLOSING period", due, err)
	}
	if _, err := store.ClearPeriod(ctx, "laps", "2026-11-19", "test phase"); leaderboard.ErrorCode(err) != leaderboard.ECONFLICT {
		t.Fatalf("clear of a CLOSING period: %v; want CONFLICT", err)
	}
	if _, err := store.ClosePeriod(ctx, "laps", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	if p, err := store.StopPeriod(ctx, "laps", "2026-11-19"); err != nil || p.Status != leaderboard.PeriodClosed {
		t.Fatalf("stop of a CLOSED period: %+v, %v; want it CLOSED", p, err)
	}
	if _, err := store.StopPeriod(ctx, leaderboard.MainBoard, "2026-11"); leaderboard.ErrorCode(err) != leaderboard.ENOTFOUND {
		t.Fatalf("stop of main's month without scores: %v; want NOT_FOUND", err)
	}
}
