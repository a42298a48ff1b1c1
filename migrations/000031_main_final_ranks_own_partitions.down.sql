-- main's closed months back in final_ranks (migration 1): each month's
-- partition of its own of board_final_ranks_own is detached, takes month
-- again and loses board_final_ranks' columns, gets the primary key (month,
-- rank) and the name final_ranks_YYYY_MM_v<ranks_version>, and is
-- attached to final_ranks. A board's period of its own keeps its
-- partition, under its first name, which the code before this migration
-- reads and corrects in place.
CREATE TABLE final_ranks (
    month      DATE NOT NULL,
    rank       INTEGER NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL,
    score      INTEGER NOT NULL,
    reached_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (month, rank)
) PARTITION BY LIST (month);

DO $$
DECLARE
    v_part    regclass;
    v_month   date;
    v_id      integer;
    v_version integer;
    v_board   text;
BEGIN
    FOR v_part, v_id, v_board, v_month, v_version IN
        SELECT c.oid::regclass, p.id, p.board_id, CASE WHEN p.board_id = 'main' THEN to_date(p.key, 'YYYY-MM') END,
            p.ranks_version
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN periods p ON pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES IN (%s)', p.id)
        WHERE i.inhparent = 'board_final_ranks_own'::regclass
        ORDER BY p.id
    LOOP
        IF v_board <> 'main' THEN
            IF v_part::text <> format('board_final_ranks_own_%s', v_id) THEN
                EXECUTE format('ALTER TABLE %s RENAME TO %I', v_part, format('board_final_ranks_own_%s', v_id));
            END IF;
            CONTINUE;
        END IF;
        EXECUTE format('ALTER TABLE board_final_ranks_own DETACH PARTITION %s', v_part);
        -- Dropping bucket and period_id drops their CHECK and the key.
        EXECUTE format('ALTER TABLE %s
                ADD COLUMN month DATE NOT NULL DEFAULT %L,
                DROP COLUMN bucket,
                DROP COLUMN period_id,
                DROP COLUMN subscore,
                DROP COLUMN metadata,
                DROP COLUMN cohort_rank,
                DROP COLUMN cohort_size,
                DROP COLUMN next_league,
                ADD CHECK (month = %L),
                ADD PRIMARY KEY (month, rank)', v_part, v_month, v_month);
        EXECUTE format('ALTER TABLE %s ALTER COLUMN month DROP DEFAULT', v_part);
        EXECUTE format('ALTER TABLE %s RENAME TO %I', v_part,
            format('final_ranks_%s_v%s', to_char(v_month, 'YYYY_MM'), v_version));
        EXECUTE format('ANALYZE %I', format('final_ranks_%s_v%s', to_char(v_month, 'YYYY_MM'), v_version));
        EXECUTE format('ALTER TABLE final_ranks ATTACH PARTITION %I FOR VALUES IN (%L)',
            format('final_ranks_%s_v%s', to_char(v_month, 'YYYY_MM'), v_version), v_month);
        UPDATE periods p SET final_bucket = NULL WHERE p.id = v_id;
    END LOOP;
END $$;
