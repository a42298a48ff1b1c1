-- Gives the wide boards' uncrowded level-8 buckets their level-0 counters
-- back, counted from the rows (the crowded buckets kept theirs), and
-- own_final_ranks the rank of migration 33.
INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
SELECT s.period_id, 0::smallint, s.sort_score - o.origin, 0::bigint, count(*)
FROM board_scores s
JOIN periods p ON p.id = s.period_id
JOIN boards b ON b.id = p.board_id
CROSS JOIN LATERAL (SELECT CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END) AS o(origin)
WHERE (b.max_score::bigint - b.min_score) >> 16 > 0
	AND EXISTS (SELECT FROM period_rank_counts c WHERE c.period_id = s.period_id)
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
ON CONFLICT (period_id, level, bucket, sub) DO NOTHING;

CREATE OR REPLACE FUNCTION own_final_ranks(p_period INTEGER, p_players TEXT[]) RETURNS SETOF board_final_ranks
    LANGUAGE sql STABLE
AS $$
SELECT f.* FROM periods p
JOIN boards b ON b.id = p.board_id
CROSS JOIN LATERAL (SELECT CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END) AS o(origin)
CROSS JOIN LATERAL (SELECT s.*, floor(extract(EPOCH FROM reached_at) / 3600)::int AS hour,
	to_timestamp(floor(extract(EPOCH FROM reached_at) / 3600) * 3600) AS hour_start
	FROM board_scores s WHERE s.period_id = p.id AND s.player_id = ANY(p_players)) AS me
CROSS JOIN LATERAL (SELECT f.* FROM board_final_ranks f
	WHERE f.bucket = DATE '0001-01-01' AND f.period_id = p.id AND f.player_id = me.player_id AND f.rank = (1
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = 24 AND bucket >= 0 AND bucket < (me.sort_score - o.origin) >> 24)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = 16 AND bucket >= ((me.sort_score - o.origin) >> 24) << 8 AND bucket < (me.sort_score - o.origin) >> 16)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = 8 AND bucket >= ((me.sort_score - o.origin) >> 16) << 8 AND bucket < (me.sort_score - o.origin) >> 8)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = 0 AND bucket >= ((me.sort_score - o.origin) >> 8) << 8 AND bucket < (me.sort_score - o.origin) >> 0)
	+ (SELECT CASE WHEN z.players > 32 THEN (0
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = -2 AND bucket = (me.sort_score - o.origin) AND sub < (CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 24)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = -3 AND bucket = (me.sort_score - o.origin) AND sub >= ((CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 24) << 8 AND sub < (CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 16)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = -4 AND bucket = (me.sort_score - o.origin) AND sub >= ((CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 16) << 8 AND sub < (CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 8)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = -5 AND bucket = (me.sort_score - o.origin) AND sub >= ((CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 8) << 8 AND sub < (CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) >> 0)
	+ (SELECT COALESCE(sum(players), 0) FROM period_rank_counts
		WHERE period_id = me.period_id AND level = -1 AND bucket = (me.sort_score - o.origin) AND sub >= (CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) << 27 AND sub < ((CASE WHEN me.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE me.sort_subscore + 2147483648 END) << 27 | (me.hour::bigint + 33554432)))
	+ (SELECT count(*) FROM board_scores s
		WHERE s.period_id = me.period_id AND s.sort_score = me.sort_score AND s.sort_subscore = me.sort_subscore
			AND s.reached_at >= me.hour_start AND (s.reached_at, s.seq) < (me.reached_at, me.seq)))
		ELSE (SELECT count(*) FROM board_scores s
		WHERE s.period_id = me.period_id AND s.sort_score = me.sort_score
			AND (s.sort_subscore, s.reached_at, s.seq) < (me.sort_subscore, me.reached_at, me.seq)) END FROM (SELECT COALESCE(sum(players), 0) AS players FROM period_rank_counts
		WHERE period_id = me.period_id AND level = 0 AND bucket = (me.sort_score - o.origin)) AS z))
	LIMIT 1) AS f
WHERE p.id = p_period AND p.final_bucket = DATE '0001-01-01'
$$;
