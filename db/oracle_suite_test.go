package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The shared oracle suite: the same cases, checked against a plain sort in
// the board's order (the model of boardoracle_test.go), run against a period
// of every kind of board, main's month included, through a small adapter
// per API, in the way river runs one driver suite against every driver.

// oraclePeriod is one period of a board as the suite sees it: the adapter
// between the cases and the API that serves that kind of board.
type oraclePeriod interface {
	// board returns the period's board, as the model applies it.
	board() *leaderboard.Board
	// key returns the period's key.
	key() string
	// submit submits events and returns their results.
	submit(tb testing.TB, events []leaderboard.ScoreEvent) []leaderboard.ScoreResult
	// standing reads playerID's standing with up to above and below
	// neighbours.
	standing(ctx context.Context, playerID string, above, below int) (*leaderboard.Standing, error)
	// page reads up to first entries after the cursor.
	page(ctx context.Context, first int, after string) (*leaderboard.Page, error)
	// close closes the period and returns its digest.
	close(ctx context.Context) (string, error)
	// liveRanks reads the live ranks of the players in the period in one
	// call of the store's RankService.
	liveRanks(ctx context.Context, playerIDs []string) (map[leaderboard.PeriodPlayer]int, error)
	// group reads the standings of playerIDs in one call of the store's
	// GroupService.
	group(ctx context.Context, playerIDs []string) ([]leaderboard.Standing, error)
}

// periodLiveRanks reads the live ranks of playerIDs in period key of b
// through store's LiveRanks, in one call.
func periodLiveRanks(ctx context.Context, store *db.DB, b *leaderboard.Board, key string, playerIDs []string) (map[leaderboard.PeriodPlayer]int, error) {
	keys := make([]leaderboard.PeriodPlayer, len(playerIDs))
	for i, id := range playerIDs {
		keys[i] = leaderboard.PeriodPlayer{Board: b.ID, Period: key, PlayerID: id}
	}
	return store.LiveRanks(ctx, keys)
}

// mainMonth is main's month, read and closed through the month API.
type mainMonth struct {
	store *db.DB
	b     *leaderboard.Board
	month leaderboard.Month
}

func (m mainMonth) board() *leaderboard.Board { return m.b }
func (m mainMonth) key() string               { return m.month.String() }
func (m mainMonth) submit(tb testing.TB, events []leaderboard.ScoreEvent) []leaderboard.ScoreResult {
	return mustSubmit(tb, m.store, events...)
}
func (m mainMonth) standing(ctx context.Context, playerID string, above, below int) (*leaderboard.Standing, error) {
	s, err := mainStanding(ctx, m.store, m.month, playerID, above, below)
	if err != nil || s == nil {
		return s, err
	}
	// Main's standings name their board and period as every board's do,
	// and keep the month the contract answers.
	if s.Month != m.month || s.Board != leaderboard.MainBoard || s.Period != m.key() {
		return nil, fmt.Errorf("standing of %s: month %s board %q period %q; want month %s of main",
			playerID, s.Month, s.Board, s.Period, m.month)
	}
	return s, nil
}
func (m mainMonth) page(ctx context.Context, first int, after string) (*leaderboard.Page, error) {
	return mainLeaderboard(ctx, m.store, m.month, first, after)
}
func (m mainMonth) liveRanks(ctx context.Context, playerIDs []string) (map[leaderboard.PeriodPlayer]int, error) {
	return periodLiveRanks(ctx, m.store, m.b, m.key(), playerIDs)
}
func (m mainMonth) group(ctx context.Context, playerIDs []string) ([]leaderboard.Standing, error) {
	group, err := m.store.PeriodGroup(ctx, m.b, m.key(), playerIDs)
	for i := range group {
		// As in standing: main's standings name their month alone.
		if s := &group[i]; s.Month == m.month && s.Board == "" && s.Period == "" {
			s.Board, s.Period = leaderboard.MainBoard, m.key()
		}
	}
	return group, err
}
func (m mainMonth) close(ctx context.Context) (string, error) {
	p, err := m.store.ClosePeriod(ctx, leaderboard.MainBoard, m.key())
	if err != nil {
		return "", err
	}
	info, err := p.MonthInfo()
	if err != nil || info.Month != m.month || info.Status != leaderboard.MonthClosed {
		return "", fmt.Errorf("close of %s: month %+v, %v", m.month, info, err)
	}
	return info.Digest, nil
}

// boardPeriod is a period of a board other than main, read and closed
// through the board API.
type boardPeriod struct {
	store  *db.DB
	b      *leaderboard.Board
	period string
}

func (p boardPeriod) board() *leaderboard.Board { return p.b }
func (p boardPeriod) key() string               { return p.period }
func (p boardPeriod) submit(tb testing.TB, events []leaderboard.ScoreEvent) []leaderboard.ScoreResult {
	return mustSubmit(tb, p.store, events...)
}
func (p boardPeriod) standing(ctx context.Context, playerID string, above, below int) (*leaderboard.Standing, error) {
	s, err := p.store.PeriodStanding(ctx, p.b, p.period, playerID, above, below)
	if err != nil || s == nil {
		return s, err
	}
	// A caller that answers neither metadata nor subscores reads the
	// neighbours from the index alone: the same standing, less those.
	lean, err := p.store.PeriodStanding(leaderboard.WithoutNeighbourSubscores(leaderboard.WithoutMetadata(ctx)),
		p.b, p.period, playerID, above, below)
	if err != nil {
		return nil, err
	}
	if want := leanStanding(*s, p.b.TieBreak == leaderboard.TieBreakNone); !reflect.DeepEqual(lean, &want) {
		return nil, fmt.Errorf("standing of %s read without metadata and subscores: %+v, want %+v", playerID, lean, want)
	}
	return s, nil
}

// leanStanding returns s as a read that answers neither metadata nor
// neighbours' subscores gives it: without metadata, and without the
// neighbours' subscores on a board whose sort key does not hold them
// (noSubscores).
func leanStanding(s leaderboard.Standing, noSubscores bool) leaderboard.Standing {
	lean := func(entries []leaderboard.RankEntry) []leaderboard.RankEntry {
		out := make([]leaderboard.RankEntry, len(entries))
		for i, e := range entries {
			e.Metadata = nil
			if noSubscores {
				e.Subscore = nil
			}
			out[i] = e
		}
		return out
	}
	s.Metadata = nil
	s.Above, s.Below = lean(s.Above), lean(s.Below)
	return s
}
func (p boardPeriod) page(ctx context.Context, first int, after string) (*leaderboard.Page, error) {
	return p.store.PeriodLeaderboard(ctx, p.b, p.period, first, after)
}
func (p boardPeriod) liveRanks(ctx context.Context, playerIDs []string) (map[leaderboard.PeriodPlayer]int, error) {
	return periodLiveRanks(ctx, p.store, p.b, p.period, playerIDs)
}
func (p boardPeriod) group(ctx context.Context, playerIDs []string) ([]leaderboard.Standing, error) {
	return p.store.PeriodGroup(ctx, p.b, p.period, playerIDs)
}
func (p boardPeriod) close(ctx context.Context) (string, error) {
	closed, err := p.store.ClosePeriod(ctx, p.b.ID, p.period)
	if err != nil {
		return "", err
	}
	if closed == nil || closed.Status != leaderboard.PeriodClosed {
		return "", fmt.Errorf("close of %s %s: %+v", p.b.ID, p.period, closed)
	}
	return closed.Digest, nil
}

// oracleKinds are the boards the suite runs against: main and one of every
// reset, both orders, both subscore directions and the widest score range;
// two of them again with every closed period's final ranks in a partition
// of their own (Limits.OwnPartitionPlayers 1).
var oracleKinds = []struct {
	name string
	spec *leaderboard.BoardSpec // nil for main
	own  bool
}{
	{"main", nil, false},
	{"week.desc", &leaderboard.BoardSpec{Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderDesc),
		MinScore: new(-1000), MaxScore: new(1000), TieBreak: new(leaderboard.TieBreakNone)}, false},
	{"day.asc.subscore-asc", &leaderboard.BoardSpec{Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderAsc),
		MinScore: new(0), MaxScore: new(2_000_000_000), TieBreak: new(leaderboard.TieBreakSubscoreAsc)}, false},
	{"day.desc.subscore-desc", &leaderboard.BoardSpec{Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderDesc),
		MinScore: new(0), MaxScore: new(1_000_000), TieBreak: new(leaderboard.TieBreakSubscoreDesc)}, false},
	{"none.asc", &leaderboard.BoardSpec{Reset: leaderboard.ResetNone, Order: new(leaderboard.OrderAsc),
		MinScore: new(-50), MaxScore: new(50), TieBreak: new(leaderboard.TieBreakNone)}, false},
	{"month.asc.subscore-desc", &leaderboard.BoardSpec{Reset: leaderboard.ResetMonth, Order: new(leaderboard.OrderAsc),
		MinScore: new(1), MaxScore: new(100), TieBreak: new(leaderboard.TieBreakSubscoreDesc)}, false},
	{"season.desc.subscore-asc", &leaderboard.BoardSpec{Reset: leaderboard.ResetSeason, Order: new(leaderboard.OrderDesc),
		MinScore: new(0), MaxScore: new(10_000), TieBreak: new(leaderboard.TieBreakSubscoreAsc)}, false},
	{"week.desc.own", &leaderboard.BoardSpec{Reset: leaderboard.ResetWeek, Order: new(leaderboard.OrderDesc),
		MinScore: new(-1000), MaxScore: new(1000), TieBreak: new(leaderboard.TieBreakNone)}, true},
	{"day.asc.subscore-asc.own", &leaderboard.BoardSpec{Reset: leaderboard.ResetDay, Order: new(leaderboard.OrderAsc),
		MinScore: new(0), MaxScore: new(2_000_000_000), TieBreak: new(leaderboard.TieBreakSubscoreAsc)}, true},
}

// ownPartitions returns the options of a store whose closes put every
// period's final ranks in a partition of their own when own is set.
func ownPartitions(own bool) []db.Option {
	if !own {
		return nil
	}
	return []db.Option{db.WithLimits(db.Limits{OwnPartitionPlayers: 1})}
}

// oracleTieGroup is how many players share one score reached at one
// instant, ranked by arrival alone.
const oracleTieGroup = 2000

func TestOracle_EveryBoardKindMatchesAPlainSort(t *testing.T) {
	for i, kind := range oracleKinds {
		t.Run(kind.name, func(t *testing.T) {
			store := mustOpenDB(t, ownPartitions(kind.own)...)
			p, seasons := openOraclePeriod(t, store, kind.name, kind.spec)
			runOracleSuite(t, p, seasons, rand.New(rand.NewPCG(37, uint64(i))))
		})
	}
}

// openOraclePeriod creates the board of spec (main when nil) and returns its
// period of testNow, and the seasons it made on a SEASON board.
func openOraclePeriod(t *testing.T, store *db.DB, id string, spec *leaderboard.BoardSpec) (oraclePeriod, []leaderboard.Period) {
	t.Helper()
	ctx := context.Background()
	if spec == nil {
		b, err := store.Board(ctx, leaderboard.MainBoard)
		if err != nil || b == nil {
			t.Fatalf("the main board: %+v, %v", b, err)
		}
		return mainMonth{store: store, b: b, month: november}, nil
	}
	s := *spec
	s.ID, s.Name, s.TimeZone, s.CloseGrace, s.StartsAt = id, id, new("UTC"), new(600), utc(11, 1, 0)
	b := mustCreateBoard(t, store, s)
	if b.Reset == leaderboard.ResetSeason {
		season, err := store.CreateSeason(ctx, b.ID, "s1", *utc(11, 10, 0), *utc(12, 10, 0))
		if err != nil {
			t.Fatal(err)
		}
		return boardPeriod{store: store, b: b, period: season.Key}, []leaderboard.Period{*season}
	}
	key, _, err := b.PeriodOf(testNow)
	if err != nil {
		t.Fatal(err)
	}
	return boardPeriod{store: store, b: b, period: key}, nil
}

// runOracleSuite runs the suite's cases against period p (seasons are its
// board's, on a SEASON board), its events drawn from rng: the live table,
// then the close and the final one.
func runOracleSuite(t *testing.T, p oraclePeriod, seasons []leaderboard.Period, rng *rand.Rand) {
	ctx := context.Background()
	b := p.board()
	ob := &oracleBoard{board: b, seasons: seasons, events: map[string]boardOracleEvent{},
		rows: map[string]map[string]*boardOracleRow{}}
	model := &boardOracle{boards: map[string]*oracleBoard{b.ID: ob}}
	batches := oracleEvents(b, rng)
	for i, events := range batches {
		want := model.submit(events, testNow)
		results := p.submit(t, events)
		got := outcomes(results)
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("batch %d, event %d %+v: got %v, want %v (%v)", i, j, events[j], got[j], want[j], results[j].Err)
			}
		}
	}
	table := ob.table(p.key())
	if len(table) < oracleTieGroup {
		t.Fatalf("the model ranks %d players", len(table))
	}
	checkOracleBounds(t, b, table)
	for _, final := range []bool{false, true} {
		phase := "live"
		if final {
			phase = "final"
			digest, err := p.close(ctx)
			if err != nil {
				t.Fatalf("close: %v", err)
			}
			t.Run("digest", func(t *testing.T) {
				players, scores := make([]string, len(table)), make([]int, len(table))
				for i, e := range table {
					players[i], scores[i] = e.player, e.row.Score
				}
				if want := digestOf(players, scores); digest != want {
					t.Fatalf("digest %s, want %s (sha256 of the plain sort's rank,playerId,score lines)", digest, want)
				}
			})
		}
		t.Run(phase+" ranks and totals", func(t *testing.T) {
			for _, rank := range oracleSample(table) {
				checkOracleStanding(t, p, table, rank, 1, 1, final)
			}
			s, err := p.standing(ctx, "nobody", 5, 5)
			if err != nil || s != nil {
				t.Fatalf("a player without a score: %+v, %v; want no standing", s, err)
			}
		})
		t.Run(phase+" groups", func(t *testing.T) {
			checkOracleGroups(t, p, table, rng)
		})
		t.Run(phase+" live ranks of submits, batched", func(t *testing.T) {
			checkOracleLiveRanks(t, p, table)
		})
		t.Run(phase+" neighbours at the edges", func(t *testing.T) {
			n := len(table)
			edges := []int{1, 2, 3, 49, 50, 51, n - 50, n - 49, n - 2, n - 1, n}
			for _, rank := range edges {
				for _, c := range [][2]int{{0, 0}, {0, 50}, {50, 0}, {50, 50}, {1, 0}, {0, 1}, {10, 10}} {
					checkOracleStanding(t, p, table, rank, c[0], c[1], final)
				}
			}
			for _, rank := range oracleSample(table) {
				checkOracleStanding(t, p, table, rank, rng.IntN(51), rng.IntN(51), final)
			}
		})
		t.Run(phase+" pages", func(t *testing.T) {
			for _, size := range []int{100, 37} {
				checkOraclePages(t, p, table, size, len(table))
			}
			checkOraclePages(t, p, table, 1, 120)
		})
	}
}

// checkOracleLiveRanks reads the live rank of every player of the table,
// and of a player without a score, in one call, and checks them against
// the plain sort: a submit's ranks still read so once the period closed (a
// retried event answers DUPLICATE with its rank).
func checkOracleLiveRanks(t *testing.T, p oraclePeriod, table []boardOracleEntry) {
	t.Helper()
	players := make([]string, len(table), len(table)+1)
	for i, e := range table {
		players[i] = e.player
	}
	ranks, err := p.liveRanks(context.Background(), append(players, "nobody"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ranks) != len(table) {
		t.Errorf("%d ranks for %d players with a score and one without", len(ranks), len(table))
	}
	for i, e := range table {
		key := leaderboard.PeriodPlayer{Board: p.board().ID, Period: p.key(), PlayerID: e.player}
		if got, ok := ranks[key]; !ok || got != i+1 {
			t.Fatalf("live rank of %s: %d (read %t), want %d", e.player, got, ok, i+1)
		}
	}
}

// oracleEvents returns the suite's calls for board b: players at the
// board's minScore and maxScore, a tie group of oracleTieGroup players at
// one score reached at one instant, players around it that differ by
// subscore or time, and random ADD, SET and BEST events with retries and
// totals out of bounds (with metadata, but on main), all in the period of
// testNow.
func oracleEvents(b *leaderboard.Board, rng *rand.Rand) [][]leaderboard.ScoreEvent {
	board := b.ID
	if board == leaderboard.MainBoard {
		board = "" // main's events as clients send them
	}
	withSubscores := b.ID != leaderboard.MainBoard
	lo, hi := b.MinScore, b.MaxScore
	mid := lo + (hi-lo)/2
	instant := testNow.Add(-3 * time.Hour)
	n := 0
	ev := func(player string, mode leaderboard.ScoreMode, value int, at time.Time, subscore *int) leaderboard.ScoreEvent {
		n++
		e := leaderboard.ScoreEvent{EventID: fmt.Sprintf("o%d", n), PlayerID: player, Mode: mode, Value: value,
			OccurredAt: new(at), Board: board}
		if withSubscores {
			e.Subscore = subscore
		}
		return e
	}
	var calls [][]leaderboard.ScoreEvent
	// The bounds: two players at each, the second reached at the same instant.
	calls = append(calls, []leaderboard.ScoreEvent{
		ev("min.a", leaderboard.ModeSet, lo, instant, new(1)),
		ev("min.b", leaderboard.ModeSet, lo, instant, new(1)),
		ev("max.a", leaderboard.ModeSet, hi, instant, new(1)),
		ev("max.b", leaderboard.ModeSet, hi, instant, new(1)),
		ev("max.c", leaderboard.ModeBest, hi, instant.Add(-time.Minute), new(1)),
		ev("min.b", leaderboard.ModeSet, lo-1, instant, nil), // below the range
		ev("max.b", leaderboard.ModeSet, hi+1, instant, nil), // above it
		ev("max.a", leaderboard.ModeAdd, 1, instant, nil),    // a total above it
		ev("min.a", leaderboard.ModeAdd, -1, instant, nil),   // a total below it
		ev("max.c", leaderboard.ModeAdd, 0, instant, new(1)), // the same total
	})
	// The tie group, in several calls: one score, one instant, one subscore.
	var group []leaderboard.ScoreEvent
	for i := range oracleTieGroup {
		group = append(group, ev(fmt.Sprintf("tie%04d", i), leaderboard.ModeSet, mid, instant, new(5)))
	}
	for len(group) > 0 {
		k := min(len(group), 300+rng.IntN(400))
		calls, group = append(calls, group[:k]), group[k:]
	}
	// Around the group: the same score, another subscore, or the same
	// subscore reached earlier or later.
	var around []leaderboard.ScoreEvent
	for i := range 10 {
		around = append(around, ev(fmt.Sprintf("sub%d", i), leaderboard.ModeSet, mid, instant, new(i)))
	}
	around = append(around,
		ev("nosub", leaderboard.ModeSet, mid, instant, nil),
		ev("early", leaderboard.ModeSet, mid, instant.Add(-time.Second), new(5)),
		ev("late", leaderboard.ModeSet, mid, instant.Add(time.Second), new(5)),
		ev("next.up", leaderboard.ModeSet, mid+1, instant, new(5)),
		ev("next.down", leaderboard.ModeSet, mid-1, instant, new(5)),
	)
	calls = append(calls, around)
	// At another score, subscores spread over every level of the subscore
	// counters, in three hours.
	var spread []leaderboard.ScoreEvent
	for i, subscore := range spreadSubscores(rng) {
		at := instant.Add(-time.Duration(i%3) * time.Hour)
		spread = append(spread, ev(fmt.Sprintf("spread%03d", i), leaderboard.ModeSet, mid-2, at, new(subscore)))
	}
	calls = append(calls, spread)
	// Random events over a hundred players, with retries.
	var sent []leaderboard.ScoreEvent
	for range 6 {
		var call []leaderboard.ScoreEvent
		for range 40 + rng.IntN(40) {
			if rng.IntN(10) == 0 && len(sent) > 0 {
				call = append(call, sent[rng.IntN(len(sent))])
				continue
			}
			player := fmt.Sprintf("r%02d", rng.IntN(100))
			at := testNow.Add(-time.Duration(rng.IntN(6*60)) * time.Minute)
			var subscore *int
			if rng.IntN(5) > 0 {
				subscore = new(rng.IntN(4))
			}
			var e leaderboard.ScoreEvent
			switch rng.IntN(3) {
			case 0:
				e = ev(player, leaderboard.ModeAdd, rng.IntN(41)-20, at, subscore)
			case 1:
				e = ev(player, leaderboard.ModeSet, lo+rng.IntN(hi-lo+1), at, subscore)
			default:
				e = ev(player, leaderboard.ModeBest, lo+rng.IntN(hi-lo+1), at, subscore)
			}
			if rng.IntN(8) == 0 { // near the bounds
				e.Mode, e.Value = leaderboard.ModeSet, []int{lo, hi, lo + 1, hi - 1}[rng.IntN(4)]
			}
			if withSubscores && rng.IntN(3) == 0 {
				e.Metadata = json.RawMessage(fmt.Sprintf(`{"n": %d}`, n))
			}
			sent = append(sent, e)
			call = append(call, e)
		}
		calls = append(calls, call)
	}
	return calls
}

// spreadSubscores returns subscores at both ends of the Int range, on each
// side of the bucket edges of every subscore level (2^8, 2^16, 2^24), and
// random ones, some of them twice.
func spreadSubscores(rng *rand.Rand) []int {
	subscores := []int{math.MinInt32, math.MinInt32 + 1, math.MaxInt32 - 1, math.MaxInt32, 0}
	for _, edge := range []int{1 << 8, 1 << 16, 1 << 24} {
		subscores = append(subscores, edge-1, edge, edge+1, -edge-1, -edge, -edge+1)
	}
	for range 150 {
		subscores = append(subscores, int(int32(rng.Uint32())))
	}
	return append(subscores, subscores[len(subscores)-10:]...)
}

// checkOracleBounds checks that the model holds the cases the suite is
// about: players at minScore and maxScore and the tie group.
func checkOracleBounds(t *testing.T, b *leaderboard.Board, table []boardOracleEntry) {
	t.Helper()
	count := map[int]int{}
	for _, e := range table {
		count[e.row.Score]++
	}
	if count[b.MinScore] < 2 || count[b.MaxScore] < 2 || count[b.MinScore+(b.MaxScore-b.MinScore)/2] < oracleTieGroup {
		t.Fatalf("the model lacks the suite's cases: %d at min, %d at max, %d at the tie score",
			count[b.MinScore], count[b.MaxScore], count[b.MinScore+(b.MaxScore-b.MinScore)/2])
	}
}

// oracleSample returns the ranks whose standings are read: every rank
// outside the tie group, and in it its first and last ranks and every 97th.
func oracleSample(table []boardOracleEntry) []int {
	var ranks []int
	for i, e := range table {
		inGroup := len(e.player) == 7 && e.player[:3] == "tie"
		firstOrLast := i == 0 || i == len(table)-1 ||
			(i > 0 && table[i-1].player[:3] != "tie") || (i+1 < len(table) && table[i+1].player[:3] != "tie")
		if !inGroup || firstOrLast || i%97 == 0 {
			ranks = append(ranks, i+1)
		}
	}
	return ranks
}

// checkOracleStanding compares the standing of the player at rank in the
// model, read with above and below neighbours, against the model.
func checkOracleStanding(t *testing.T, p oraclePeriod, table []boardOracleEntry, rank, above, below int, final bool) {
	t.Helper()
	player := table[rank-1].player
	s, err := p.standing(context.Background(), player, above, below)
	if err != nil {
		t.Fatalf("standing of %s (rank %d): %v", player, rank, err)
	}
	if s == nil {
		t.Fatalf("no standing of %s, want rank %d", player, rank)
	}
	where := fmt.Sprintf("%s at rank %d with %d above, %d below", player, rank, above, below)
	if diff := sameEntry(s.RankEntry, table[rank-1], rank); diff != "" {
		t.Fatalf("%s: %s", where, diff)
	}
	if s.Total != len(table) || s.Final != final || s.Board != p.board().ID || s.Period != p.key() {
		t.Fatalf("%s: total %d final %t board %q period %q; want %d %t %q %q", where,
			s.Total, s.Final, s.Board, s.Period, len(table), final, p.board().ID, p.key())
	}
	wantAbove := table[max(0, rank-1-above) : rank-1]
	wantBelow := table[rank:min(len(table), rank+below)]
	if len(s.Above) != len(wantAbove) || len(s.Below) != len(wantBelow) {
		t.Fatalf("%s: %d above, %d below; want %d, %d", where, len(s.Above), len(s.Below), len(wantAbove), len(wantBelow))
	}
	for i, e := range s.Above {
		if diff := sameEntry(e, wantAbove[i], rank-len(wantAbove)+i); diff != "" {
			t.Fatalf("%s: above: %s", where, diff)
		}
	}
	for i, e := range s.Below {
		if diff := sameEntry(e, wantBelow[i], rank+1+i); diff != "" {
			t.Fatalf("%s: below: %s", where, diff)
		}
	}
}

// checkOraclePages walks p's pages of size from the top with their cursors
// until at least upTo rows were read (the whole table when upTo is its
// length) and compares them with the model.
func checkOraclePages(t *testing.T, p oraclePeriod, table []boardOracleEntry, size, upTo int) {
	t.Helper()
	after, rank := "", 0
	for rank < upTo {
		page, err := p.page(context.Background(), size, after)
		if err != nil {
			t.Fatalf("page of %d after rank %d: %v", size, rank, err)
		}
		if page.Total != len(table) {
			t.Fatalf("page of %d after rank %d: total %d, want %d", size, rank, page.Total, len(table))
		}
		if len(page.Edges) != min(size, len(table)-rank) {
			t.Fatalf("page of %d after rank %d: %d entries, want %d", size, rank, len(page.Edges), min(size, len(table)-rank))
		}
		for _, edge := range page.Edges {
			rank++
			if diff := sameEntry(edge.Entry, table[rank-1], rank); diff != "" {
				t.Fatalf("page of %d, rank %d: %s", size, rank, diff)
			}
		}
		if page.HasNextPage != (rank < len(table)) {
			t.Fatalf("page of %d: hasNextPage %t after rank %d of %d", size, page.HasNextPage, rank, len(table))
		}
		if !page.HasNextPage {
			break
		}
		after = page.Edges[len(page.Edges)-1].Cursor
	}
	if upTo == len(table) && rank != len(table) {
		t.Fatalf("pages of %d held %d rows, want %d", size, rank, len(table))
	}
}
