package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// A period closed with at least Limits.OwnPartitionPlayers players keeps
// its final ranks in a partition of its own (migration 27); the oracle
// suite and the close's kill test run such periods beside the others
// (oracleKinds' own). Here: what retention and a downgrade do with them.

// ownRelations lists the partitions of final ranks of their own of the
// periods of boards other than main (main's closed months have one each).
func ownRelations(t *testing.T) []string {
	t.Helper()
	var names []string
	const q = `SELECT c.relname FROM pg_class c
		WHERE c.relname LIKE 'board\_final\_ranks\_own\_%' AND c.relkind = 'r'
			AND NOT EXISTS (SELECT 1 FROM periods p WHERE p.board_id = 'main'
				AND c.relname ~ ('^board_final_ranks_own_' || p.id || '(_v[0-9]+)?$'))
		ORDER BY c.relname`
	for _, r := range mustQuery(t, q) {
		names = append(names, r[0])
	}
	return names
}

// finalRanksOf returns period key of board's final ranks, in rank order.
func finalRanksOf(t *testing.T, board, key string) [][]string {
	t.Helper()
	return mustQuery(t, `SELECT f.rank, f.player_id, f.score, f.subscore, f.reached_at, f.metadata
		FROM board_final_ranks f JOIN periods p ON p.id = f.period_id AND p.final_bucket = f.bucket
		WHERE p.board_id = $1 AND p.key = $2 ORDER BY f.rank`, board, key)
}

func TestOwnFinalRanks_OnlyLargePeriodsAndRetentionDropsThemWhole(t *testing.T) {
	var now time.Time
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: 100}))
	ctx := context.Background()
	id, rows := mustCloseSeededPeriod(t, store, &now, "big", 300)
	if got, want := ownRelations(t), []string{"board_final_ranks_own_" + id}; !slices.Equal(got, want) {
		t.Fatalf("partitions of their own %v, want %v", got, want)
	}
	if got := mustQuery(t, `SELECT final_bucket::text FROM periods WHERE id = $1`, id)[0][0]; got != "0001-01-01" {
		t.Fatalf("the big period's bucket %s", got)
	}
	if n := len(finalRanksOf(t, "big", "2026-11-20")); n != 299 {
		t.Fatalf("%d final ranks of the big period, want 299 (300 seeded, one removed)", n)
	}

	// A period under the bound joins its month's partition.
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "small", Name: "small", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	now = *utc(11, 20, 12)
	mustSubmit(t, store, boardEvent("small", "s1", "ann", leaderboard.ModeSet, 5, utc(11, 20, 9)),
		boardEvent("small", "s2", "bob", leaderboard.ModeSet, 7, utc(11, 20, 10)))
	now = *utc(11, 21, 1)
	if _, err := store.ClosePeriod(ctx, "small", "2026-11-20"); err != nil {
		t.Fatal(err)
	}
	if got := mustQuery(t, `SELECT final_bucket::text FROM periods WHERE board_id = 'small'`)[0][0]; got != "2026-11-01" {
		t.Fatalf("the small period's bucket %s", got)
	}
	smallRanks := finalRanksOf(t, "small", "2026-11-20")

	now = *utc(11, 22, 1)
	dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10})
	if err != nil || len(dropped) != 1 || dropped[0].Board != "big" {
		t.Fatalf("dropped %+v, %v", dropped, err)
	}
	if n := periodRows(t, id); n != 0 {
		t.Fatalf("%d of the dropped period's %d rows are left", n, rows)
	}
	if got := ownRelations(t); len(got) != 0 {
		t.Fatalf("partitions of their own left: %v", got)
	}
	if n := mustQuery(t, `SELECT count(*) FROM period_purges`)[0][0]; n != "0" {
		t.Fatalf("%s purges still queued", n)
	}
	if got := finalRanksOf(t, "small", "2026-11-20"); !slices.EqualFunc(got, smallRanks, slices.Equal) {
		t.Fatalf("the small period's final ranks %v, had %v", got, smallRanks)
	}
}

func TestOwnFinalRanks_MigrationDownMovesThemToTheirMonth(t *testing.T) {
	now := *utc(11, 20, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: 2}))
	ctx := context.Background()
	for _, board := range []string{"day", "none"} {
		reset := leaderboard.ResetDay
		if board == "none" {
			reset = leaderboard.ResetNone
		}
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: board, Name: board, Reset: reset,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
		mustSubmit(t, store, boardEvent(board, "a", "ann", leaderboard.ModeSet, 5, utc(11, 20, 9)),
			boardEvent(board, "b", "bob", leaderboard.ModeSet, 7, utc(11, 20, 10)),
			boardEvent(board, "c", "cid", leaderboard.ModeSet, 5, utc(11, 20, 11)))
	}
	now = *utc(12, 1, 1) // the NONE board's period closes in December
	keys := map[string]string{"day": "2026-11-20", "none": "all"}
	before := map[string][][]string{}
	for board, key := range keys {
		if _, err := store.ClosePeriod(ctx, board, key); err != nil {
			t.Fatal(err)
		}
		before[board] = finalRanksOf(t, board, key)
		if len(before[board]) != 3 {
			t.Fatalf("%s's final ranks %v", board, before[board])
		}
	}
	if n := len(ownRelations(t)); n != 2 {
		t.Fatalf("%d partitions of their own, want 2", n)
	}
	store.Close()

	const beforeOwnPartitions = 26
	migrateDownTo(t, beforeOwnPartitions)
	for board, bucket := range map[string]string{"day": "2026-11-01", "none": "2026-12-01"} {
		if got := mustQuery(t, `SELECT final_bucket::text FROM periods WHERE board_id = $1`, board)[0][0]; got != bucket {
			t.Fatalf("%s's bucket after the downgrade %s, want %s", board, got, bucket)
		}
		if got := finalRanksOf(t, board, keys[board]); !slices.EqualFunc(got, before[board], slices.Equal) {
			t.Fatalf("%s's final ranks after the downgrade %v, want %v", board, got, before[board])
		}
	}
	if got := mustQuery(t, `SELECT count(*) FROM pg_class WHERE relname LIKE 'board\_final\_ranks\_own%'`)[0][0]; got != "0" {
		t.Fatalf("%s relations of final ranks of their own after the downgrade", got)
	}
	migrateUp(t)
	for board, key := range keys {
		if got := finalRanksOf(t, board, key); !slices.EqualFunc(got, before[board], slices.Equal) {
			t.Fatalf("%s's final ranks after the upgrade %v, want %v", board, got, before[board])
		}
	}
}

// inEveryFinalRanksPlace runs test twice: with its periods' final ranks in
// their month's partition, then, with the options own, in partitions of
// their own (ownPartitions), which have no player index (migration 29), so
// that every answer of the test holds in both places.
func inEveryFinalRanksPlace(t *testing.T, test func(t *testing.T, own []db.Option)) {
	for _, own := range []bool{false, true} {
		t.Run(fmt.Sprintf("final ranks of their own %t", own), func(t *testing.T) {
			test(t, ownPartitions(own))
			if got := len(ownRelations(t)) > 0; got != own {
				t.Fatalf("partitions of their own: %t, want %t", got, own)
			}
		})
	}
}

// TestOwnFinalRanksFunction holds own_final_ranks' rank equal to the live
// rank the code reads (periodRankSQL): a change to the counters' SQL must
// come with a migration that writes the function again.
func TestOwnFinalRanksFunction(t *testing.T) {
	mustOpenDB(t)
	src := mustQuery(t, `SELECT prosrc FROM pg_proc WHERE proname = 'own_final_ranks'`)
	if len(src) != 1 {
		t.Fatalf("%d functions own_final_ranks, want 1", len(src))
	}
	body := strings.Join(strings.Fields(src[0][0]), " ")
	for _, part := range db.OwnFinalRanksParts {
		if part = strings.Join(strings.Fields(part), " "); !strings.Contains(body, part) {
			t.Errorf("own_final_ranks does not read %s", part)
		}
	}
}

// playerIndexes returns, by table, the indexes on (player_id, period_id)
// of board_final_ranks and its partitions at every level, "-" for none,
// with a trailing "+" for an index attached to a parent's.
func playerIndexes(t *testing.T) map[string]string {
	t.Helper()
	got := map[string]string{}
	const q = `SELECT c.relname, COALESCE((SELECT string_agg(CASE WHEN i.relispartition THEN '+' ELSE '' END, ',')
			FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
			WHERE x.indrelid = c.oid AND pg_get_indexdef(x.indexrelid) LIKE '%(player_id, period_id)'), '-')
		FROM pg_class c WHERE c.relname LIKE 'board\_final\_ranks%' AND c.relkind IN ('r', 'p')`
	for _, r := range mustQuery(t, q) {
		got[r[0]] = r[1]
	}
	return got
}

func TestOwnFinalRanks_NoPlayerIndexAndMigrationDownBringsItBack(t *testing.T) {
	now := *utc(11, 20, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: 3}))
	ctx := context.Background()
	for _, board := range []string{"large", "small"} {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: board, Name: board, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
		mustSubmit(t, store, boardEvent(board, board+"a", "ann", leaderboard.ModeSet, 5, utc(11, 20, 9)),
			boardEvent(board, board+"b", "bob", leaderboard.ModeSet, 7, utc(11, 20, 10)))
	}
	mustSubmit(t, store, boardEvent("large", "largec", "cid", leaderboard.ModeSet, 6, utc(11, 20, 11)))
	now = *utc(11, 21, 1)
	for _, board := range []string{"large", "small"} {
		if _, err := store.ClosePeriod(ctx, board, "2026-11-20"); err != nil {
			t.Fatal(err)
		}
	}
	own := ownRelations(t)
	if len(own) != 1 {
		t.Fatalf("partitions of their own %v, want the large period's", own)
	}
	want := map[string]string{"board_final_ranks": "-", "board_final_ranks_own": "-", own[0]: "-", "board_final_ranks_2026_11": ""}
	if got := playerIndexes(t); !maps.Equal(got, want) {
		t.Fatalf("player indexes %v, want %v", got, want)
	}
	claim, err := store.ClaimReward(ctx, "large", "2026-11-20", "cid", "g1")
	if err != nil || claim.Status != leaderboard.ClaimClaimed || claim.Standing.Rank != 2 {
		t.Fatalf("claim of the large period %+v, %v, want cid CLAIMED at rank 2", claim, err)
	}
	store.Close()

	const beforeNoPlayerIndex = 28
	migrateDownTo(t, beforeNoPlayerIndex)
	want = map[string]string{"board_final_ranks": "", "board_final_ranks_own": "+", own[0]: "+", "board_final_ranks_2026_11": "+"}
	if got := playerIndexes(t); !maps.Equal(got, want) {
		t.Fatalf("player indexes after the downgrade %v, want %v", got, want)
	}
	migrateUp(t)
	want = map[string]string{"board_final_ranks": "-", "board_final_ranks_own": "-", own[0]: "-", "board_final_ranks_2026_11": ""}
	if got := playerIndexes(t); !maps.Equal(got, want) {
		t.Fatalf("player indexes after the upgrade %v, want %v", got, want)
	}
	if got := finalRanksOf(t, "small", "2026-11-20"); len(got) != 2 {
		t.Fatalf("the small period's final ranks after the upgrade %v", got)
	}
}

// mainAnswers returns what month m of main answers once CLOSED, as JSON
// and CSV: a page, three standings, the export and the ranks a load reads.
func mainAnswers(t *testing.T, store *db.DB, m leaderboard.Month) string {
	t.Helper()
	ctx := context.Background()
	var out strings.Builder
	page, err := mainLeaderboard(ctx, store, m, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	answers := []any{page}
	for _, player := range []string{"a", "b", "c"} {
		s, err := mainStanding(ctx, store, m, player, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, s)
	}
	b, err := store.Board(ctx, leaderboard.MainBoard)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := store.LoadClosedPeriod(ctx, b, m.String(), func(int, time.Time) bool { return true })
	if err != nil || loaded == nil {
		t.Fatalf("load %s: %v, %v", m, loaded, err)
	}
	for _, player := range []string{"a", "b", "c"} {
		answers = append(answers, loaded.Standing(b, player, 1, 1))
	}
	if err := json.NewEncoder(&out).Encode(append(answers, loaded.Version())); err != nil {
		t.Fatal(err)
	}
	if err := store.ExportStandings(ctx, leaderboard.MainBoard, m.String(), leaderboard.MonthExport, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Migration 31 makes each closed month's partition of final_ranks the
// month's period's partition of its own of board_final_ranks, and its down
// migration makes it a partition of final_ranks again: the month answers
// the same, byte for byte, after either, a corrected month's version
// included; a board's period corrected in place before keeps its name for
// the code before.
func TestOwnFinalRanks_MainMonthsMoveWithMigration31(t *testing.T) {
	// Every closed month of main had final ranks of its own before
	// migration 32; a close now gives them to a month of 100,000 players
	// or more (OwnPartitionPlayers), as to any period.
	store := mustOpenDB(t, db.WithLimits(db.Limits{OwnPartitionPlayers: 1}))
	ctx := context.Background()
	mustSubmit(t, store, event("1", "a", leaderboard.ModeSet, 10, at(1)),
		event("2", "b", leaderboard.ModeSet, 20, at(2)), event("3", "c", leaderboard.ModeSet, 15, at(3)))
	mustClose(t, store, november)
	if _, err := store.CorrectScore(ctx, leaderboard.MainBoard, november.String(), "c", new(30), "typo"); err != nil {
		t.Fatal(err)
	}
	id := mustQuery(t, `SELECT id FROM periods WHERE board_id = 'main'`)[0][0]
	want := mainAnswers(t, store, november)
	if got := mustQuery(t, `SELECT relname FROM pg_class WHERE relname LIKE 'board\_final\_ranks\_own\_%' AND relkind = 'r'`); fmt.Sprint(got) != "[[board_final_ranks_own_"+id+"_v2]]" {
		t.Fatalf("main's tables of final ranks %v, want the month's second version", got)
	}
	store.Close()

	const beforeMainOwnPartitions = 30
	migrateDownTo(t, beforeMainOwnPartitions)
	if got := mustQuery(t, `SELECT rank, player_id, score FROM final_ranks_2026_11_v2 ORDER BY rank`); fmt.Sprint(got) != "[[1 c 30] [2 b 20] [3 a 10]]" {
		t.Fatalf("final_ranks_2026_11_v2 after the downgrade %v", got)
	}
	migrateUp(t)
	store, err := db.Open(ctx, pg.URL, db.WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if got := mainAnswers(t, store, november); got != want {
		t.Fatalf("after the upgrade:\n%s\nwant\n%s", got, want)
	}
	if got := mustQuery(t, `SELECT final_bucket::text FROM periods WHERE board_id = 'main'`)[0][0]; got != "0001-01-01" {
		t.Fatalf("the month's bucket %s", got)
	}
}

// A correction of a period whose final ranks have a partition of their own
// builds the next version beside the one in use and swaps them; retention
// drops whatever version is attached.
func TestOwnFinalRanks_CorrectionSwapsInTheNextVersion(t *testing.T) {
	var now time.Time
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithLimits(db.Limits{OwnPartitionPlayers: 100}))
	ctx := context.Background()
	id, _ := mustCloseSeededPeriod(t, store, &now, "big", 300)
	before := finalRanksOf(t, "big", "2026-11-20")
	for _, score := range []int{1, 2} {
		if _, err := store.CorrectScore(ctx, "big", "2026-11-20", db.SeedPlayerID(2), &score, "typo"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := ownRelations(t), []string{"board_final_ranks_own_" + id + "_v3"}; !slices.Equal(got, want) {
		t.Fatalf("partitions of their own %v, want %v", got, want)
	}
	if got := mustQuery(t, `SELECT ranks_version FROM periods WHERE id = $1`, id)[0][0]; got != "3" {
		t.Fatalf("ranks version %s, want 3", got)
	}
	after := finalRanksOf(t, "big", "2026-11-20")
	if len(after) != len(before) || slices.EqualFunc(after, before, slices.Equal) {
		t.Fatalf("final ranks after the corrections: %d rows, changed %t", len(after), !slices.EqualFunc(after, before, slices.Equal))
	}
	now = *utc(11, 22, 1)
	if dropped, err := store.DropOldPeriods(ctx, db.Retention{Limit: 10}); err != nil || len(dropped) != 1 {
		t.Fatalf("dropped %+v, %v", dropped, err)
	}
	if got := ownRelations(t); len(got) != 0 {
		t.Fatalf("partitions of their own after retention %v", got)
	}
}
