package db_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// closeMonth closes month m of main on store, as closeMonth does.
func closeMonth(store *db.DB, m leaderboard.Month) (*leaderboard.MonthInfo, error) {
	p, err := store.ClosePeriod(context.Background(), leaderboard.MainBoard, m.String())
	if err != nil {
		return nil, err
	}
	return p.MonthInfo()
}

func mustClose(t *testing.T, store *db.DB, m leaderboard.Month) *leaderboard.MonthInfo {
	t.Helper()
	info, err := closeMonth(store, m)
	if err != nil {
		t.Fatalf("close %s: %v", m, err)
	}
	return info
}

func TestCloseMonth_FreezesStandings(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store,
		event("1", "a", leaderboard.ModeSet, 10, at(1)),
		event("2", "b", leaderboard.ModeSet, 30, at(2)),
		event("3", "c", leaderboard.ModeSet, 20, at(3)),
	)
	info := mustClose(t, store, november)
	if info.Status != leaderboard.MonthClosed || info.Participants != 3 || info.ClosedAt == nil || !info.ClosedAt.Equal(testNow) {
		t.Fatalf("closed month: %+v", info)
	}
	s := mustStanding(t, store, "c")
	if !s.Final || s.Rank != 2 || s.Total != 3 {
		t.Errorf("standing of c: %+v", s)
	}
	if got := fmt.Sprint(ranksOf(s.Neighbours(10, 10))); got != "[1:b 3:a]" {
		t.Errorf("neighbours of c: %s", got)
	}
}

func ranksOf(entries []leaderboard.RankEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%d:%s", e.Rank, e.Player.ID)
	}
	return out
}

func TestCloseMonth_IsIdempotent(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "a", leaderboard.ModeSet, 10, at(1)))
	first := mustClose(t, store, november)
	again := mustClose(t, store, november)
	if !reflect.DeepEqual(first, again) {
		t.Errorf("closing twice changed the month:\n %+v\n %+v", *first, *again)
	}
}

func TestCloseMonth_RejectsLateScores(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "a", leaderboard.ModeSet, 10, at(1)))
	mustClose(t, store, november)
	results := mustSubmit(t, store,
		event("2", "a", leaderboard.ModeAdd, 5, at(2)),
		event("3", "new", leaderboard.ModeAdd, 5, at(3)),
		event("1", "a", leaderboard.ModeSet, 10, at(1)),
	)
	assertOutcomes(t, results, rejected(leaderboard.EMONTHCLOSED), rejected(leaderboard.EMONTHCLOSED), duplicate(10))
	if s := mustStanding(t, store, "a"); s.Score != 10 {
		t.Errorf("score changed after close: %d", s.Score)
	}
}

func TestCloseMonth_UnknownMonthIsNotFound(t *testing.T) {
	store := mustOpenDB(t)
	_, err := closeMonth(store, november)
	if code := leaderboard.ErrorCode(err); code != leaderboard.ENOTFOUND {
		t.Fatalf("error %v has code %q, want NOT_FOUND", err, code)
	}
}

// Scores keep arriving while the month closes: every event acknowledged as
// APPLIED is in the final ranks, and every event refused is not.
func TestCloseMonth_KeepsEveryAcknowledgedEvent(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("seed", "seed", leaderboard.ModeSet, 1, at(0)))

	var (
		wg       sync.WaitGroup
		ackedMu  sync.Mutex
		acked    = map[string]bool{}
		refused  atomic.Int64
		closed   = make(chan struct{})
		sendErrs = make(chan error, 4)
	)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				player := fmt.Sprintf("w%d-%d", w, i)
				results, err := store.SubmitScores(context.Background(),
					[]leaderboard.ScoreEvent{event(player, player, leaderboard.ModeSet, i%50, at(1))})
				if err != nil {
					sendErrs <- err
					return
				}
				switch results[0].Status {
				case leaderboard.StatusApplied:
					ackedMu.Lock()
					acked[player] = true
					ackedMu.Unlock()
				case leaderboard.StatusRejected:
					refused.Add(1)
					select {
					case <-closed:
						return
					default:
					}
				}
			}
		})
	}
	info := mustClose(t, store, november)
	close(closed)
	wg.Wait()
	close(sendErrs)
	for err := range sendErrs {
		t.Fatal(err)
	}
	if info.Participants != len(acked)+1 {
		t.Errorf("%d participants, but %d events were acknowledged (+1 seed)", info.Participants, len(acked))
	}
	for player := range acked {
		if s, err := mainStanding(context.Background(), store, november, player, 0, 0); err != nil || s == nil || !s.Final {
			t.Fatalf("acknowledged player %s missing from the final ranks: %+v, %v", player, s, err)
		}
	}
	if refused.Load() == 0 {
		t.Error("no submission was refused after the close")
	}
}

func TestMigrate_DownAndUpAgain(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "a", leaderboard.ModeSet, 10, at(1)))
	mustClose(t, store, november)
	store.Close()
	latest, _, err := db.SchemaVersion(pg.URL)
	if err != nil || latest < 2 {
		t.Fatalf("schema version %d, %v", latest, err)
	}
	// Down one and up again keep the data; down all drops it.
	for _, step := range []struct {
		dir    db.MigrateDirection
		want   uint
		events int
	}{{db.MigrateDownOne, latest - 1, 1}, {db.MigrateUp, latest, 1}, {db.MigrateDownAll, 0, -1}, {db.MigrateUp, latest, 0}} {
		version, dirty, err := db.Migrate(pg.URL, step.dir)
		if err != nil || dirty || version != step.want {
			t.Fatalf("migrate %v: version %d dirty %t err %v, want version %d", step.dir, version, dirty, err, step.want)
		}
		if step.events < 0 {
			continue // no tables
		}
		// main's events are in board_score_events from migration 32 on,
		// in its month partitions before.
		q := `SELECT count(*) FROM board_score_events WHERE board_id = 'main'`
		if step.want < 32 {
			q = `SELECT count(*) FROM score_events`
		}
		var events int
		if err := mustConn(t).QueryRow(context.Background(), q).Scan(&events); err != nil || events != step.events {
			t.Fatalf("after migrate %v: %d events, %v; want %d", step.dir, events, err, step.events)
		}
	}
}
