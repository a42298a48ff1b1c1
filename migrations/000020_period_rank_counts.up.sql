-- Counters of every board period's live ranks, as score_block_counts and its
-- siblings (migration 2) are for main's months, in one shared table keyed by
-- the period's id. With u = sort_score - origin, where origin is the board's
-- best sort score: the players per bucket u >> level at levels 24, 16 and 8
-- (those the board's range needs) and 0 (one sort score), and at level -1 per
-- sort score (bucket u), sort subscore and hour of reached_at (sub: the
-- subscore plus 2^31, or 2^32 + 1 for none, shifted left by 27, or the hour
-- plus 2^25). A live rank is a sum over a few hundred counters at most
-- instead of a count over every better row. Every writer of board_scores
-- keeps them in step in its transaction. See db/rankcounts.go.
-- No row may change while they are counted: a write committed after the
-- count's snapshot would never be counted. (An instance of an older version
-- writes rows without counters at all: every instance is stopped before the
-- upgrade, see the README.)
LOCK TABLE board_scores IN SHARE MODE;

CREATE TABLE period_rank_counts (
    period_id INTEGER NOT NULL,
    level     SMALLINT NOT NULL,
    bucket    BIGINT NOT NULL,
    sub       BIGINT NOT NULL,
    players   INTEGER NOT NULL,
    PRIMARY KEY (period_id, level, bucket, sub)
) WITH (fillfactor = 50); -- room for HOT updates, as main's counters

INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
SELECT s.period_id, c.level, c.bucket, c.sub, count(*)
FROM board_scores s
JOIN periods p ON p.id = s.period_id
JOIN boards b ON b.id = p.board_id
CROSS JOIN LATERAL (
    SELECT CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END
) AS o(origin)
CROSS JOIN LATERAL (
    SELECT l.shift::smallint, (s.sort_score - o.origin) >> l.shift, 0::bigint
    FROM (VALUES (24), (16), (8), (0)) AS l(shift)
    WHERE l.shift = 0 OR (b.max_score::bigint - b.min_score) >> l.shift > 0
    UNION ALL
    SELECT -1::smallint, s.sort_score - o.origin,
        (CASE WHEN s.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE s.sort_subscore + 2147483648 END) << 27
        | (floor(extract(EPOCH FROM s.reached_at) / 3600)::bigint + 33554432)
) AS c(level, bucket, sub)
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4;
