package db_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// erasurePlace is an open period an erasure test runs in: main's November
// or today's period of a DAY board, with the statements that find the
// erased player's rows in it.
type erasurePlace struct {
	name string
	// board is the events' board ("" for main), created by open.
	board string
	// event makes an event of the period, the nth of the hour.
	event func(id, player string, mode leaderboard.ScoreMode, value int) leaderboard.ScoreEvent
	// lockEvent locks an event by its id ($1), lockScore the player's
	// ($1) row of scores, both FOR UPDATE.
	lockEvent, lockScore string
	// scan is how the erasure's scan of the events begins, as
	// pg_stat_activity shows it.
	scan string
}

var erasurePlaces = []erasurePlace{
	{
		name: "main",
		event: func(id, player string, mode leaderboard.ScoreMode, value int) leaderboard.ScoreEvent {
			return event(id, player, mode, value, at(60))
		},
		lockEvent: `SELECT FROM board_score_events WHERE board_id = 'main' AND event_id = $1 FOR UPDATE`,
		lockScore: `SELECT FROM board_scores s JOIN periods p ON p.id = s.period_id
			WHERE p.board_id = 'main' AND p.key = '2026-11' AND s.player_id = $1 FOR UPDATE OF s`,
		scan: `UPDATE board_score_events SET player_id%`,
	},
	{
		name:  "board",
		board: "daily",
		event: func(id, player string, mode leaderboard.ScoreMode, value int) leaderboard.ScoreEvent {
			return boardEvent("daily", id, player, mode, value, utc(11, 20, 9))
		},
		lockEvent: `SELECT FROM board_score_events WHERE board_id = 'daily' AND event_id = $1 FOR UPDATE`,
		lockScore: `SELECT FROM board_scores s JOIN periods p ON p.id = s.period_id
			WHERE p.board_id = 'daily' AND p.key = '2026-11-20' AND s.player_id = $1 FOR UPDATE OF s`,
		scan: `UPDATE board_score_events SET player_id%`,
	},
}

// open returns a store, with the place's board; its submissions wait for
// a lock at most the default lock timeout (3 s).
func (p erasurePlace) open(t *testing.T) *db.DB {
	t.Helper()
	store := mustOpenDB(t, db.WithErasureKey(erasureKey))
	if p.board != "" {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: p.board, Name: "Daily", Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(10, 1, 0)})
	}
	return store
}

// openPlayed returns a store opened as open's, where the erased player's
// first event ("e1", of mode, 10, with their name) and bob's (20) are in.
func (p erasurePlace) openPlayed(t *testing.T, mode leaderboard.ScoreMode) *db.DB {
	t.Helper()
	store := p.open(t)
	mustSubmit(t, store, named(p.event("e1", erasedID, mode, 10), erasedName), p.event("b1", "bob", leaderboard.ModeSet, 20))
	return store
}

// waitForLockWaits waits until n sessions of the test database wait for a
// lock, of those whose statement is like like.
func waitForLockWaits(t *testing.T, n int, like string) {
	t.Helper()
	const q = `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got, err := strconv.Atoi(mustQuery(t, q, like)[0][0]); err != nil || got >= n {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d sessions wait for a lock (%q) after 30 s", n, like)
		}
	}
}

// erasing runs the erasure of the erased player in the background.
func erasing(ctx context.Context, store *db.DB) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := store.ErasePlayer(ctx, erasedID, "GDPR request 1234")
		done <- err
	}()
	return done
}

// submitting submits events in the background.
func submitting(store *db.DB, events ...leaderboard.ScoreEvent) <-chan []leaderboard.ScoreResult {
	done := make(chan []leaderboard.ScoreResult, 1)
	go func() {
		results, err := store.SubmitScores(context.Background(), events)
		if err != nil {
			results = []leaderboard.ScoreResult{{Status: "call failed: " + leaderboard.ScoreStatus(err.Error())}}
		}
		done <- results
	}()
	return done
}

// statusesOf returns each result's status, with its error's code when
// rejected, and its score.
func statusesOf(results []leaderboard.ScoreResult) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = string(r.Status)
		if r.Err != nil {
			out[i] += " " + r.Err.Code
		}
		if r.Score != nil {
			out[i] += fmt.Sprintf(" %d", *r.Score)
		}
	}
	return out
}

// The erasure's scan of a period's events holds no lock that submissions
// to the period wait on: held at a row of the player's events (as a scan of
// millions would take its time), it lets another player's event in the
// same period, with the same score as the erased player's, apply within
// the submissions' lock timeout, a retry of the player's event
// answer DUPLICATE and a new one of theirs be refused; then it finishes,
// and nothing of the player is left among the period's many events.
func TestErasePlayer_SubmissionsToThePeriodGoOnWhileItsEventsAreScrubbed(t *testing.T) {
	for _, place := range erasurePlaces {
		t.Run(place.name, func(t *testing.T) {
			store := place.open(t)
			others := make([]leaderboard.ScoreEvent, 5_000)
			for i := range others {
				others[i] = place.event(fmt.Sprintf("o%d", i), fmt.Sprintf("p%d", i), leaderboard.ModeSet, i%1000)
			}
			// Calls of 250 events: a shared machine's load keeps them within
			// the requests' statement timeout.
			for chunk := range slices.Chunk(others, 250) {
				mustSubmit(t, store, chunk...)
			}
			mustSubmit(t, store, named(place.event("e1", erasedID, leaderboard.ModeSet, 300), erasedName),
				place.event("e2", erasedID, leaderboard.ModeSet, 500))

			release := holdInTx(t, place.lockEvent, "e2")
			erased := erasing(context.Background(), store)
			waitForLockWaits(t, 1, place.scan)

			// bob's 500 moves the counters of the erased player's 500.
			results, err := store.SubmitScores(context.Background(), []leaderboard.ScoreEvent{
				place.event("b1", "bob", leaderboard.ModeSet, 500),
				place.event("e1", erasedID, leaderboard.ModeSet, 300),
				place.event("e3", erasedID, leaderboard.ModeSet, 700)})
			if err != nil {
				t.Fatalf("a submission while the events are scanned: %v", err)
			}
			if got, want := statusesOf(results), []string{"APPLIED 500", "DUPLICATE 300", "REJECTED FORBIDDEN"}; !slices.Equal(got, want) {
				t.Errorf("answers while the events are scanned: %q, want %q", got, want)
			}
			release()
			if err := within(t, erased); err != nil {
				t.Fatal(err)
			}
			if found := rowsHolding(t, erasedID, erasedName); len(found) != 0 {
				t.Errorf("after the erasure: %v", found)
			}
			retry := mustSubmit(t, store, place.event("e2", erasedID, leaderboard.ModeSet, 500))
			if got := statusesOf(retry); !slices.Equal(got, []string{"DUPLICATE"}) {
				t.Errorf("a retry after the erasure: %q", got)
			}
			if got := mustQuery(t, `SELECT count(*) FROM board_score_events`); got[0][0] != "5003" {
				t.Errorf("%s events stored, want 5,003: the others', bob's and the erased two", got[0][0])
			}
		})
	}
}

// A submission of the erased player in flight when the erasure starts
// commits first, and is erased with the rest; one that comes after the
// erasure fenced the period is refused; nothing of the player is left; a
// retry of either answers as the erasure left it, and the refused event,
// sent again once the erasure is done, is a new start.
func TestErasePlayer_TheirSubmissionsRacingTheErasureLeaveNothing(t *testing.T) {
	for _, place := range erasurePlaces {
		t.Run(place.name, func(t *testing.T) {
			store := place.openPlayed(t, leaderboard.ModeAdd)

			// The player's row, held, keeps their next submission in flight,
			// with the period's write lock shared.
			release := holdInTx(t, place.lockScore, erasedID)
			inFlight := submitting(store, place.event("e2", erasedID, leaderboard.ModeAdd, 5))
			waitForLockWaits(t, 1, "%")
			erased := erasing(context.Background(), store)
			waitForLockWaits(t, 2, "%")
			after := submitting(store, place.event("e3", erasedID, leaderboard.ModeAdd, 7))
			waitForLockWaits(t, 3, "%")
			release()

			if got := statusesOf(within(t, inFlight)); !slices.Equal(got, []string{"APPLIED 15"}) {
				t.Errorf("the submission in flight: %q", got)
			}
			if got := statusesOf(within(t, after)); !slices.Equal(got, []string{"REJECTED FORBIDDEN"}) {
				t.Errorf("the submission after the fence: %q", got)
			}
			if err := within(t, erased); err != nil {
				t.Fatal(err)
			}
			if found := rowsHolding(t, erasedID, erasedName); len(found) != 0 {
				t.Errorf("after the erasure: %v", found)
			}
			retries := mustSubmit(t, store, place.event("e1", erasedID, leaderboard.ModeAdd, 10),
				place.event("e2", erasedID, leaderboard.ModeAdd, 5), place.event("e3", erasedID, leaderboard.ModeAdd, 7))
			if got := statusesOf(retries); !slices.Equal(got, []string{"DUPLICATE", "DUPLICATE", "APPLIED 7"}) {
				t.Errorf("after the erasure: %q", got)
			}
		})
	}
}

// An erasure cut short after it fenced a period (here during its scan of
// the events) leaves the fence and the player's events; the player's new
// events are refused meanwhile, and the next run finishes it, counting the
// period once.
func TestResumeErasures_FinishesOneCutShortAfterItsFence(t *testing.T) {
	for _, place := range erasurePlaces {
		t.Run(place.name, func(t *testing.T) {
			store := place.openPlayed(t, leaderboard.ModeSet)

			release := holdInTx(t, place.lockEvent, "e1")
			ctx, cancel := context.WithCancel(context.Background())
			erased := erasing(ctx, store)
			waitForLockWaits(t, 1, place.scan)
			cancel()
			if err := within(t, erased); !errors.Is(err, context.Canceled) && leaderboard.ErrorCode(err) != leaderboard.EUNAVAILABLE &&
				leaderboard.ErrorCode(err) != leaderboard.EINTERNAL {
				t.Fatalf("the erasure cut short: %v", err)
			}
			release()
			if got := mustQuery(t, `SELECT count(*) FROM board_removed_players`); got[0][0] != "1" {
				t.Errorf("%s removal markers after the run cut short, want its fence", got[0][0])
			}
			got := statusesOf(mustSubmit(t, store, place.event("e1", erasedID, leaderboard.ModeSet, 10),
				place.event("e2", erasedID, leaderboard.ModeSet, 30)))
			if !slices.Equal(got, []string{"DUPLICATE 10", "REJECTED FORBIDDEN"}) {
				t.Errorf("the player's events while the erasure is cut short: %q", got)
			}

			// The cut-short run's connection may still hold the player's
			// lock until its backend notices the cancel: a later look
			// finishes the erasure, as the scheduler's does.
			var n int
			var err error
			for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
				if n, err = store.ResumeErasures(context.Background()); err != nil || n != 0 {
					break
				}
			}
			if err != nil || n != 1 {
				t.Fatalf("resumed %d, %v", n, err)
			}
			if got := mustQuery(t, `SELECT status, periods, corrected_periods FROM erasures`); fmt.Sprint(got) != "[[DONE 1 0]]" {
				t.Errorf("audit %v", got)
			}
			if found := rowsHolding(t, erasedID, erasedName); len(found) != 0 {
				t.Errorf("after the resumed erasure: %v", found)
			}
			if got := statusesOf(mustSubmit(t, store, place.event("e2", erasedID, leaderboard.ModeSet, 30))); !slices.Equal(got, []string{"APPLIED 30"}) {
				t.Errorf("a new start after the erasure: %q", got)
			}
		})
	}
}
