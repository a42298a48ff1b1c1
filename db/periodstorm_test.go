package db_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/lifecycle"
)

// TestPeriodCloser_StormOfDuePeriodsClosedOnceByTwoInstances is the
// midnight storm in small: 500 DAY boards of three players each, all due at
// once, closed by the period closers of two instances, each looking for
// due periods and closing them a few at a time. Every period must close
// exactly once, with the oracle's digest and one settlement message.
func TestPeriodCloser_StormOfDuePeriodsClosedOnceByTwoInstances(t *testing.T) {
	now := *utc(11, 19, 12)
	clock := db.WithClock(func() time.Time { return now })
	store := mustOpenDB(t, clock, db.WithSettlement(true))
	other, err := db.Open(context.Background(), pg.URL, clock, db.WithSettlement(true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	const boards = 500
	var events []leaderboard.ScoreEvent
	for i := range boards {
		id := fmt.Sprintf("storm%03d", i)
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(0), StartsAt: utc(11, 1, 0)})
		for j, player := range []string{"ann", "bob", "cid"} {
			events = append(events, boardEvent(id, "e-"+player, player, leaderboard.ModeSet, (i+j*7)%10*100+j, utc(11, 19, j)))
		}
		if len(events) >= 900 {
			mustSubmit(t, store, events...)
			events = nil
		}
	}
	mustSubmit(t, store, events...)
	now = *utc(11, 20, 0) // midnight: every period is due

	start := time.Now()
	var closers []*lifecycle.PeriodCloser
	for _, s := range []*db.DB{store, other} {
		c := lifecycle.NewPeriodCloser(s, slog.New(slog.DiscardHandler), lifecycle.PeriodCloserOptions{Concurrency: 4, Batch: 200})
		closers = append(closers, c)
		c.Kick(true)
	}
	for {
		open := mustQuery(t, `SELECT count(*) FROM periods WHERE status <> 'CLOSED'`)[0][0]
		if open == "0" {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%s periods still open after a minute", open)
		}
		for _, c := range closers {
			c.Kick(true) // the scheduler's ticks
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, c := range closers {
		c.Close()
	}
	t.Logf("%d periods closed by two instances in %s", boards, time.Since(start).Round(time.Millisecond))

	got := mustQuery(t, `SELECT p.board_id, p.digest, p.participants, count(o.id)
		FROM periods p LEFT JOIN outbox o ON o.board_id = p.board_id AND o.period_id = p.id
		GROUP BY p.board_id, p.digest, p.participants ORDER BY p.board_id`)
	if len(got) != boards {
		t.Fatalf("%d periods, want %d", len(got), boards)
	}
	for i, row := range got {
		players := []string{"ann", "bob", "cid"}
		scores := []int{i % 10 * 100, (i+7)%10*100 + 1, (i+14)%10*100 + 2}
		// The oracle: a plain sort, higher first (the scores never tie).
		for a := range scores {
			for b := a + 1; b < len(scores); b++ {
				if scores[b] > scores[a] {
					scores[a], scores[b] = scores[b], scores[a]
					players[a], players[b] = players[b], players[a]
				}
			}
		}
		want := []string{fmt.Sprintf("storm%03d", i), digestOf(players, scores), "3", "1"}
		if fmt.Sprint(row) != fmt.Sprint(want) {
			t.Fatalf("period %v, want %v (board, digest, participants, messages)", row, want)
		}
	}
	if ranks := mustQuery(t, `SELECT count(*) FROM board_final_ranks`)[0][0]; ranks != fmt.Sprint(3*boards) {
		t.Fatalf("%s final ranks, want %d", ranks, 3*boards)
	}
}
