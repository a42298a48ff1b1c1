DROP FUNCTION claim_board_rewards(TEXT[], TEXT[], TEXT[], TEXT[], TIMESTAMPTZ);

-- As migration 13 made it.
CREATE FUNCTION claim_board_reward(p_board TEXT, p_key TEXT, p_player TEXT, p_claim TEXT, p_now TIMESTAMPTZ,
        OUT status TEXT, OUT starts_at TIMESTAMPTZ, OUT claim_id TEXT, OUT claimed_at TIMESTAMPTZ,
        OUT rank INTEGER, OUT score INTEGER, OUT subscore INTEGER, OUT tier TEXT, OUT participants INTEGER,
        OUT reached_at TIMESTAMPTZ, OUT player_name TEXT)
    RETURNS SETOF RECORD
    LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    v_id     INTEGER;
    v_bucket DATE;
BEGIN
    SELECT p.status, p.starts_at INTO status, starts_at FROM periods p WHERE p.board_id = p_board AND p.key = p_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF status <> 'CLOSED' THEN
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT p.id, p.status, COALESCE(p.participants, 0), p.final_bucket, p.starts_at
        INTO v_id, status, participants, v_bucket, starts_at
        FROM periods p WHERE p.board_id = p_board AND p.key = p_key FOR SHARE;
    IF NOT FOUND THEN
        RETURN; -- retention dropped it while the claim waited
    END IF;
    IF status <> 'CLOSED' THEN
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_bucket IS NULL THEN
        RAISE EXCEPTION 'period % is CLOSED with no final ranks', v_id;
    END IF;
    INSERT INTO claims AS c (board_id, period_key, player_id, claim_id, claimed_at, rank, score, subscore,
            tier, participants, reached_at, period_id)
        SELECT p_board, p_key, p_player, p_claim, p_now, f.rank, f.score, f.subscore,
            (SELECT t.tier->>'name' FROM boards b, jsonb_array_elements(b.tiers) WITH ORDINALITY AS t (tier, i)
                WHERE b.id = p_board AND participants > 0 AND f.rank > 0
                    AND (t.tier->>'topPercent')::float8 >= 100 * f.rank::float8 / participants::float8
                ORDER BY t.i LIMIT 1),
            participants, f.reached_at, v_id
        FROM board_final_ranks f WHERE f.bucket = v_bucket AND f.period_id = v_id AND f.player_id = p_player
        ON CONFLICT ON CONSTRAINT claims_pkey DO NOTHING
        RETURNING c.claim_id, c.claimed_at, c.rank, c.score, c.subscore, c.tier, c.participants, c.reached_at
        INTO claim_id, claimed_at, rank, score, subscore, tier, participants, reached_at;
    IF NOT FOUND THEN
        -- Another claim holds the standing, or the player has none.
        SELECT c.claim_id, c.claimed_at, c.rank, c.score, c.subscore, c.tier, c.participants, c.reached_at
            INTO claim_id, claimed_at, rank, score, subscore, tier, participants, reached_at
            FROM claims c WHERE c.board_id = p_board AND c.period_key = p_key AND c.player_id = p_player;
    END IF;
    IF claim_id IS NOT NULL THEN
        SELECT pl.name INTO player_name FROM players pl WHERE pl.id = p_player;
    END IF;
    RETURN NEXT;
END
$$;
