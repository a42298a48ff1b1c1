package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
)

// noSource is a closed months' source that must not be asked: every read
// of the month under test is to be answered from memory.
type noSource struct {
	closedperiods.Source
	t *testing.T
}

func (s noSource) Standing(context.Context, leaderboard.Month, string, int, int) (*leaderboard.Standing, error) {
	s.t.Error("a standing was read from the database")
	return nil, nil
}

// The close's own ranks answer the month from memory as soon as the Ranks
// hook has built them, not final while the close has not committed, and
// final from the moment Closed is called.
func TestCloseHooks_AnswerTheClosingMonthFromMemory(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	m := &Main{Config: Config{SnapshotPlayers: 10}, Logger: logger,
		ClosedMonths: closedperiods.New(noSource{t: t}, 10, logger),
		ranks:        &ranksWatcher{seen: map[leaderboard.Month]int{}, onChange: func(leaderboard.Month) {}}}
	defer m.ClosedMonths.Close()
	hooks := m.closeHooks(newCloseMetrics(prometheus.NewRegistry()))
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
		s, err := m.ClosedMonths.Standing(ctx, month, "p2", 1, 1)
		if err != nil || s == nil || s.Rank != 2 || s.Final != final || s.Player.Name == nil || *s.Player.Name != "Second" ||
			len(s.Above) != 1 || len(s.Below) != 1 {
			t.Fatalf("final %v: standing %+v, %v", final, s, err)
		}
		hooks.Closed(month, 1)
	}
}
