package db_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// A group close (TryClosePeriods) killed at any of its phases, by an error
// there or by its context ending there, leaves no trace in its periods, and
// a close after it ranks each once: an error makes the group fall back to
// each period's own close within the same call; an ended context leaves the
// periods for the next call, as the scheduler's next round.

// groupKillPhases are the phases a group close names, in order.
var groupKillPhases = []string{"group read", "group partition", "group lock", "group rank", "group cohorts",
	"group mark", "group commit", "group closed"}

// groupKillKinds are the boards whose periods close in one group.
var groupKillKinds = []string{"week.desc", "day.asc.subscore-asc", "day.desc.subscore-desc"}

func TestTryClosePeriods_KilledAtEachPhaseResumesAndRanksOnce(t *testing.T) {
	t.Run("a whole group close names its phases", func(t *testing.T) {
		var seen []string
		group := openKilledGroup(t, func(_ context.Context, name string) error {
			seen = append(seen, name)
			return nil
		})
		group.closeAll(t, context.Background())
		if !slices.Equal(seen, groupKillPhases) {
			t.Fatalf("phases %v, want %v", seen, groupKillPhases)
		}
		group.checkRankedOnce(t)
	})
	forEachKill(t, groupKillPhases, func(t *testing.T, kill *phaseKill) {
		ctx := kill.context(t)
		group := openKilledGroup(t, kill.observe)
		closed, err := group.store.TryClosePeriods(ctx, group.due())
		switch {
		case !kill.killed:
			t.Fatalf("the group close never reached %s (%v)", kill.at, err)
		case kill.cancel && kill.at != "group closed":
			// The fallback stops at the ended context: nothing closed.
			if err == nil {
				t.Fatalf("a group close whose context ended at %s closed %d periods without an error", kill.at, len(closed))
			}
			group.checkUnclosed(t)
			group.closeAll(t, context.Background())
		case !kill.cancel:
			// The fallback closed each period on its own, in this call,
			// but after the group's commit, when it finds them CLOSED.
			if err != nil {
				t.Fatalf("the periods' own closes after a group killed at %s: %v", kill.at, err)
			}
			if ranOwn := slices.Contains(kill.after, "commit"); ranOwn != (kill.at != "group closed") {
				t.Fatalf("after the group was killed at %s, phases %v", kill.at, kill.after)
			}
		}
		group.checkRankedOnce(t)
		// The scheduler's next round finds nothing left to close.
		if again, err := group.store.TryClosePeriods(context.Background(), group.due()); err != nil || len(again) != 0 {
			t.Fatalf("a second group close: %d closed, %v", len(again), err)
		}
		group.checkRankedOnce(t)
	})
}

// killedGroup is a period of each of groupKillKinds in one store, each
// with its plain sort's table.
type killedGroup struct {
	store   *db.DB
	periods []*killedClose
}

// openKilledGroup opens a store whose closes tell observe of their phases,
// with a period of each of groupKillKinds, as openKilledClose makes one.
func openKilledGroup(t *testing.T, observe func(context.Context, string) error) *killedGroup {
	t.Helper()
	store := mustOpenDB(t, db.WithSettlement(true), db.WithClosePhase(observe))
	g := &killedGroup{store: store}
	for _, kind := range oracleKinds {
		if slices.Contains(groupKillKinds, kind.name) {
			g.periods = append(g.periods, addKilledPeriod(t, store, kind.name, kind.spec))
		}
	}
	if len(g.periods) != len(groupKillKinds) {
		t.Fatalf("%d periods of %v", len(g.periods), groupKillKinds)
	}
	return g
}

// due names the group's periods as the scheduler hands them to
// TryClosePeriods.
func (g *killedGroup) due() []leaderboard.Period {
	due := make([]leaderboard.Period, len(g.periods))
	for i, p := range g.periods {
		due[i] = leaderboard.Period{Board: p.board.ID, Key: p.key}
	}
	return due
}

// closeAll closes the group's periods, all of them.
func (g *killedGroup) closeAll(t *testing.T, ctx context.Context) {
	t.Helper()
	closed, err := g.store.TryClosePeriods(ctx, g.due())
	if err != nil {
		t.Fatal(err)
	}
	if len(closed) != len(g.periods) {
		t.Fatalf("closed %d periods, want %d", len(closed), len(g.periods))
	}
}

func (g *killedGroup) checkUnclosed(t *testing.T) {
	t.Helper()
	for _, p := range g.periods {
		p.checkUnclosed(t)
	}
}

func (g *killedGroup) checkRankedOnce(t *testing.T) {
	t.Helper()
	for _, p := range g.periods {
		p.checkRankedOnce(t)
	}
}
