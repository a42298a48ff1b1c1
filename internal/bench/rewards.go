package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// RewardsResult is what the rewards suite measured (issue 27's targets):
// claimReward on a closed period of RewardPlayers players, and
// unclaimedRewards for players with standings in HistoryPeriods closed
// periods.
type RewardsResult struct {
	// Players of the closed period the claims are made on, and the claims
	// of each run, each for a player no run claimed before.
	Players, ClaimsPerRun int
	// Claims are the runs of claimReward; Claimed counts the CLAIMED
	// answers, Rows the claims rows afterwards: both must be the sum of
	// the runs' claims.
	Claims        []RunStats
	Claimed, Rows int
	// HistoryPeriods closed periods of HistoryPlayers players each, the
	// same players in every one, and Standings, the final standings no
	// claim holds in the database while unclaimedRewards is read.
	HistoryPeriods, HistoryPlayers int
	Standings                      int64
	// First is the page unclaimedRewards asks for; Returned what each
	// answer held.
	First, Returned int
	// Unclaimed are the runs of unclaimedRewards at one client.
	Unclaimed []RunStats
}

// rewardsTiers are the tiers of the suite's boards.
var rewardsTiers = []leaderboard.Tier{{Name: "gold", TopPercent: 1}, {Name: "silver", TopPercent: 10}, {Name: "bronze", TopPercent: 100}}

// rewardsFirst is the page of unclaimedRewards: the API's default.
const rewardsFirst = 50

// rewards runs the rewards suite: a closed period of RewardPlayers players
// (SeedPeriod, then ClosePeriod), claimed over HTTP by ClaimClients game
// servers; then HistoryPeriods closed periods of HistoryPlayers players
// written with SQL from its final ranks, and unclaimedRewards read for
// those players at one client.
func (r *runner) rewards(ctx context.Context) error {
	result := &RewardsResult{Players: r.cfg.RewardPlayers, ClaimsPerRun: r.cfg.Claims,
		HistoryPeriods: r.cfg.HistoryPeriods, HistoryPlayers: min(r.cfg.HistoryPlayers, r.cfg.RewardPlayers), First: rewardsFirst}
	r.report.Rewards = result
	day := time.Now().UTC().Truncate(24 * time.Hour)
	key := day.Format(time.DateOnly)
	board := boardPrefix(r.report.Started, "rw") + "claims"
	history := boardPrefix(r.report.Started, "rw") + "history"
	for _, id := range []string{board, history} {
		spec := leaderboard.BoardSpec{ID: id, Name: "Bench rewards", Reset: leaderboard.ResetDay, TimeZone: new("UTC"),
			CloseGrace: new(60), StartsAt: new(day.AddDate(0, 0, -r.cfg.HistoryPeriods-1)), Tiers: rewardsTiers}
		if _, err := r.service.DB.CreateBoard(ctx, spec); err != nil {
			return err
		}
	}
	took := r.step(fmt.Sprintf("seed period %s of a DAY board with %s players (SeedPeriod, COPY), then ClosePeriod",
		key, thousands(float64(result.Players))))
	if _, err := r.service.DB.SeedPeriod(ctx, board, key, result.Players, db.SeedOptions{RandomSeed: 1}); err != nil {
		return err
	}
	if _, err := r.service.DB.ClosePeriod(ctx, board, key); err != nil {
		return err
	}
	took()
	if err := r.writeHistory(ctx, board, key, history, result); err != nil {
		return err
	}
	if err := r.settle(ctx); err != nil {
		return err
	}
	if err := r.measureUnclaimed(ctx, result); err != nil {
		return err
	}
	return r.measureClaims(ctx, board, key, result)
}

// writeHistory gives board history result.HistoryPeriods CLOSED DAY
// periods, the days before today, each with the first HistoryPlayers final
// ranks of period key of board, as their closes would leave them: the same
// rows in each period's partition of board_final_ranks.
func (r *runner) writeHistory(ctx context.Context, board, key, history string, result *RewardsResult) error {
	took := r.step(fmt.Sprintf("insert %d closed DAY periods of %s players each (SQL)",
		result.HistoryPeriods, thousands(float64(result.HistoryPlayers))))
	const months = `SELECT DISTINCT to_char(date_trunc('month', current_date - g), 'YYYY_MM'),
			to_char(date_trunc('month', current_date - g), 'YYYY-MM-DD')
		FROM generate_series(1, $1) AS g`
	rows, err := r.pool.Query(ctx, months, result.HistoryPeriods)
	if err != nil {
		return fmt.Errorf("list the history's months: %w", err)
	}
	var partitions [][2]string
	for rows.Next() {
		var p [2]string
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			return err
		}
		partitions = append(partitions, p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range partitions {
		// As ensureFinalRanksPartition names and makes them.
		q := fmt.Sprintf(`CREATE TABLE IF NOT EXISTS board_final_ranks_%[1]s PARTITION OF board_final_ranks FOR VALUES IN (DATE '%[2]s');
			CREATE INDEX IF NOT EXISTS board_final_ranks_%[1]s_player_id_period_id_idx ON board_final_ranks_%[1]s (player_id, period_id)`,
			p[0], p[1])
		if _, err := r.pool.Exec(ctx, q); err != nil {
			return fmt.Errorf("make a final ranks partition: %w", err)
		}
	}
	const periods = `INSERT INTO periods (board_id, key, status, starts_at, ends_at, closed_at, participants, digest, final_bucket)
		SELECT $1, to_char(d.day, 'YYYY-MM-DD'), 'CLOSED', d.day::timestamp AT TIME ZONE 'UTC',
			(d.day + 1)::timestamp AT TIME ZONE 'UTC', ((d.day + 1)::timestamp AT TIME ZONE 'UTC') + interval '60 seconds',
			$3, encode(sha256(convert_to($1 || d.day::text, 'UTF8')), 'hex'), date_trunc('month', d.day)::date
		FROM (SELECT (current_date - g)::date AS day FROM generate_series(1, $2) AS g) d`
	if _, err := r.pool.Exec(ctx, periods, history, result.HistoryPeriods, result.HistoryPlayers); err != nil {
		return fmt.Errorf("insert the history's periods: %w", err)
	}
	const ranks = `INSERT INTO board_final_ranks (bucket, period_id, rank, player_id, score, subscore, reached_at, metadata)
		SELECT p.final_bucket, p.id, f.rank, f.player_id, f.score, f.subscore, f.reached_at, f.metadata
		FROM periods p CROSS JOIN (
			SELECT f.* FROM periods s JOIN board_final_ranks f ON f.bucket = s.final_bucket AND f.period_id = s.id
			WHERE s.board_id = $2 AND s.key = $3 AND f.rank <= $4) f
		WHERE p.board_id = $1`
	if _, err := r.pool.Exec(ctx, ranks, history, board, key, result.HistoryPlayers); err != nil {
		return fmt.Errorf("insert the history's final ranks: %w", err)
	}
	took()
	return nil
}

// historyPlayers returns the ids of the players of the history's periods.
func (r *runner) historyPlayers(ctx context.Context, history string) ([]string, error) {
	const q = `SELECT f.player_id FROM periods p JOIN board_final_ranks f ON f.bucket = p.final_bucket AND f.period_id = p.id
		WHERE p.board_id = $1 AND p.key = (SELECT min(key) FROM periods WHERE board_id = $1)`
	rows, err := r.pool.Query(ctx, q, history)
	if err != nil {
		return nil, fmt.Errorf("read the history's players: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// unclaimedQuery is a game server's unclaimedRewards at a player's login.
const unclaimedQuery = `query($player: ID!, $first: Int!) { unclaimedRewards(playerId: $player, first: $first) {
	board period rank total score tier } }`

// measureUnclaimed reads unclaimedRewards for random players of the
// history, Repeat runs at one client, and checks each answer is a full page.
func (r *runner) measureUnclaimed(ctx context.Context, result *RewardsResult) error {
	history := boardPrefix(r.report.Started, "rw") + "history"
	players, err := r.historyPlayers(ctx, history)
	if err != nil {
		return err
	}
	if len(players) == 0 {
		return fmt.Errorf("the history has no players")
	}
	const standings = `SELECT (SELECT count(*) FROM board_final_ranks) - (SELECT count(*) FROM claims)`
	if err := r.pool.QueryRow(ctx, standings).Scan(&result.Standings); err != nil {
		return fmt.Errorf("count the standings: %w", err)
	}
	want := min(rewardsFirst, result.HistoryPeriods+1)
	load := Load{Clients: 1, Warmup: r.cfg.Warmup, Duration: r.cfg.Duration}
	for range r.cfg.Repeat {
		rng := rand.New(rand.NewPCG(uint64(len(result.Unclaimed)), 27))
		stats := load.Run(ctx, func(int) Op {
			return func(ctx context.Context) error {
				var data struct {
					UnclaimedRewards []struct {
						Board string `json:"board"`
					} `json:"unclaimedRewards"`
				}
				vars := map[string]any{"player": players[rng.IntN(len(players))], "first": rewardsFirst}
				if err := r.gql.Do(ctx, r.serverToken, unclaimedQuery, vars, &data); err != nil {
					return err
				}
				if n := len(data.UnclaimedRewards); n != want {
					return fmt.Errorf("unclaimedRewards answered %d standings, want %d", n, want)
				}
				result.Returned = want
				return nil
			}
		})
		if err := ctx.Err(); err != nil {
			return err
		}
		result.Unclaimed = append(result.Unclaimed, stats)
		r.log.Info("measured unclaimedRewards", "standings", result.Standings, "rate", fmt.Sprintf("%.0f/s", stats.Throughput()),
			"p50", stats.P50, "p99", stats.P99, "errors", stats.Errors)
		if stats.Errors > 0 {
			r.fail("unclaimedRewards: %d errors, first: %s", stats.Errors, stats.FirstError)
		}
	}
	return nil
}

// claimMutation is a game server's claimReward.
const claimMutation = `mutation($board: ID!, $period: String!, $player: ID!, $claim: ID!) {
	claimReward(board: $board, period: $period, playerId: $player, claimId: $claim) { status claimId claimedAt } }`

// measureClaims claims the standings of distinct players of period key of
// board over HTTP, ClaimsPerRun each run by ClaimClients game servers, and
// checks that each answered CLAIMED and left one row. Each game server has
// its own keep-alive connection (KeepAliveConn), so that the load costs the
// cores the service shares with it as little as it can.
func (r *runner) measureClaims(ctx context.Context, board, key string, result *RewardsResult) error {
	conns := make([]*KeepAliveConn, r.cfg.ClaimClients)
	for i := range conns {
		c, err := NewKeepAliveConn(r.service.Server.URL(), r.serverToken)
		if err != nil {
			return err
		}
		defer c.Close()
		conns[i] = c
	}
	query, err := json.Marshal(claimMutation)
	if err != nil {
		return err
	}
	// Every claim's body is this prefix, the player and the claim id, all
	// of them ASCII without quotes or backslashes, which %q writes as JSON.
	prefix := fmt.Appendf(nil, `{"query":%s,"variables":{"board":%q,"period":%q,"player":`, query, board, key)
	for run := range r.cfg.Repeat {
		first := 1 + run*result.ClaimsPerRun
		if first+result.ClaimsPerRun-1 > result.Players {
			r.fail("claimReward: run %d needs players up to %d, the period has %d", run+1, first+result.ClaimsPerRun-1, result.Players)
			break
		}
		before := r.meter.Read()
		stats := Each(ctx, result.ClaimsPerRun, r.cfg.ClaimClients, func(ctx context.Context, client, item int) error {
			player := db.SeedPlayerID(first + item)
			claim := "grant-" + strconv.Itoa(first+item)
			body := fmt.Appendf(prefix[:len(prefix):len(prefix)], `%q,"claim":%q}}`, player, claim)
			raw, err := conns[client].Post(ctx, body)
			if err != nil {
				return err
			}
			var answer struct {
				Data struct {
					ClaimReward struct {
						Status  string `json:"status"`
						ClaimID string `json:"claimId"`
					} `json:"claimReward"`
				} `json:"data"`
			}
			if err := json.Unmarshal(raw, &answer); err != nil {
				return fmt.Errorf("claimReward of %s: %w: %.200s", player, err, raw)
			}
			if c := answer.Data.ClaimReward; c.Status != string(leaderboard.ClaimClaimed) || c.ClaimID != claim {
				return fmt.Errorf("claimReward of %s answered %.200s", player, raw)
			}
			return nil
		})
		stats.CPU = r.meter.Read().Sub(before)
		if err := ctx.Err(); err != nil {
			return err
		}
		result.Claims = append(result.Claims, stats)
		result.Claimed += stats.Ops
		service, postgres := claimCPU(stats)
		r.log.Info("measured claimReward", "claims", result.ClaimsPerRun, "clients", r.cfg.ClaimClients,
			"rate", fmt.Sprintf("%.0f/s", stats.Throughput()), "p50", stats.P50, "p99", stats.P99, "errors", stats.Errors,
			"cpu_ms_per_claim_bench_process", cpuText(service), "cpu_ms_per_claim_postgres", cpuText(postgres))
		if stats.Errors > 0 {
			r.fail("claimReward: %d errors, first: %s", stats.Errors, stats.FirstError)
		}
	}
	const q = `SELECT count(*) FROM claims WHERE board_id = $1 AND period_key = $2`
	if err := r.pool.QueryRow(ctx, q, board, key).Scan(&result.Rows); err != nil {
		return fmt.Errorf("count the claims: %w", err)
	}
	if result.Rows != result.Claimed {
		r.fail("claimReward: %d answered CLAIMED, %d claims stored", result.Claimed, result.Rows)
	}
	return nil
}

// claimCPU is the CPU time a claim of run s cost, in milliseconds: the
// bench's own process (the service and its clients) and PostgreSQL.
func claimCPU(s RunStats) (process, postgres float64) {
	if s.AllOps == 0 {
		return 0, 0
	}
	return milliseconds(s.CPU.Process) / float64(s.AllOps), milliseconds(s.CPU.Postgres) / float64(s.AllOps)
}
