-- Every score of every period keeps its tie cells and subscore levels
-- again: those of the wide boards' scores held by 32 players or fewer are
-- counted from their rows, as db.FillRankCounts counted them before
-- migration 33 (the tie cell's sub is the subscore key shifted left 27
-- bits beside the hour since 1970 plus 2^25; the subscore key is the sort
-- subscore plus 2^31, or 2^32 + 1 for none).
INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
SELECT z.period_id, x.level, z.bucket, x.sub, count(*)
FROM (
	SELECT z.period_id, z.bucket, b.tiebreak <> 'NONE' AS subscores,
		CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END AS origin
	FROM period_rank_counts z
	JOIN periods p ON p.id = z.period_id
	JOIN boards b ON b.id = p.board_id
	WHERE z.level = 0 AND z.sub = 0 AND z.players <= 32 AND (b.max_score::bigint - b.min_score) >> 16 > 0
) AS z
JOIN board_scores r ON r.period_id = z.period_id AND r.sort_score = z.bucket + z.origin
CROSS JOIN LATERAL (SELECT CASE WHEN r.sort_subscore = 9223372036854775807 THEN 4294967297
	ELSE r.sort_subscore + 2147483648 END) AS k(key)
CROSS JOIN LATERAL (
	SELECT -1::smallint, k.key << 27 | (floor(extract(EPOCH FROM r.reached_at) / 3600)::bigint + 33554432)
	UNION ALL SELECT -2::smallint, k.key >> 24 WHERE z.subscores
	UNION ALL SELECT -3::smallint, k.key >> 16 WHERE z.subscores
	UNION ALL SELECT -4::smallint, k.key >> 8 WHERE z.subscores
	UNION ALL SELECT -5::smallint, k.key WHERE z.subscores
) AS x(level, sub)
GROUP BY 1, 2, 3, 4
ON CONFLICT (period_id, level, bucket, sub) DO UPDATE SET players = EXCLUDED.players;

-- own_final_ranks reads the rank as migration 29 wrote it.
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
	LIMIT 1) AS f
WHERE p.id = p_period AND p.final_bucket = DATE '0001-01-01'
$$;
