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

func (s noSource) Standing(context.Context, leaderboard.Month, string, int, int) (*leaderboard.Standing, error) {
	s.t.Error("a standing was read from the database")
	return nil, nil
}

// The close's own ranks answer the month from memory as soon as the Ranks
// hook has built them, not final while the close has not committed, and
// final from the moment Closed is called, which records the version.
func TestCloseHooks_AnswerTheClosingMonthFromMemory(t *testing.T) {
	cache := New(noSource{t: t}, 10, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer cache.Close()
	changes := 0
	watcher := NewWatcher(func(leaderboard.Month) { changes++ })
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
		s, err := cache.Standing(ctx, month, "p2", 1, 1)
		if err != nil || s == nil || s.Rank != 2 || s.Final != final || s.Player.Name == nil || *s.Player.Name != "Second" ||
			len(s.Above) != 1 || len(s.Below) != 1 {
			t.Fatalf("final %v: standing %+v, %v", final, s, err)
		}
		hooks.Closed(month, 1)
	}
	if watcher.Changed(month, 1); changes != 0 {
		t.Errorf("the announcement of the version the close made loads the month again (%d changes)", changes)
	}
	if watcher.Changed(month, 2); changes != 1 {
		t.Errorf("a new version is not read afresh (%d changes)", changes)
	}
}

// The watcher's first check records the versions it is told without a
// change; later checks and announcements report each changed version once.
func TestWatcher_FirstCheckRecordsLaterOnesReportChanges(t *testing.T) {
	var changed []string
	w := NewWatcher(func(m leaderboard.Month) { changed = append(changed, m.String()) })
	oct, _ := leaderboard.ParseMonth("2026-10")
	sep, _ := leaderboard.ParseMonth("2026-09")
	w.Check(map[leaderboard.Month]int{oct: 1, sep: 3})
	w.Check(map[leaderboard.Month]int{oct: 1, sep: 3})
	w.Check(map[leaderboard.Month]int{oct: 2, sep: 3})
	w.Changed(oct, 2)
	w.Changed(sep, 4)
	if fmt.Sprint(changed) != "[2026-10 2026-09]" {
		t.Errorf("changes reported: %v, want [2026-10 2026-09]", changed)
	}
}
