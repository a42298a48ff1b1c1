package db_test

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/closedperiods"
	"github.com/gamebackend/leaderboard/db"
)

// A period's close hands it to the closed periods in memory of its
// instance only once it committed: a close killed at any of its phases, up
// to its commit, leaves nothing in memory, and the close after it leaves
// the period there, answering as the database does.
func TestClosePeriod_HandsItsPeriodToMemoryOnceCommitted(t *testing.T) {
	for _, kind := range oracleKinds {
		phases, ok := closeKillPhases[kind.name]
		if !ok || kind.spec == nil {
			continue
		}
		t.Run(kind.name, func(t *testing.T) {
			phases = phases[:slices.Index(phases, "commit")+1]
			forEachKill(t, phases, func(t *testing.T, kill *phaseKill) {
				k := openKilledClose(t, kind.name, kind.spec, kind.own, kill.observe)
				// The cache reads nothing of a source: what it holds, the
				// close handed it.
				cache := closedperiods.New(nil, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
				defer cache.Close()
				handTo(k.store, cache)
				if err := k.closeOnce(kill.context(t)); err == nil || !kill.killed {
					t.Fatalf("the close killed at %s: %v (killed: %v)", kill.at, err, kill.killed)
				}
				if cache.PeriodLoaded(k.board.ID, k.key) || cache.PeriodStaged(k.board.ID, k.key) || cache.Stats().Periods != 0 {
					t.Fatalf("a close killed at %s left the period in memory: %+v", kill.at, cache.Stats())
				}
				if err := k.closeOnce(context.Background()); err != nil {
					t.Fatalf("the close after: %v", err)
				}
				if !cache.PeriodLoaded(k.board.ID, k.key) {
					t.Fatal("the period is not in memory after its close")
				}
				assertMemoryAsDatabase(t, k.store, cache, k.board.ID, k.key)
			})
		})
	}
}

// handTo has store's closes hand the periods they close to cache, staged
// and then final, as app wires them.
func handTo(store *db.DB, cache *closedperiods.Cache) {
	store.HandClosedPeriods(db.PeriodHandoff{Fits: cache.PeriodFits,
		Closed: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
			cache.PeriodClosed(b, key, p, end)
		},
		Closing: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
			cache.PeriodClosing(b, key, p, end)
		},
		Abandoned: func(b *leaderboard.Board, key string) { cache.PeriodAbandoned(b.ID, key) }})
}

// While a period's close has yet to commit, the instance that closes it
// answers its standings from the table the close built, as the database
// answers them then: not final, without a tier.
func TestClosePeriod_StagesItsPeriodWhileItCommits(t *testing.T) {
	for _, kind := range oracleKinds {
		if _, ok := closeKillPhases[kind.name]; !ok || kind.spec == nil {
			continue
		}
		t.Run(kind.name, func(t *testing.T) {
			var (
				k       *killedClose
				cache   = closedperiods.New(nil, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
				checked bool
			)
			defer cache.Close()
			k = openKilledClose(t, kind.name, kind.spec, kind.own, func(_ context.Context, phase string) error {
				if phase != "commit" {
					return nil
				}
				for deadline := time.Now().Add(10 * time.Second); !cache.PeriodStaged(k.board.ID, k.key); time.Sleep(5 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Error("the period was not staged before its close committed")
						return nil
					}
				}
				assertStandingsAsDatabase(t, k.store, cache, k.board, k.key)
				checked = true
				return nil
			})
			handTo(k.store, cache)
			if err := k.closeOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !checked || cache.PeriodStaged(k.board.ID, k.key) || !cache.PeriodLoaded(k.board.ID, k.key) {
				t.Fatalf("after the close: checked %v, staged %v, loaded %v; want checked, loaded and no longer staged",
					checked, cache.PeriodStaged(k.board.ID, k.key), cache.PeriodLoaded(k.board.ID, k.key))
			}
			assertMemoryAsDatabase(t, k.store, cache, k.board.ID, k.key)
		})
	}
}

// From the moment a period's close sends its commit, which other sessions
// may see before the close hears of it, the instance that closes it
// answers as the database does: final, once the database shows the period
// CLOSED. The stage ends before the commit; the reads go to the database
// until the period is handed to memory (run against the stage, the
// standings were answered as not final here).
func TestClosePeriod_AnswersAsTheDatabaseOnceItsCommitIsSent(t *testing.T) {
	for _, kind := range oracleKinds {
		if _, ok := closeKillPhases[kind.name]; !ok || kind.spec == nil {
			continue
		}
		t.Run(kind.name, func(t *testing.T) {
			k := openKilledClose(t, kind.name, kind.spec, kind.own, func(context.Context, string) error { return nil })
			cache := closedperiods.New(cacheSource{k.store}, 10_000, slog.New(slog.NewTextHandler(io.Discard, nil)))
			defer cache.Close()
			var checked bool
			k.store.HandClosedPeriods(db.PeriodHandoff{Fits: cache.PeriodFits,
				Closing: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
					cache.PeriodClosing(b, key, p, end)
				},
				Abandoned: func(b *leaderboard.Board, key string) { cache.PeriodAbandoned(b.ID, key) },
				Closed: func(b *leaderboard.Board, key string, p *db.ClosedPeriod, end time.Time) {
					// Committed, and not yet handed to memory.
					if cache.PeriodStaged(b.ID, key) {
						t.Error("the period is still staged once its close committed")
					}
					assertStandingsAsDatabase(t, k.store, cache, b, key)
					checked = true
					cache.PeriodClosed(b, key, p, end)
				}})
			if err := k.closeOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !checked || !cache.PeriodLoaded(k.board.ID, k.key) {
				t.Fatalf("after the close: checked %v, loaded %v", checked, cache.PeriodLoaded(k.board.ID, k.key))
			}
			assertMemoryAsDatabase(t, k.store, cache, k.board.ID, k.key)
		})
	}
}

// assertStandingsAsDatabase checks every standing, ±2, and the group of
// every player, of period key of b in cache against the database's.
func assertStandingsAsDatabase(t *testing.T, store *db.DB, cache *closedperiods.Cache, b *leaderboard.Board, key string) {
	t.Helper()
	ctx := context.Background()
	var ids []string
	for after := ""; ; {
		page, err := store.PeriodLeaderboard(ctx, b, key, 50, after)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Edges {
			ids = append(ids, e.Entry.Player.ID)
		}
		if !page.HasNextPage {
			break
		}
		after = page.Edges[len(page.Edges)-1].Cursor
	}
	for _, id := range ids {
		want, err := store.PeriodStanding(ctx, b, key, id, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cache.PeriodStanding(ctx, b, key, id, 2, 2)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("standing of %s: %v\n got %+v\nwant %+v", id, err, got, want)
		}
	}
	want, err := store.PeriodGroup(ctx, b, key, ids)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cache.PeriodGroup(ctx, b, key, ids)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("group of every player: %v\n got %+v\nwant %+v", err, got, want)
	}
}

// assertMemoryAsDatabase checks every standing, ±2, and every page of 7 of
// period key of board in cache against the database's.
func assertMemoryAsDatabase(t *testing.T, store *db.DB, cache *closedperiods.Cache, board, key string) {
	t.Helper()
	ctx := context.Background()
	b, err := store.Board(ctx, board)
	if err != nil {
		t.Fatal(err)
	}
	after := ""
	for {
		want, err := store.PeriodLeaderboard(ctx, b, key, 7, after)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cache.PeriodLeaderboard(ctx, b, key, 7, after)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("page after %q: %v\n got %+v\nwant %+v", after, err, got, want)
		}
		for _, e := range want.Edges {
			want, err := store.PeriodStanding(ctx, b, key, e.Entry.Player.ID, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cache.PeriodStanding(ctx, b, key, e.Entry.Player.ID, 2, 2)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("standing of %s: %v\n got %+v\nwant %+v", e.Entry.Player.ID, err, got, want)
			}
		}
		if !want.HasNextPage {
			return
		}
		after = want.Edges[len(want.Edges)-1].Cursor
	}
}
