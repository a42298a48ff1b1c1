package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The groups suite (issue 38, target 1): groupStandings, a friends board,
// of random seeded players on main's open month and on a WEEK board's
// period of Players players, open and then closed and held in memory.

// GroupsResult is what the groups suite measured.
type GroupsResult struct {
	Players int
	// Board and Key name the WEEK board's period read open and closed.
	Board, Key string
	// Cases are the measurements, in the order run.
	Cases []GroupCase
	// ClosedFrom says where the closed period's reads were served from.
	ClosedFrom string
	// Close is how long closePeriod took, from the call to CLOSED.
	Close time.Duration
}

// GroupCase is groupStandings of Size ids on one period.
type GroupCase struct {
	Period string // as the report names it
	Closed bool
	Size   int
	M      *Measurement
}

// The group sizes and clients the suite measures, as issue 38 states them.
const (
	groupSmall   = 200
	groupLarge   = 1000
	groupClients = 8
)

// groupQuery asks for the standings of a group of players in one period.
const groupQuery = `query Group($board: ID!, $period: String, $ids: [ID!]!) {
  groupStandings(board: $board, period: $period, playerIds: $ids) { groupRank standing { rank score final } }
}`

// groupAnswer is groupQuery's answer.
type groupAnswer struct {
	GroupStandings []struct {
		GroupRank int `json:"groupRank"`
		Standing  struct {
			Rank  int  `json:"rank"`
			Score int  `json:"score"`
			Final bool `json:"final"`
		} `json:"standing"`
	} `json:"groupStandings"`
}

// check returns an error unless a holds want standings best first, group
// ranks from 1 and board ranks never falling back, each final as finality
// asks.
func (a groupAnswer) check(want int, finality Finality) error {
	g := a.GroupStandings
	if len(g) != want {
		return fmt.Errorf("%d standings, want %d", len(g), want)
	}
	for i, s := range g {
		switch {
		case !finality.accepts(s.Standing.Final):
			return fmt.Errorf("standing %d: final %v", i, s.Standing.Final)
		case i == 0 && s.GroupRank != 1:
			return fmt.Errorf("first groupRank %d", s.GroupRank)
		case i > 0 && (s.GroupRank < g[i-1].GroupRank || s.GroupRank > i+1 || s.Standing.Rank < g[i-1].Standing.Rank):
			return fmt.Errorf("standing %d (groupRank %d, rank %d) after groupRank %d, rank %d",
				i, s.GroupRank, s.Standing.Rank, g[i-1].GroupRank, g[i-1].Standing.Rank)
		}
	}
	return nil
}

// distinctSeeded draws n distinct seeded players of 1..players.
func distinctSeeded(rng *rand.Rand, n, players int) []string {
	seen := make(map[int]bool, n)
	ids := make([]string, 0, n)
	for len(ids) < n {
		i := 1 + rng.IntN(players)
		if !seen[i] {
			seen[i] = true
			ids = append(ids, db.SeedPlayerID(i))
		}
	}
	return ids
}

// HTTPGroupStandings returns, for each client of a load, an Op that reads
// over HTTP groupStandings of size distinct random seeded players of
// 1..players in period of board, and checks the answer.
func HTTPGroupStandings(c *GraphQL, board, period string, size, players int, finality Finality) Workload {
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 38))
		return func(ctx context.Context) error {
			vars := map[string]any{"board": board, "period": period, "ids": distinctSeeded(rng, size, players)}
			var answer groupAnswer
			if err := c.Do(ctx, "", groupQuery, vars, &answer); err != nil {
				return fmt.Errorf("groupStandings of %d on %s %s: %w", size, board, period, err)
			}
			if err := answer.check(size, finality); err != nil {
				return fmt.Errorf("groupStandings of %d on %s %s: %w", size, board, period, err)
			}
			return nil
		}
	}
}

// groups runs the groups suite: main's open month (seeded when no other
// suite did), then a WEEK board's period seeded as the big-boards suite
// seeds one, read open, closed and, once the service holds it in memory,
// read closed.
func (r *runner) groups(ctx context.Context) error {
	if r.cfg.Players < groupLarge {
		return fmt.Errorf("the groups suite needs --players of at least %d, got %d", groupLarge, r.cfg.Players)
	}
	g := &GroupsResult{Players: r.cfg.Players}
	r.report.Groups = g
	if _, err := r.seedOpenMonth(ctx, "for groupStandings"); err != nil {
		return err
	}
	if err := r.groupCases(ctx, g, "main, open month "+r.open.String(), leaderboard.MainBoard, r.open.String(), ExpectLive); err != nil {
		return err
	}
	b := &BigBoard{Kind: BigBoardKinds[0], Players: r.cfg.Players}
	id := boardID(boardPrefix(r.report.Started, "gw"), 0)
	key, err := r.seedBigBoard(ctx, b, id)
	if err != nil {
		return err
	}
	g.Board, g.Key = id, key
	if err := r.groupCases(ctx, g, "WEEK board, open period", id, key, ExpectLive); err != nil {
		return err
	}
	took := r.step(fmt.Sprintf("closePeriod %s of %s until CLOSED", key, id))
	start := time.Now()
	if _, _, err := awaitClosed(ctx, PeriodClosable(r.gql, r.pool, r.adminToken, id, key, b.Kind.Order), 25*time.Millisecond); err != nil {
		return err
	}
	g.Close = time.Since(start)
	took()
	g.ClosedFrom = r.holdPeriod(ctx, b, id, key)
	if err := r.groupCases(ctx, g, "WEEK board, closed period", id, key, ExpectFinal); err != nil {
		return err
	}
	if r.service.ClosedPeriods != nil {
		r.service.ClosedPeriods.ForgetPeriod(id, key)
	}
	return nil
}

// groupCases measures groupStandings of groupSmall and of groupLarge ids
// at groupClients on period key of board.
func (r *runner) groupCases(ctx context.Context, g *GroupsResult, name, board, key string, finality Finality) error {
	for _, size := range []int{groupSmall, groupLarge} {
		w := HTTPGroupStandings(r.gql, board, key, size, r.cfg.Players, finality)
		m, err := r.measureBoards(ctx, fmt.Sprintf("groupStandings of %d, %s", size, name), groupClients, 1, "req/s", w)
		g.Cases = append(g.Cases, GroupCase{Period: name, Closed: finality == ExpectFinal, Size: size, M: m})
		if err != nil {
			return err
		}
	}
	return nil
}

// holdPeriod has the service load closed period key of board id into
// memory, reading it once a second until it holds it (up to snapshotWait),
// and says where its reads are served from.
func (r *runner) holdPeriod(ctx context.Context, b *BigBoard, id, key string) string {
	budget := r.service.Config.SnapshotPlayers
	switch {
	case r.service.ClosedPeriods == nil:
		return "PostgreSQL (the service's in-memory snapshot of closed periods is off)"
	case budget < b.Players:
		return fmt.Sprintf("PostgreSQL (%s players are over the snapshot budget of %s)",
			thousands(float64(b.Players)), thousands(float64(budget)))
	}
	took := r.step(fmt.Sprintf("read period %s of %s until the service holds it in memory", key, id))
	read := HTTPBoardStanding(r.gql, id, key, b.Kind.Order, AnySeeded(b.Players), ExpectFinal)(0, 0)
	start := time.Now()
	for !r.service.ClosedPeriods.PeriodLoaded(id, key) {
		if time.Since(start) > snapshotWait || ctx.Err() != nil {
			r.fail("the service did not hold period %s of %s in memory within %s", key, id, snapshotWait)
			return fmt.Sprintf("PostgreSQL (not in memory %s after its close)", snapshotWait)
		}
		if err := read(ctx); err != nil && ctx.Err() == nil {
			r.fail("period %s of %s, read while it loaded: %s", key, id, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	took()
	return fmt.Sprintf("the service's memory (held %s after CLOSED)", time.Since(start).Round(100*time.Millisecond))
}
