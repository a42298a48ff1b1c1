package db_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// mustSeed seeds month m and fails the test on an error.
func mustSeed(tb testing.TB, store *db.DB, m leaderboard.Month, players int, seed uint64) db.SeedStats {
	tb.Helper()
	stats, err := store.SeedPeriod(context.Background(), leaderboard.MainBoard, m.String(), players, db.SeedOptions{RandomSeed: seed})
	if err != nil {
		tb.Fatalf("seed %s: %v", m, err)
	}
	return stats
}

// readTable returns month m's whole table, read page by page from the top.
func readTable(tb testing.TB, store *db.DB, m leaderboard.Month) []leaderboard.RankEntry {
	tb.Helper()
	var table []leaderboard.RankEntry
	for after := ""; ; {
		page, err := mainLeaderboard(context.Background(), store, m, leaderboard.MaxPageSize, after)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range page.Edges {
			table = append(table, e.Entry)
			after = e.Cursor
		}
		if !page.HasNextPage {
			return table
		}
	}
}

func TestSeed_FillsMonthWithTiedLongTailedScores(t *testing.T) {
	const players = 20_000
	ctx := context.Background()
	store := mustOpenDB(t)
	var progress []int
	stats, err := store.SeedPeriod(ctx, leaderboard.MainBoard, november.String(), players, db.SeedOptions{
		RandomSeed: 1,
		Progress:   func(done int) { progress = append(progress, done) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if stats != (db.SeedStats{Players: players, NewPlayers: players}) {
		t.Errorf("stats %+v", stats)
	}
	if len(progress) == 0 || progress[len(progress)-1] != players || !slices.IsSorted(progress) {
		t.Errorf("progress calls %v", progress)
	}
	info, err := store.Month(ctx, november)
	if err != nil || info == nil || info.Status != leaderboard.MonthOpen || info.Participants != players {
		t.Fatalf("month after seed: %+v, %v", info, err)
	}

	table := readTable(t, store, november)
	if len(table) != players {
		t.Fatalf("table has %d entries, want %d", len(table), players)
	}
	start := november.Start(time.UTC)
	seen := map[string]bool{}
	var threshold, ties int
	for i, e := range table {
		if e.Rank != i+1 {
			t.Fatalf("entry %d has rank %d", i, e.Rank)
		}
		if e.Score < leaderboard.MinScore || e.Score > leaderboard.MaxScore {
			t.Fatalf("%s has score %d", e.Player.ID, e.Score)
		}
		if e.ReachedAt.Before(start) || e.ReachedAt.After(testNow) || !e.ReachedAt.Equal(e.ReachedAt.Truncate(time.Minute)) {
			t.Fatalf("%s reached its score at %s", e.Player.ID, e.ReachedAt)
		}
		if !strings.HasPrefix(e.Player.ID, "player-") || len(e.Player.ID) != len(db.SeedPlayerID(1)) || seen[e.Player.ID] {
			t.Fatalf("player id %q (seen before: %t)", e.Player.ID, seen[e.Player.ID])
		}
		seen[e.Player.ID] = true
		if e.Score == db.SeedParticipationScore {
			threshold++
		}
		if i > 0 {
			prev := table[i-1]
			if prev.Score < e.Score || prev.Score == e.Score && prev.ReachedAt.After(e.ReachedAt) {
				t.Fatalf("rank %d (%d at %s) is above rank %d (%d at %s)",
					prev.Rank, prev.Score, prev.ReachedAt, e.Rank, e.Score, e.ReachedAt)
			}
			if prev.Score == e.Score && prev.ReachedAt.Equal(e.ReachedAt) {
				ties++
			}
		}
	}
	if share := float64(threshold) / players; share < 0.027 || share > 0.038 {
		t.Errorf("%.2f%% of players on the participation score, want about 3%%", 100*share)
	}
	if median := table[players/2].Score; median < 250 || median > 330 {
		t.Errorf("median score %d, want about 290", median)
	}
	if top := table[players/100].Score; top < 2000 || top > 4500 {
		t.Errorf("the top 1%% start at %d, want about 3,000", top)
	}
	if ties == 0 {
		t.Error("no exact ties of score and time")
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		i := rng.IntN(players)
		s, err := mainStanding(ctx, store, november, table[i].Player.ID, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		wantAround := append(slices.Clone(table[max(0, i-3):i]), table[i+1:min(players, i+4)]...)
		if s == nil || !sameEntries([]leaderboard.RankEntry{s.RankEntry}, table[i:i+1]) || s.Total != players || !sameEntries(s.Neighbours(3, 3), wantAround) {
			t.Fatalf("standing of %s: got %+v, want %+v with %s", table[i].Player.ID, s, table[i], entries(wantAround))
		}
	}
	for _, e := range []leaderboard.RankEntry{table[0], table[players-1]} {
		if e.Player.Name == nil || *e.Player.Name == "" {
			t.Errorf("player %s has no name", e.Player.ID)
		}
	}
}

// Seeded rows are ordinary rows once the seed commits: events move seeded
// players, and since seeded rows took their sequence numbers from score_seq,
// a new player who ties a seeded group exactly ranks after all of it.
func TestSeed_LaterEventsRankAmongSeededRows(t *testing.T) {
	const players = 20_000
	store := mustOpenDB(t)
	mustSeed(t, store, november, players, 3)
	table := readTable(t, store, november)
	tied := func(i int) bool {
		return i+1 < len(table) && table[i].Score == table[i+1].Score && table[i].ReachedAt.Equal(table[i+1].ReachedAt)
	}
	first := slices.IndexFunc(table, func(e leaderboard.RankEntry) bool { return tied(e.Rank - 1) })
	if first < 0 {
		t.Fatal("no exact ties of score and time")
	}
	end := first
	for tied(end) {
		end++
	}
	last := table[end]
	reachedAt := last.ReachedAt
	mustSubmit(t, store, event("late", "late", leaderboard.ModeSet, last.Score, &reachedAt))
	if s := mustStanding(t, store, "late"); s.Rank != last.Rank+1 || s.Total != players+1 {
		t.Errorf("late tie of %s (rank %d) ranks %d of %d", last.Player.ID, last.Rank, s.Rank, s.Total)
	}

	// The bottom player jumps to the cap, after every seeded player there.
	bottom := table[players-1].Player.ID
	capped := 0
	for _, e := range table {
		if e.Score == leaderboard.MaxScore {
			capped++
		}
	}
	results := mustSubmit(t, store, event("jump", bottom, leaderboard.ModeSet, leaderboard.MaxScore, &testNow))
	assertOutcomes(t, results, applied(leaderboard.MaxScore))
	if s := mustStanding(t, store, bottom); s.Rank != capped+1 || s.Score != leaderboard.MaxScore {
		t.Errorf("%s after jumping to the cap behind %d players: rank %d, score %d", bottom, capped, s.Rank, s.Score)
	}
}

func TestSeed_RefusesMonthsWithScoresOrBadInput(t *testing.T) {
	ctx := context.Background()
	october := mustMonth("2026-10")
	// October still takes events, so that a real score can land in it.
	store := mustOpenDB(t, db.WithCloseGrace(30*24*time.Hour))
	refused := func(t *testing.T, m leaderboard.Month, players int, want string) {
		t.Helper()
		_, err := store.SeedPeriod(ctx, leaderboard.MainBoard, m.String(), players, db.SeedOptions{})
		if leaderboard.ErrorCode(err) != leaderboard.EBADINPUT || !strings.Contains(leaderboard.ErrorMessage(err), want) {
			t.Fatalf("seed %s with %d players: %v, want BAD_USER_INPUT saying %q", m, players, err, want)
		}
	}
	t.Run("ErrPlayers", func(t *testing.T) {
		refused(t, november, 0, "players must be")
		refused(t, november, db.MaxSeedPlayers+1, "players must be")
		if info, err := store.Month(ctx, november); err != nil || info != nil {
			t.Errorf("a refused seed opened the month: %+v, %v", info, err)
		}
	})
	t.Run("ErrNotStarted", func(t *testing.T) {
		refused(t, mustMonth("2026-12"), 10, "has not started")
	})
	t.Run("ErrAlreadySeeded", func(t *testing.T) {
		mustSeed(t, store, november, 100, 1)
		refused(t, november, 100, "already has scores")
		if info, err := store.Month(ctx, november); err != nil || info.Participants != 100 {
			t.Errorf("month after a refused second seed: %+v, %v", info, err)
		}
	})
	t.Run("ErrRealScores", func(t *testing.T) {
		occurred := october.Start(time.UTC).Add(time.Hour)
		mustSubmit(t, store, event("oct", "real", leaderboard.ModeSet, 10, &occurred))
		refused(t, october, 100, "already has scores")
	})
	t.Run("ErrClosed", func(t *testing.T) {
		mustCloseMain(t, store, october)
		refused(t, october, 100, "is CLOSED")
	})
}

func TestSeed_SameRandomSeedGivesSameData(t *testing.T) {
	ctx := context.Background()
	january, march := mustMonth("2025-01"), mustMonth("2025-03")
	first := mustOpenDB(t)
	mustSeed(t, first, january, 3_000, 7)
	want := readTable(t, first, january)
	wantNames := names(want)
	first.Close()

	store := mustOpenDB(t)
	mustSeed(t, store, january, 3_000, 7)
	got := readTable(t, store, january)
	if !sameEntries(got, want) {
		t.Fatalf("same seed, different tables:\n got  %s\n want %s", entries(got[:10]), entries(want[:10]))
	}
	if gotNames := names(got); !slices.Equal(gotNames, wantNames) {
		t.Errorf("same seed, different names: %v, want %v", gotNames[:5], wantNames[:5])
	}

	// Another month of the same length with another seed: different data,
	// the players seeded before kept with their names, 1,000 new ones.
	stats := mustSeed(t, store, march, 4_000, 8)
	if stats != (db.SeedStats{Players: 4_000, NewPlayers: 1_000}) {
		t.Errorf("stats of the second seed: %+v", stats)
	}
	other := readTable(t, store, march)
	shift := march.Start(time.UTC).Sub(january.Start(time.UTC))
	same := 0
	for i := range want {
		if other[i].Player.ID == want[i].Player.ID && other[i].Score == want[i].Score &&
			other[i].ReachedAt.Equal(want[i].ReachedAt.Add(shift)) {
			same++
		}
	}
	if same > len(want)/100 {
		t.Errorf("another seed gave %d of %d entries alike", same, len(want))
	}
	if again := names(readTable(t, store, january)); !slices.Equal(again, wantNames) {
		t.Errorf("seeding another month renamed players: %v, want %v", again[:5], wantNames[:5])
	}
	if info, err := store.Month(ctx, january); err != nil || info.Participants != 3_000 {
		t.Errorf("january after seeding march: %+v, %v", info, err)
	}
}

// names returns the display names of the table's players, in table order.
func names(table []leaderboard.RankEntry) []string {
	out := make([]string, len(table))
	for i, e := range table {
		if e.Player.Name != nil {
			out[i] = *e.Player.Name
		}
	}
	return out
}

func TestSeedScore_MatchesDocumentedDistribution(t *testing.T) {
	const draws = 1_000_000
	rng := rand.New(rand.NewPCG(11, 12))
	var threshold, under100, over1550, over3900, capped int
	for range draws {
		switch s := db.SeedScore(rng); {
		case s < leaderboard.MinScore || s > leaderboard.MaxScore:
			t.Fatalf("score %d out of range", s)
		case s == db.SeedParticipationScore:
			threshold++
		case s < 100:
			under100++
		case s == leaderboard.MaxScore:
			capped++
			fallthrough
		case s > 3900:
			over3900++
			fallthrough
		case s > 1550:
			over1550++
		}
	}
	for _, c := range []struct {
		name      string
		count     int
		low, high float64
	}{
		{"on the participation score", threshold, 0.031, 0.033},
		{"under 100", under100, 0.128, 0.136},
		{"over 1,550", over1550, 0.047, 0.051},
		{"over 3,900", over3900, 0.0045, 0.0055},
		{"on the cap", capped, 0.0001, 0.0004},
	} {
		if share := float64(c.count) / draws; share < c.low || share > c.high {
			t.Errorf("%.3f%% %s, want %.3f%%..%.3f%%", 100*share, c.name, 100*c.low, 100*c.high)
		}
	}
}

func TestSeedReachedAt_WholeMinutesBeforeUntil(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	from := november.Start(time.UTC)
	for _, until := range []time.Time{from.Add(90 * time.Second), from.Add(time.Hour + 30*time.Second), testNow} {
		for range 1000 {
			at := db.SeedReachedAt(rng, from, until)
			if at.Before(from) || !at.Before(until) || !at.Equal(at.Truncate(time.Minute)) {
				t.Fatalf("reached at %s, want a whole minute in [%s, %s)", at, from, until)
			}
		}
	}
	if at := db.SeedReachedAt(rng, from, from.Add(time.Second)); !at.Equal(from) {
		t.Errorf("under a minute after from: %s, want %s", at, from)
	}
}
