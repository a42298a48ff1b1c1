package closedperiods

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// groupCountingSource counts the groups asked of its source.
type groupCountingSource struct {
	Source
	groups atomic.Int64
}

func (s *groupCountingSource) PeriodGroup(ctx context.Context, b *leaderboard.Board, key string, playerIDs []string) ([]leaderboard.Standing, error) {
	s.groups.Add(1)
	return s.Source.PeriodGroup(ctx, b, key, playerIDs)
}

// randomGroups returns groups of the ids prefix0 .. prefix(n-1) and of ids
// no one has: one id, all of them, and random subsets, shuffled.
func randomGroups(rng *rand.Rand, prefix string, n int) [][]string {
	all := make([]string, n)
	for i := range all {
		all[i] = fmt.Sprint(prefix, i)
	}
	groups := [][]string{{all[0]}, {"nobody"}, all}
	for range 20 {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		groups = append(groups, append([]string{"nobody"}, all[:1+rng.IntN(n-1)]...))
	}
	return groups
}

// A closed month of main's groups answered from memory equal the database's, and
// take no read of the source; before the month is loaded, the source
// answers and the load starts.
func TestCache_MonthGroupsFromMemoryMatchDatabase(t *testing.T) {
	store, m, _ := closedMonth(t)
	mainBoard := mainOf(t, store)
	ctx := context.Background()
	source := &groupCountingSource{Source: dbPeriods{store}}
	c := New(source, 1000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	first, err := c.PeriodGroup(ctx, mainBoard, m.String(), []string{"p1", "p2", "p3"})
	if err != nil || len(first) == 0 || !first[0].Final || source.groups.Load() != 1 {
		t.Fatalf("before the load: %+v, %v, %d groups from the source; want final standings from the source", first, err, source.groups.Load())
	}
	for deadline := time.Now().Add(10 * time.Second); !mainLoaded(c, m); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the month's first group did not load it")
		}
	}
	for _, ids := range randomGroups(rand.New(rand.NewPCG(38, 1)), "p", 130) {
		want, err := store.PeriodGroup(ctx, mainBoard, m.String(), ids)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.PeriodGroup(ctx, mainBoard, m.String(), ids)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(normalizeGroup(got)) != fmt.Sprint(normalizeGroup(want)) {
			t.Fatalf("group of %d:\n got  %v\n want %v", len(ids), normalizeGroup(got), normalizeGroup(want))
		}
	}
	if n := source.groups.Load(); n != 1 {
		t.Errorf("the source answered %d groups, want only the one before the load", n)
	}
}

// normalizeGroup prints standings as normalize does, in order.
func normalizeGroup(group []leaderboard.Standing) []any {
	out := make([]any, len(group))
	for i := range group {
		out[i] = normalize(&group[i])
	}
	return out
}

// A closed period's groups answered from memory equal the database's, to
// the last field, in both orders and every tie-break, without the source.
func TestCache_PeriodGroupsFromMemoryMatchDatabase(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	store := pg.OpenDB(t, db.WithClock(func() time.Time { return now }))
	key := now.In(mustZone(t, "Europe/Berlin")).Format(time.DateOnly)
	source := &groupCountingSource{Source: dbPeriods{store}}
	c := New(source, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer c.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(38, 2))
	for _, b := range closedBoards(t, store, now, nil) {
		if _, err := c.PeriodGroup(ctx, b, key, []string{"p1", "p2"}); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); !c.PeriodLoaded(b.ID, key); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("period %s of %s: its first group did not load it", key, b.ID)
			}
		}
		before := source.groups.Load()
		for _, ids := range randomGroups(rng, "p", 45) {
			want, err := store.PeriodGroup(ctx, b, key, ids)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.PeriodGroup(ctx, b, key, ids)
			if err != nil {
				t.Fatal(err)
			}
			if (len(want) > 0 && !want[0].Final) || (len(got)+len(want) > 0 && !reflect.DeepEqual(got, want)) {
				t.Fatalf("%s %s group of %d:\n got  %+v\n want %+v", b.ID, key, len(ids), got, want)
			}
		}
		if n := source.groups.Load() - before; n != 0 {
			t.Errorf("%s: the source answered %d groups of a loaded period", b.ID, n)
		}
	}
}
