package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The events of boards other than main are found by their period alone
// (migration 30): the purge of a dropped period and the erasure of a player
// must still reach every one of them. These tests count the events by a
// scan of the whole table (a key written `x || ''` or `x + 0` uses no
// index), so that an event the index leads past is counted.

// eventsWhere counts the events of board_score_events that cond holds for,
// by a scan of the whole table.
func eventsWhere(t *testing.T, cond string, args ...any) int {
	t.Helper()
	var n int
	fmt.Sscan(mustQuery(t, `SELECT count(*) FROM board_score_events WHERE `+cond, args...)[0][0], &n)
	return n
}

// submitInterleaved submits, in calls of one event per board and player,
// rounds events to each board of boards for each of players on day, so
// that their rows share the table's pages: a third keep the score
// (UNCHANGED), the rest add one.
func submitInterleaved(t *testing.T, store *db.DB, boards, players []string, day, rounds int) {
	t.Helper()
	for r := range rounds {
		var events []leaderboard.ScoreEvent
		for _, p := range players {
			for _, b := range boards {
				mode, value := leaderboard.ModeAdd, 1
				if r%3 == 2 {
					mode, value = leaderboard.ModeBest, 0
				}
				id := fmt.Sprintf("%s-%d-%s-%d", b, day, p, r)
				events = append(events, boardEvent(b, id, p, mode, value, utc(11, day, 9)))
			}
		}
		for _, r := range mustSubmit(t, store, events...) {
			if r.Status != leaderboard.StatusApplied && r.Status != leaderboard.StatusUnchanged {
				t.Fatalf("event %s: %s", r.EventID, r.Status)
			}
		}
	}
}

// A dropped period's events, of players with a score and of a player an
// admin removed (no score row left), written among another board's, are all
// purged in batches far smaller than the period; the other board's stay.
func TestDropOldPeriods_PurgeLeavesNoEventOfThePeriod(t *testing.T) {
	now := *utc(11, 19, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{RetentionBatch: 7}))
	ctx := context.Background()
	gone := rewardBoard("gone", leaderboard.OrderDesc)
	gone.RetainPeriods = new(0)
	mustCreateBoard(t, store, gone)
	mustCreateBoard(t, store, rewardBoard("kept", leaderboard.OrderDesc))
	players := []string{"p0", "p1", "p2", "p3", "p4", "p5"}
	submitInterleaved(t, store, []string{"gone", "kept"}, players, 19, 20)
	if _, err := store.CorrectScore(ctx, "gone", "2026-11-19", "p3", nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	id := mustQuery(t, `SELECT id FROM periods WHERE board_id = 'gone'`)[0][0]
	want := len(players) * 20
	if n := eventsWhere(t, `period_id + 0 = $1`, id); n != want {
		t.Fatalf("the period holds %d events before the drop, want %d", n, want)
	}
	if n := eventsWhere(t, `period_id + 0 = $1 AND player_id || '' = 'p3'`, id); n != 20 {
		t.Fatalf("the removed player has %d events, want 20", n)
	}
	now = *utc(11, 20, 1)
	if _, err := store.ClosePeriod(ctx, "gone", "2026-11-19"); err != nil {
		t.Fatal(err)
	}

	now = *utc(11, 21, 1)
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
	if err != nil || len(dropped) != 1 || dropped[0].Board != "gone" {
		t.Fatalf("dropped %+v, %v", dropped, err)
	}
	if n := eventsWhere(t, `period_id + 0 = $1`, id); n != 0 {
		t.Fatalf("%d events of the dropped period are left", n)
	}
	if n := eventsWhere(t, `board_id || '' = 'gone'`); n != 0 {
		t.Fatalf("%d events of the dropped board's period are left", n)
	}
	if n := eventsWhere(t, `board_id || '' = 'kept'`); n != want {
		t.Fatalf("the other board holds %d events, want %d", n, want)
	}
	if n := mustQuery(t, `SELECT count(*) FROM period_purges`); n[0][0] != "0" {
		t.Fatalf("%s purges still queued", n[0][0])
	}
}

// Every event of the erased player is scrubbed: in closed periods and the
// open one, UNCHANGED ones too, and in a period an admin removed them
// from; every other player's event is kept as it was.
func TestErasePlayer_ScrubsEveryEventOfThePlayer(t *testing.T) {
	now := *utc(11, 18, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithErasureKey(erasureKey))
	ctx := context.Background()
	mustCreateBoard(t, store, rewardBoard("daily", leaderboard.OrderDesc))
	mustCreateBoard(t, store, rewardBoard("other", leaderboard.OrderAsc))
	players := []string{"bob", erasedID, "cid"}
	for day := 18; day <= 20; day++ {
		now = *utc(11, day, 12)
		submitInterleaved(t, store, []string{"daily", "other"}, players, day, 12)
	}
	if _, err := store.CorrectScore(ctx, "daily", "2026-11-19", erasedID, nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	now = *utc(11, 20, 13)
	for _, b := range []string{"daily", "other"} {
		for _, key := range []string{"2026-11-18", "2026-11-19"} {
			if _, err := store.ClosePeriod(ctx, b, key); err != nil {
				t.Fatal(err)
			}
		}
	}
	const othersSum = `SELECT count(*), sum(value), sum(new_score) FROM board_score_events WHERE player_id || '' <> $1`
	others := mustQuery(t, othersSum, erasedID)
	theirs := eventsWhere(t, `player_id || '' = $1`, erasedID)
	if want := 2 * 3 * 12; theirs != want {
		t.Fatalf("the player has %d events before the erasure, want %d", theirs, want)
	}

	if _, err := store.ErasePlayer(ctx, erasedID, "GDPR request 1234"); err != nil {
		t.Fatal(err)
	}
	if n := eventsWhere(t, `player_id || '' = $1`, erasedID); n != 0 {
		t.Fatalf("%d events of the erased player are left", n)
	}
	erased := eventsWhere(t, `player_id || '' = '' AND value + 0 = 0 AND new_score + 0 = 0 AND old_score IS NULL`)
	if erased != theirs {
		t.Fatalf("%d events scrubbed, want the player's %d", erased, theirs)
	}
	if got := mustQuery(t, othersSum, ""); fmt.Sprint(got) != fmt.Sprint(others) {
		t.Fatalf("the other players' events: %v, were %v", got, others)
	}
}
