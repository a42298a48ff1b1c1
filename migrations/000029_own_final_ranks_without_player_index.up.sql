-- A large period's final ranks in a partition of their own lose the
-- player index (player_id, period_id) that migration 12 made on the parent
-- board_final_ranks, so that every partition had it. Building it was
-- about 20 of the 30 s a ten-million-player close spent indexing its own
-- partition (docs/PERFORMANCE.md, "own partitions without the player
-- index"). The partitions of the months (buckets shared by many small
-- periods) keep it, as an index of each partition rather than of the
-- parent: ensureFinalRanksPartition (db/periodclose.go) makes it with each
-- new one.
--
-- A player's row in an own partition is found as main's closed months find
-- it (migration 6): the player's board_scores row by its primary key, their
-- rank from the period's counters as a live rank is read (a CLOSED
-- period's scores and counters stay as its final ranks were built from
-- them: a correction changes them together), then the row by the primary
-- key (bucket, period_id, rank). own_final_ranks does that for a set of
-- players of one period; its rank is db.periodRankSQL of every level
-- (everyShape), which TestOwnFinalRanksFunction holds equal.
--
-- What this costs on upgrade: no index is built. Each month's partition is
-- detached (its indexes become its own), the parent's player index dropped
-- (with its indexes on board_final_ranks_own's partitions: catalogue work),
-- and the partition attached again: ATTACH adopts its primary key into the
-- parent's and keeps its player index as its own, and checks its rows
-- against the partition's bound, one sequential scan of the partition,
-- under the lock the migration holds: 1.5 s in all on the shared 2-core
-- machine for a month's partition of 5,027,000 rows (744 MB), 33 small
-- ones and a 1M-player period's own (docs/PERFORMANCE.md).
DO $$
DECLARE
    parts  regclass[];
    bounds text[];
BEGIN
    SELECT COALESCE(array_agg(c.oid::regclass ORDER BY c.relname), '{}'),
            COALESCE(array_agg(pg_get_expr(c.relpartbound, c.oid) ORDER BY c.relname), '{}')
        INTO parts, bounds
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'board_final_ranks'::regclass AND c.relname <> 'board_final_ranks_own';
    FOR n IN 1 .. cardinality(parts) LOOP
        EXECUTE format('ALTER TABLE board_final_ranks DETACH PARTITION %s', parts[n]);
    END LOOP;
    DROP INDEX board_final_ranks_player_idx;
    FOR n IN 1 .. cardinality(parts) LOOP
        EXECUTE format('ALTER TABLE board_final_ranks ATTACH PARTITION %s %s', parts[n], bounds[n]);
    END LOOP;
END $$;

-- The periods whose final ranks have a partition of their own: few (a
-- period of 100,000 players or more, closed on its own), each probed by
-- unclaimedRewards and an erasure for the player's scores row.
CREATE INDEX periods_own_final_ranks_idx ON periods (id) WHERE final_bucket = DATE '0001-01-01';

-- The final rows of players $2 in period $1, whose final ranks have a
-- partition of their own, found by rank: a player without a scores row in
-- the period has none. Inlined into the statement that calls it; the LIMIT
-- keeps the row's read a probe of the primary key for each player (joined
-- instead, the planner merged the partition's million rows with them).
-- The function is new here, so the down migration drops it.
CREATE FUNCTION own_final_ranks(p_period INTEGER, p_players TEXT[]) RETURNS SETOF board_final_ranks
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

-- A claim of a period whose final ranks have a partition of their own
-- finds the player's row with own_final_ranks; any other, as migration 25
-- did, by the player index of its month's partition. Its statements run
-- with the plan made once a connection (plan_cache_mode), as migration 15
-- meant them to: left to choose, PostgreSQL costed the generic plan of the
-- claims' INSERT, which reaches every partition of board_final_ranks until
-- the executor prunes them, above a plan for the one partition, and planned
-- it again at each call: in one transaction on the bench's database (a
-- 1M-player period of its own, 1,000 small ones), 1.59 ms a claim of a small
-- period and 3.66 of the large one, against 0.34-0.37 and 0.37-0.50 with
-- the plan kept.
CREATE OR REPLACE FUNCTION claim_board_rewards(p_boards TEXT[], p_keys TEXT[], p_players TEXT[], p_claims TEXT[],
        p_now TIMESTAMPTZ,
        OUT i BIGINT, OUT status TEXT, OUT starts_at TIMESTAMPTZ, OUT claim_id TEXT, OUT claimed_at TIMESTAMPTZ,
        OUT rank INTEGER, OUT score INTEGER, OUT subscore INTEGER, OUT tier TEXT, OUT participants INTEGER,
        OUT reached_at TIMESTAMPTZ, OUT player_name TEXT)
    RETURNS SETOF RECORD
    LANGUAGE plpgsql VOLATILE
    SET enable_seqscan = off
    SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_board  TEXT;
    v_key    TEXT;
    v_status TEXT;
    v_starts TIMESTAMPTZ;
    v_id     INTEGER;
    v_count  INTEGER;
    v_bucket DATE;
BEGIN
    FOR v_board, v_key IN
        SELECT DISTINCT c.board COLLATE "C", c.key COLLATE "C" FROM unnest(p_boards, p_keys) AS c (board, key)
        ORDER BY 1, 2
    LOOP
        SELECT p.id, p.status, p.starts_at INTO v_id, v_status, v_starts
            FROM periods p WHERE p.board_id = v_board AND p.key = v_key;
        IF NOT FOUND THEN
            CONTINUE;
        END IF;
        IF v_status = 'CLOSED' THEN
            -- The period's claims lock, shared: db.periodClaimsLockClass
            -- (0x6c627263, "lbrc") and the period's id.
            PERFORM pg_advisory_xact_lock_shared(1818391139, v_id);
            SELECT p.status, COALESCE(p.participants, 0), p.final_bucket, p.starts_at
                INTO v_status, v_count, v_bucket, v_starts
                FROM periods p WHERE p.board_id = v_board AND p.id = v_id;
            IF NOT FOUND THEN
                CONTINUE; -- retention dropped it while the claims waited
            END IF;
        END IF;
        IF v_status <> 'CLOSED' THEN
            RETURN QUERY SELECT c.i, v_status, v_starts, NULL::TEXT, NULL::TIMESTAMPTZ, NULL::INTEGER, NULL::INTEGER,
                    NULL::INTEGER, NULL::TEXT, NULL::INTEGER, NULL::TIMESTAMPTZ, NULL::TEXT
                FROM unnest(p_boards, p_keys) WITH ORDINALITY AS c (board, key, i)
                WHERE c.board = v_board AND c.key = v_key;
            CONTINUE;
        END IF;
        IF v_bucket IS NULL THEN
            RAISE EXCEPTION 'period % is CLOSED with no final ranks', v_id;
        END IF;
        INSERT INTO claims AS cl (board_id, period_key, player_id, claim_id, claimed_at, rank, score, subscore,
                tier, participants, reached_at, period_id)
            SELECT v_board, v_key, c.player, c.claim, p_now, f.rank, f.score, f.subscore,
                (SELECT t.tier->>'name' FROM boards b
                    CROSS JOIN LATERAL (SELECT f.rank, v_count AS size WHERE b.cohort_size IS NULL
                        UNION ALL
                        SELECT f.cohort_rank, f.cohort_size WHERE b.cohort_size IS NOT NULL) r,
                    jsonb_array_elements(b.tiers) WITH ORDINALITY AS t (tier, n)
                    WHERE b.id = v_board AND r.size > 0 AND r.rank > 0
                        AND (t.tier->>'topPercent')::float8 >= 100 * r.rank::float8 / r.size::float8
                    ORDER BY t.n LIMIT 1),
                v_count, f.reached_at, v_id
            FROM unnest(p_boards, p_keys, p_players, p_claims) WITH ORDINALITY AS c (board, key, player, claim, i)
            CROSS JOIN LATERAL (SELECT f.rank, f.score, f.subscore, f.reached_at, f.cohort_rank, f.cohort_size
                FROM board_final_ranks f
                WHERE v_bucket <> DATE '0001-01-01'
                    AND f.bucket = v_bucket AND f.period_id = v_id AND f.player_id = c.player
                UNION ALL
                SELECT f.rank, f.score, f.subscore, f.reached_at, f.cohort_rank, f.cohort_size
                FROM own_final_ranks(v_id, ARRAY[c.player]) f
                WHERE v_bucket = DATE '0001-01-01'
                LIMIT 1) f
            WHERE c.board = v_board AND c.key = v_key
            ORDER BY c.i
            ON CONFLICT ON CONSTRAINT claims_pkey DO NOTHING;
        RETURN QUERY SELECT c.i, v_status, v_starts, cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore,
                cl.tier, cl.participants, cl.reached_at,
                CASE WHEN cl.claim_id IS NOT NULL THEN (SELECT pl.name FROM players pl WHERE pl.id = c.player) END
            FROM unnest(p_boards, p_keys, p_players) WITH ORDINALITY AS c (board, key, player, i)
            LEFT JOIN LATERAL (SELECT cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore, cl.tier,
                    cl.participants, cl.reached_at FROM claims cl
                WHERE cl.board_id = v_board AND cl.period_key = v_key AND cl.player_id = c.player LIMIT 1) cl ON true
            WHERE c.board = v_board AND c.key = v_key;
    END LOOP;
END
$$;
