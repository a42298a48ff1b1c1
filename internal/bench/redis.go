package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/gamebackend/leaderboard"
)

// The Redis design keeps a month in one sorted set whose score packs the
// player's total and the time they reached it into one double:
//
//	packed = score·2³² + (2³² − 1 − seconds since the month's start)
//
// A higher total ranks first; at equal totals the earlier time leaves the
// larger remainder, so it ranks first too. With totals up to 10,000 (< 2¹⁴)
// and months under 2³² seconds, packed stays below 2⁴⁶, well inside the 2⁵³
// that a double holds exactly, so the packing loses nothing, and ZREVRANK
// orders exactly by (score DESC, reached_at ASC) at whole seconds. Players
// with the same total and second tie on the packed value, and Redis orders
// them by member, in reverse for ZREVRANK: not by arrival, as the service's
// server-assigned sequence does, so ranks inside a tie differ between the
// two, though not their cost.
const (
	packShift   = 1 << 32
	maxSeconds  = packShift - 1
	maxPackable = leaderboard.MaxScore
)

// PackScore returns the sorted-set score of a total reached sinceStart
// seconds after its month's start. It refuses a total outside
// 0..leaderboard.MaxScore and a time outside 0..2³²−1 seconds.
func PackScore(score int, sinceStart int64) (float64, error) {
	if score < 0 || score > maxPackable {
		return 0, fmt.Errorf("pack score %d: outside 0..%d", score, maxPackable)
	}
	if sinceStart < 0 || sinceStart > maxSeconds {
		return 0, fmt.Errorf("pack time %d s: outside 0..%d", sinceStart, int64(maxSeconds))
	}
	return float64(uint64(score)*packShift + uint64(maxSeconds-sinceStart)), nil
}

// UnpackScore is the inverse of PackScore.
func UnpackScore(packed float64) (score int, sinceStart int64) {
	v := uint64(packed)
	return int(v / packShift), maxSeconds - int64(v%packShift)
}

// SortedSet is one month of the Redis design: the sorted set of packed
// scores and a hash of the players' names, as the service returns names.
type SortedSet struct {
	client          *redis.Client
	Key, NamesKey   string
	Members         int
	MonthStartsUnix int64
}

// loadChunk is how many members one ZADD and one HSET of a load carry.
const loadChunk = 1000

// LoadSortedSet copies the final ranks of closed month m, with the players'
// names, from PostgreSQL into a sorted set and a hash, with pipelines of
// loadChunk-member commands. loc is the event time zone.
func LoadSortedSet(ctx context.Context, pool *pgxpool.Pool, client *redis.Client, m leaderboard.Month, loc *time.Location) (*SortedSet, error) {
	set := &SortedSet{client: client, Key: "leaderboard:" + m.String(), NamesKey: "names", MonthStartsUnix: m.Start(loc).Unix()}
	const q = `SELECT f.player_id, f.score, f.reached_at, COALESCE(p.name, '')
		FROM board_final_ranks f JOIN players p ON p.id = f.player_id
		WHERE f.bucket = DATE '0001-01-01' AND f.period_id = (SELECT m.id FROM periods m
			WHERE m.board_id = 'main' AND m.key = to_char($1::date, 'YYYY-MM'))`
	rows, err := pool.Query(ctx, q, m.Date())
	if err != nil {
		return nil, fmt.Errorf("load redis: %w", err)
	}
	defer rows.Close()
	var (
		members []redis.Z
		names   []any
		pipe    = client.Pipeline()
	)
	flush := func(force bool) error {
		if len(members) > 0 {
			pipe.ZAdd(ctx, set.Key, members...)
			pipe.HSet(ctx, set.NamesKey, names...)
			members, names = nil, nil
		}
		if pipe.Len() >= 20 || (force && pipe.Len() > 0) {
			if _, err := pipe.Exec(ctx); err != nil {
				return fmt.Errorf("load redis: %w", err)
			}
		}
		return nil
	}
	for rows.Next() {
		var (
			id, name  string
			score     int
			reachedAt time.Time
		)
		if err := rows.Scan(&id, &score, &reachedAt, &name); err != nil {
			return nil, fmt.Errorf("load redis: %w", err)
		}
		packed, err := PackScore(score, reachedAt.Unix()-set.MonthStartsUnix)
		if err != nil {
			return nil, fmt.Errorf("load redis: player %s: %w", id, err)
		}
		members = append(members, redis.Z{Score: packed, Member: id})
		names = append(names, id, name)
		set.Members++
		if len(members) == loadChunk {
			if err := flush(false); err != nil {
				return nil, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load redis: %w", err)
	}
	if err := flush(true); err != nil {
		return nil, err
	}
	if n, err := client.ZCard(ctx, set.Key).Result(); err != nil || n != int64(set.Members) {
		return nil, fmt.Errorf("load redis: sorted set holds %d members, want %d (%v)", n, set.Members, err)
	}
	return set, nil
}

// RedisStanding returns, for each client of a load, an Op that reads the
// standing of a player drawn by pick the way the Redis design does, in
// three round trips: ZREVRANK with ZCARD (pipelined), then ZREVRANGE of
// rank−10..rank+10 with scores, then one HMGET of the 21 names; it checks
// the window's size, the player's place in it and the names.
func (s *SortedSet) RedisStanding(pick Picker) Workload {
	return func(run, client int) Op {
		rng := rand.New(rand.NewPCG(uint64(run)<<32|uint64(client), 4))
		return func(ctx context.Context) error {
			player := pick(rng)
			pipe := s.client.Pipeline()
			rankCmd, totalCmd := pipe.ZRevRank(ctx, s.Key, player), pipe.ZCard(ctx, s.Key)
			if _, err := pipe.Exec(ctx); err != nil {
				return fmt.Errorf("redis rank of %s: %w", player, err)
			}
			rank, total := rankCmd.Val(), totalCmd.Val()
			from := max(rank-Neighbours, 0)
			window, err := s.client.ZRevRangeWithScores(ctx, s.Key, from, rank+Neighbours).Result()
			if err != nil {
				return fmt.Errorf("redis window of %s: %w", player, err)
			}
			if want := rank - from + 1 + min(Neighbours, total-1-rank); int64(len(window)) != want {
				return fmt.Errorf("redis window of %s at %d of %d: %d entries, want %d", player, rank, total, len(window), want)
			}
			if window[rank-from].Member != player {
				return fmt.Errorf("redis window of %s: %v in its place", player, window[rank-from].Member)
			}
			ids := make([]string, len(window))
			for i, z := range window {
				ids[i] = z.Member.(string)
			}
			names, err := s.client.HMGet(ctx, s.NamesKey, ids...).Result()
			if err != nil {
				return fmt.Errorf("redis names around %s: %w", player, err)
			}
			for i, name := range names {
				if name, ok := name.(string); !ok || name == "" {
					return fmt.Errorf("redis names around %s: none for %s", player, ids[i])
				}
			}
			return nil
		}
	}
}
