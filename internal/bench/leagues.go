package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// The leagues suite (issue 38, target 2): a WEEK board with cohorts of
// leagueCohortSize in leagueNames' leagues beside the same board without
// cohorts, written to through submitScores; the league board then filled
// with every one of Players players, its cohorts read, and its period
// closed with promotion.

// LeaguesResult is what the leagues suite measured.
type LeaguesResult struct {
	// Board is the league board, Plain the same board without cohorts;
	// Key their current period.
	Board, Plain, Key string
	CohortSize        int
	Leagues           []leaderboard.League
	// Writes and PlainWrites are submitScores on each board, both fresh
	// when their first run starts: players join the league board's
	// cohorts as they come.
	Writes, PlainWrites *Measurement
	// Acknowledged and Stored are the events of the writes on both boards.
	Acknowledged, Stored int64
	// Filled is how many players the league board held once every one of
	// Players had sent an event (batches of FillBatch), in Fill.
	Players, Filled int
	Fill            time.Duration
	// Members, Cohorts and Largest are the cohorts after the fill.
	Members, Cohorts, Largest int
	// Reads are cohort(board, id) of random cohorts.
	Reads *Measurement
	// Close is closePeriod of the league board, from the call to CLOSED;
	// Promoted and Demoted are the players its close moved.
	Close             time.Duration
	Promoted, Demoted int
}

// The league board's shape, as issue 38 states it.
const (
	leagueCohortSize = 30
	leagueMove       = 5 // promoted and demoted, except at the ends
	leagueFillBatch  = 100
)

// leagueNames are the league board's leagues, the lowest first.
var leagueNames = []string{"Bronze", "Silver", "Gold", "Platinum", "Diamond"}

// benchLeagues are the leagues of leagueNames: each promotes and demotes
// leagueMove, except the top, which promotes none, and the bottom, which
// demotes none.
func benchLeagues() []leaderboard.League {
	out := make([]leaderboard.League, len(leagueNames))
	for i, name := range leagueNames {
		out[i] = leaderboard.League{Name: name, Promote: leagueMove, Demote: leagueMove}
	}
	out[0].Demote, out[len(out)-1].Promote = 0, 0
	return out
}

// leagues runs the leagues suite.
func (r *runner) leagues(ctx context.Context) error {
	l := &LeaguesResult{CohortSize: leagueCohortSize, Leagues: benchLeagues(), Players: r.cfg.Players}
	r.report.Leagues = l
	league, plain := boardPrefix(r.report.Started, "lc"), boardPrefix(r.report.Started, "ln")
	l.Board, l.Plain = boardID(league, 0), boardID(plain, 0)
	var err error
	for _, id := range []string{l.Board, l.Plain} {
		if l.Key, err = r.createLeagueBoard(ctx, id, id == l.Board); err != nil {
			return err
		}
	}
	if err := r.leagueWrites(ctx, l, league, plain); err != nil {
		return err
	}
	if err := r.fillLeague(ctx, l); err != nil {
		return err
	}
	ids, err := r.cohortIDs(ctx, l)
	if err != nil {
		return err
	}
	w := HTTPCohort(r.gql, l.Board, l.Key, OneOf(ids), leagueCohortSize)
	if l.Reads, err = r.measureBoards(ctx, "cohort(board, id)", slices.Max(r.cfg.ReadClients), 1, "req/s", w); err != nil {
		return err
	}
	return r.closeLeague(ctx, l)
}

// createLeagueBoard creates WEEK board id (UTC, started five weeks ago, a
// long close grace), with the suite's cohorts and leagues when cohorts is
// true, and returns its current period's key.
func (r *runner) createLeagueBoard(ctx context.Context, id string, cohorts bool) (string, error) {
	now := time.Now()
	spec := leaderboard.BoardSpec{ID: id, Name: "Bench league", Reset: leaderboard.ResetWeek, TimeZone: new("UTC"),
		CloseGrace: new(int(bigBoardCloseGrace / time.Second)), StartsAt: new(now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -35))}
	if cohorts {
		spec.CohortSize, spec.Leagues = new(leagueCohortSize), benchLeagues()
	}
	created, err := r.service.DB.CreateBoard(ctx, spec)
	if err != nil {
		return "", err
	}
	key, _, err := created.Board.PeriodOf(now)
	return key, err
}

// leagueWrites primes both boards with submitScores (unmeasured), analyzes,
// then measures the same writes on each, and checks every acknowledged
// event was stored.
func (r *runner) leagueWrites(ctx context.Context, l *LeaguesResult, league, plain string) error {
	events := eventPrefix(r.report.Started)
	var ack Acknowledged
	leagueLoad := HTTPBoardSubmit(r.gql, r.serverToken, events+"lc-", league, 1, r.cfg.BatchSize, r.cfg.Players, &ack)
	plainLoad := HTTPBoardSubmit(r.gql, r.serverToken, events+"ln-", plain, 1, r.cfg.BatchSize, r.cfg.Players, &ack)
	took := r.step("prime submitScores on both league boards (unmeasured), then ANALYZE the tables it writes")
	for _, w := range []Workload{leagueLoad, plainLoad} {
		r.runs++
		prime := r.runs
		stats := Load{Clients: r.cfg.WriteClients, Duration: primeDuration}.Run(ctx, func(client int) Op { return w(prime, client) })
		if err := ctx.Err(); err != nil {
			return err
		}
		if stats.Errors > 0 {
			r.fail("priming submitScores on the league boards: %d errors, first: %s", stats.Errors, stats.FirstError)
		}
	}
	if _, err := r.pool.Exec(ctx, `ANALYZE board_score_events, board_scores, periods, players, cohort_members, period_cohort_fill`); err != nil {
		return fmt.Errorf("analyze after priming: %w", err)
	}
	took()
	var err error
	if l.Writes, err = r.measureBoards(ctx, "submitScores, league board", r.cfg.WriteClients, r.cfg.BatchSize, "events/s", leagueLoad); err != nil {
		return err
	}
	if l.PlainWrites, err = r.measureBoards(ctx, "submitScores, same board without cohorts", r.cfg.WriteClients, r.cfg.BatchSize, "events/s", plainLoad); err != nil {
		return err
	}
	l.Acknowledged = ack.Total()
	const q = `SELECT count(*) FROM board_score_events WHERE starts_with(event_id, $1)`
	if err := r.pool.QueryRow(ctx, q, events).Scan(&l.Stored); err != nil {
		return fmt.Errorf("count stored league events: %w", err)
	}
	if l.Stored != l.Acknowledged {
		r.fail("submitScores on the league boards: %d events acknowledged, %d stored", l.Acknowledged, l.Stored)
	}
	return nil
}

// fillLeague sends one BEST event for every one of Players players to the
// league board, in batches of leagueFillBatch by WriteClients clients, so
// that each is in a cohort, and counts the cohorts.
func (r *runner) fillLeague(ctx context.Context, l *LeaguesResult) error {
	took := r.step(fmt.Sprintf("fill %s with %s players through submitScores, batches of %d", l.Board,
		thousands(float64(r.cfg.Players)), leagueFillBatch))
	prefix := eventPrefix(r.report.Started) + "fill-"
	batches := (r.cfg.Players + leagueFillBatch - 1) / leagueFillBatch
	start := time.Now()
	stats := Each(ctx, batches, r.cfg.WriteClients, func(ctx context.Context, _, item int) error {
		var events []boardEvent
		for i := item*leagueFillBatch + 1; i <= min((item+1)*leagueFillBatch, r.cfg.Players); i++ {
			events = append(events, boardEvent{EventID: fmt.Sprintf("%s%d", prefix, i), PlayerID: db.SeedPlayerID(i),
				Board: l.Board, Mode: "BEST", Value: i * 7919 % 10_001})
		}
		var data struct {
			SubmitScores []struct{ Status string } `json:"submitScores"`
		}
		if err := r.gql.Do(ctx, r.serverToken, submitQuery, map[string]any{"events": events}, &data); err != nil {
			return fmt.Errorf("fill batch %d: %w", item, err)
		}
		for _, res := range data.SubmitScores {
			if res.Status != "APPLIED" && res.Status != "UNCHANGED" {
				return fmt.Errorf("fill batch %d: an event %s", item, res.Status)
			}
		}
		return nil
	})
	l.Fill = time.Since(start)
	if err := ctx.Err(); err != nil {
		return err
	}
	if stats.Errors > 0 {
		r.fail("filling the league board: %d errors, first: %s", stats.Errors, stats.FirstError)
	}
	took()
	const q = `SELECT COALESCE(sum(n), 0), count(*), COALESCE(max(n), 0) FROM (
		SELECT count(*) AS n FROM cohort_members m JOIN periods p ON p.id = m.period_id
		WHERE p.board_id = $1 AND p.key = $2 GROUP BY m.league, m.cohort) c`
	if err := r.pool.QueryRow(ctx, q, l.Board, l.Key).Scan(&l.Members, &l.Cohorts, &l.Largest); err != nil {
		return fmt.Errorf("count the cohorts: %w", err)
	}
	const players = `SELECT count(*) FROM board_scores s JOIN periods p ON p.id = s.period_id WHERE p.board_id = $1 AND p.key = $2`
	if err := r.pool.QueryRow(ctx, players, l.Board, l.Key).Scan(&l.Filled); err != nil {
		return fmt.Errorf("count the league board's players: %w", err)
	}
	r.log.Info("league board filled", "players", l.Filled, "members", l.Members, "cohorts", l.Cohorts, "largest", l.Largest, "took", l.Fill)
	if l.Members != l.Filled || l.Largest > leagueCohortSize {
		r.fail("league board: %d players, %d in cohorts, largest cohort %d of at most %d", l.Filled, l.Members, l.Largest, leagueCohortSize)
	}
	return nil
}

// cohortIDs returns the ids of the league board's cohorts.
func (r *runner) cohortIDs(ctx context.Context, l *LeaguesResult) ([]string, error) {
	const q = `SELECT DISTINCT m.league, m.cohort FROM cohort_members m JOIN periods p ON p.id = m.period_id
		WHERE p.board_id = $1 AND p.key = $2`
	rows, err := r.pool.Query(ctx, q, l.Board, l.Key)
	if err != nil {
		return nil, fmt.Errorf("list the cohorts: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var league int16
		var n int32
		if err := rows.Scan(&league, &n); err != nil {
			return nil, err
		}
		ids = append(ids, leaderboard.CohortID(int(league), int(n)))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("the league board %s has no cohorts", l.Board)
	}
	return ids, nil
}

// cohortQuery reads one cohort's table.
const cohortQuery = `query Cohort($board: ID!, $period: String, $id: ID!) {
  cohort(board: $board, period: $period, id: $id) { id size members { rank score } }
}`

// cohortAnswer is cohortQuery's answer.
type cohortAnswer struct {
	Cohort *struct {
		ID      string `json:"id"`
		Size    int    `json:"size"`
		Members []struct {
			Rank  int `json:"rank"`
			Score int `json:"score"`
		} `json:"members"`
	} `json:"cohort"`
}

// check returns an error unless a is cohort id, of 1..most members, each
// listed, ranked from 1 best first (a DESC board).
func (a cohortAnswer) check(id string, most int) error {
	c := a.Cohort
	switch {
	case c == nil:
		return fmt.Errorf("no cohort %s", id)
	case c.ID != id:
		return fmt.Errorf("cohort %s answered for %s", c.ID, id)
	case c.Size < 1 || c.Size > most || len(c.Members) != c.Size:
		return fmt.Errorf("cohort %s: size %d, %d members, at most %d", id, c.Size, len(c.Members), most)
	case c.Members[0].Rank != 1:
		return fmt.Errorf("cohort %s: first rank %d", id, c.Members[0].Rank)
	}
	for i := 1; i < len(c.Members); i++ {
		if m, above := c.Members[i], c.Members[i-1]; m.Rank < above.Rank || m.Score > above.Score {
			return fmt.Errorf("cohort %s: member %d (rank %d, %d) below rank %d, %d", id, i, m.Rank, m.Score, above.Rank, above.Score)
		}
	}
	return nil
}

// HTTPCohort returns, for each client of a load, an Op that reads over
// HTTP cohort(board, period, id) of a cohort drawn by pick, and checks it.
func HTTPCohort(c *GraphQL, board, period string, pick Picker, most int) Workload {
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 39))
		return func(ctx context.Context) error {
			id := pick(rng)
			var answer cohortAnswer
			if err := c.Do(ctx, "", cohortQuery, map[string]any{"board": board, "period": period, "id": id}, &answer); err != nil {
				return fmt.Errorf("cohort %s of %s: %w", id, board, err)
			}
			return answer.check(id, most)
		}
	}
}

// closeLeague closes the league board's period through closePeriod, timed
// from the call until CLOSED, and counts the players it promoted and
// demoted.
func (r *runner) closeLeague(ctx context.Context, l *LeaguesResult) error {
	took := r.step(fmt.Sprintf("closePeriod %s of %s (cohort ranks, promotion) until CLOSED", l.Key, l.Board))
	start := time.Now()
	target := PeriodClosable(r.gql, r.pool, r.adminToken, l.Board, l.Key, leaderboard.OrderDesc)
	if _, _, err := awaitClosed(ctx, target, 25*time.Millisecond); err != nil {
		return err
	}
	l.Close = time.Since(start)
	took()
	const q = `SELECT count(*) FILTER (WHERE f.next_league > m.league), count(*) FILTER (WHERE f.next_league < m.league)
		FROM periods p JOIN cohort_members m ON m.period_id = p.id
		JOIN board_final_ranks f ON f.bucket = p.final_bucket AND f.period_id = p.id AND f.player_id = m.player_id
		WHERE p.board_id = $1 AND p.key = $2`
	if err := r.pool.QueryRow(ctx, q, l.Board, l.Key).Scan(&l.Promoted, &l.Demoted); err != nil {
		return fmt.Errorf("count the promoted: %w", err)
	}
	r.log.Info("league board closed", "took", l.Close, "promoted", l.Promoted, "demoted", l.Demoted)
	return nil
}
