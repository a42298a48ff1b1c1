-- claim_board_rewards as migration 25 made it.
CREATE OR REPLACE FUNCTION claim_board_rewards(p_boards TEXT[], p_keys TEXT[], p_players TEXT[], p_claims TEXT[],
        p_now TIMESTAMPTZ,
        OUT i BIGINT, OUT status TEXT, OUT starts_at TIMESTAMPTZ, OUT claim_id TEXT, OUT claimed_at TIMESTAMPTZ,
        OUT rank INTEGER, OUT score INTEGER, OUT subscore INTEGER, OUT tier TEXT, OUT participants INTEGER,
        OUT reached_at TIMESTAMPTZ, OUT player_name TEXT)
    RETURNS SETOF RECORD
    LANGUAGE plpgsql VOLATILE
    SET enable_seqscan = off
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
                WHERE f.bucket = v_bucket AND f.period_id = v_id AND f.player_id = c.player LIMIT 1) f
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

DROP FUNCTION own_final_ranks(INTEGER, TEXT[]);
DROP INDEX periods_own_final_ranks_idx;

-- The player index on the parent again, on every partition: each month's
-- partition's own player index is attached to it as it is, and it is built
-- on each partition of board_final_ranks_own (a large period's ranks: the
-- down migration's cost).
CREATE INDEX board_final_ranks_player_idx ON board_final_ranks (player_id, period_id);
