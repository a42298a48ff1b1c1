-- claimReward of boards other than main, many claims in one call (db/claims.go).
--
-- Concurrent claims share a transaction (db/claims.go merges them as
-- submissions are merged). claim_board_reward (migration 13), called once a
-- claim, ran six statements a claim, and the read of the final rank, over the
-- partitioned board_final_ranks, was planned again at each call: a third of
-- the server's time went to planning. claim_board_rewards takes the claims of
-- a transaction as arrays and runs the same statements once a period: the
-- period's row read, then FOR SHARE when CLOSED, one INSERT of the claims of
-- all its players, one read of their claims.
--
-- The order within a period is claim_board_reward's, so a claim holds what a
-- claim alone holds: the row is taken FOR SHARE (a correction or retention
-- takes it FOR UPDATE) before the final ranks are read, and each statement of
-- a VOLATILE plpgsql function takes a new snapshot under READ COMMITTED, so
-- the ranks read after the lock are those of a correction that committed
-- while the claims waited for it, and the read after the insert sees the
-- claims a concurrent transaction committed while the insert waited for its
-- key. A period not yet CLOSED is answered without the lock.
--
-- The periods are taken in the order of (board, key), and the claims of a
-- period in the order given (the caller's: by player), the same order in
-- every transaction: one that waits for another's insert of a key never holds
-- a key that the other waits for. Two claims of the same key in one call are
-- decided as two calls would decide them: the first inserts, the second
-- finds its row.
--
-- Each claim's final rank and claim are probes by key, a LATERAL subquery
-- each: its LIMIT 1 keeps the planner from joining the claims to a range of
-- the period's claims or final ranks, which the statistics of a table
-- analyzed before the claims began make look cheap, and which grows with
-- every claim. The read of the claims is planned at each call (EXECUTE): a
-- plan the function kept from when the claims table was small (a scan of
-- it) cost a scan of the whole table a claim until autovacuum analyzed it,
-- up to a millisecond a claim in the bench's first 50,000 claims.
--
-- One row a claim whose period has a row: its ordinal in the arrays, the
-- period's status, and the claim when there is one (claim_id NULL: none, the
-- period is not CLOSED or the player has no final standing). No row for a
-- claim whose period has none.
CREATE FUNCTION claim_board_rewards(p_boards TEXT[], p_keys TEXT[], p_players TEXT[], p_claims TEXT[],
        p_now TIMESTAMPTZ,
        OUT i BIGINT, OUT status TEXT, OUT starts_at TIMESTAMPTZ, OUT claim_id TEXT, OUT claimed_at TIMESTAMPTZ,
        OUT rank INTEGER, OUT score INTEGER, OUT subscore INTEGER, OUT tier TEXT, OUT participants INTEGER,
        OUT reached_at TIMESTAMPTZ, OUT player_name TEXT)
    RETURNS SETOF RECORD
    LANGUAGE plpgsql VOLATILE
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
        SELECT p.status, p.starts_at INTO v_status, v_starts FROM periods p WHERE p.board_id = v_board AND p.key = v_key;
        IF NOT FOUND THEN
            CONTINUE;
        END IF;
        IF v_status = 'CLOSED' THEN
            SELECT p.id, p.status, COALESCE(p.participants, 0), p.final_bucket, p.starts_at
                INTO v_id, v_status, v_count, v_bucket, v_starts
                FROM periods p WHERE p.board_id = v_board AND p.key = v_key FOR SHARE;
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
                (SELECT t.tier->>'name' FROM boards b, jsonb_array_elements(b.tiers) WITH ORDINALITY AS t (tier, n)
                    WHERE b.id = v_board AND v_count > 0 AND f.rank > 0
                        AND (t.tier->>'topPercent')::float8 >= 100 * f.rank::float8 / v_count::float8
                    ORDER BY t.n LIMIT 1),
                v_count, f.reached_at, v_id
            FROM unnest(p_boards, p_keys, p_players, p_claims) WITH ORDINALITY AS c (board, key, player, claim, i)
            CROSS JOIN LATERAL (SELECT f.rank, f.score, f.subscore, f.reached_at FROM board_final_ranks f
                WHERE f.bucket = v_bucket AND f.period_id = v_id AND f.player_id = c.player LIMIT 1) f
            WHERE c.board = v_board AND c.key = v_key
            ORDER BY c.i
            ON CONFLICT ON CONSTRAINT claims_pkey DO NOTHING;
        RETURN QUERY EXECUTE $q$SELECT c.i, $3, $4, cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore,
                cl.tier, cl.participants, cl.reached_at,
                CASE WHEN cl.claim_id IS NOT NULL THEN (SELECT pl.name FROM players pl WHERE pl.id = c.player) END
            FROM unnest($5::TEXT[], $6::TEXT[], $7::TEXT[]) WITH ORDINALITY AS c (board, key, player, i)
            LEFT JOIN LATERAL (SELECT cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore, cl.tier,
                    cl.participants, cl.reached_at FROM claims cl
                WHERE cl.board_id = $1 AND cl.period_key = $2 AND cl.player_id = c.player LIMIT 1) cl ON true
            WHERE c.board = $1 AND c.key = $2$q$
            USING v_board, v_key, v_status, v_starts, p_boards, p_keys, p_players;
    END LOOP;
END
$$;

DROP FUNCTION claim_board_reward(TEXT, TEXT, TEXT, TEXT, TIMESTAMPTZ);
