package closedperiods

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// noSource is a source that must not be asked: every read of the month
// under test is to be answered from memory.
type noSource struct {
	Source
	t *testing.T
}

func (s noSource) PeriodStanding(context.Context, *leaderboard.Board, string, string, int, int) (*leaderboard.Standing, error) {
	s.t.Error("a standing was read from the database")
	return nil, nil
}

// The close's own ranks answer the month from memory as soon as the Ranks
// hook has built them, not final while the close has not committed, and
// final from the moment Closed is called, which records the version.
func TestCloseHooks_AnswerTheClosingMonthFromMemory(t *testing.T) {
	cache := New(noSource{t: t}, 10, time.UTC, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer cache.Close()
	changes := 0
	watcher := NewWatcher(func(string, string, int) { changes++ })
	hooks := cache.CloseHooks(watcher)
	month, _ := leaderboard.ParseMonth("2026-10")
	at := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	ranks := func(entry func(leaderboard.RankEntry) error, name func(playerID, name string) error) error {
		for r := 1; r <= 3; r++ {
			if err := entry(leaderboard.RankEntry{Rank: r, Score: 100 - r, ReachedAt: at, Player: leaderboard.Player{ID: fmt.Sprint("p", r)}}); err != nil {
				return err
			}
		}
		return name("p2", "Second")
	}
	if err := hooks.Ranks(month, 3, ranks); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, final := range []bool{false, true} {
		s, err := mainStanding(ctx, cache, month, "p2", 1, 1)
		if err != nil || s == nil || s.Rank != 2 || s.Final != final || s.Player.Name == nil || *s.Player.Name != "Second" ||
			len(s.Above) != 1 || len(s.Below) != 1 {
			t.Fatalf("final %v: standing %+v, %v", final, s, err)
		}
		hooks.Closed(month, 1)
	}
	if watcher.Changed(leaderboard.MainBoard, month.String(), 1); changes != 0 {
		t.Errorf("the announcement of the version the close made loads the month again (%d changes)", changes)
	}
	if watcher.Changed(leaderboard.MainBoard, month.String(), 2); changes != 1 {
		t.Errorf("a new version is not read afresh (%d changes)", changes)
	}
}

// versions is a store's versions of closed periods, "<board> <key>" to
// version, as ClosedPeriodVersions answers them.
type versions map[string]int

func (v versions) ClosedPeriodVersions(_ context.Context, boards, keys []string, fn func(board, key string, version int)) error {
	for i := range boards {
		if version, ok := v[boards[i]+" "+keys[i]]; ok {
			fn(boards[i], keys[i], version)
		}
	}
	return nil
}

// The watcher reports each changed version once, of any board, whether it
// hears of it by announcement or finds it by a check of the periods it
// knows and those asked for; a period no longer CLOSED is reported with
// version 0 once, then no longer checked.
func TestWatcher_ReportsEachChangeOnce(t *testing.T) {
	var changed []string
	w := NewWatcher(func(board, key string, version int) {
		changed = append(changed, fmt.Sprint(board, " ", key, " ", version))
	})
	ctx := context.Background()
	w.Record("main", "2026-10", 1)
	store := versions{"main 2026-10": 1, "daily 2026-11-02": 3}
	check := func() {
		t.Helper()
		if err := w.Check(ctx, store, []string{"daily"}, []string{"2026-11-02"}); err != nil {
			t.Fatal(err)
		}
	}
	check() // the daily period held is reported once: the cache compares its version
	check()
	store["main 2026-10"] = 2
	check()
	w.Changed("main", "2026-10", 2)
	w.Changed("daily", "2026-11-02", 4)
	w.Changed("daily", "2026-11-02", 4)
	w.Changed("daily", "2026-11-02", 3) // a check that read before the correction
	delete(store, "main 2026-10")
	store["daily 2026-11-02"] = 4
	check()
	check()
	want := "[daily 2026-11-02 3 main 2026-10 2 daily 2026-11-02 4 main 2026-10 0]"
	if fmt.Sprint(changed) != want {
		t.Errorf("changes reported: %v, want %s", changed, want)
	}
}
