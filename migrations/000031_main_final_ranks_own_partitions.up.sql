-- One table of final ranks for every board (issue 37): each closed month
-- of main, whose final ranks were its partition of final_ranks (migration
-- 1), becomes a partition of its own of board_final_ranks, under
-- board_final_ranks_own (migration 27), for the month's period (migration
-- 28). Its table is kept, not copied: detached from final_ranks, it takes
-- board_final_ranks' columns (bucket and period_id, constant; subscore,
-- metadata and the cohort results of migration 25, NULL), loses month, and
-- its primary key becomes board_final_ranks' (bucket, period_id, rank), a
-- CHECK on bucket and period_id sparing ATTACH a second scan, as the close
-- makes one (createOwnFinalRanks in db/periodclose.go). final_ranks goes.
--
-- A partition of its own is named for its period and the version of its
-- ranks (periods.ranks_version): board_final_ranks_own_<id> at version 1,
-- board_final_ranks_own_<id>_v<N> after a correction, which builds version
-- N beside the one in use and swaps them (db/periodclose.go,
-- ownPartition). A board's period of its own corrected before was
-- rewritten in place under its first name: it is renamed for its version.
--
-- What this costs on upgrade: no row is copied, and the new columns are
-- stored in the catalogue alone (a constant default, then none; NULL).
-- Each month's partition is read to check the CHECK, read and sorted to
-- build the new primary key, and analyzed, under the locks the migration
-- holds on final_ranks and board_final_ranks (every read of final ranks
-- waits): 11.7 and 13.0 s for a month of 1,000,000 players (87 MB) on the
-- shared 2-core machine under load (`leaderboard migrate up`, twice; the
-- down migration 11.9 s), so about two minutes for a month of ten million,
-- and that for each closed month kept. The service is stopped meanwhile
-- (README, "Upgrading").
DO $$
DECLARE
    v_part    regclass;
    v_month   date;
    v_id      integer;
    v_version integer;
    v_name    text;
BEGIN
    FOR v_part, v_month IN
        SELECT c.oid::regclass, substring(pg_get_expr(c.relpartbound, c.oid) FROM '''([0-9-]+)''')::date
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'final_ranks'::regclass
        ORDER BY 2
    LOOP
        SELECT p.id, p.ranks_version INTO v_id, v_version
            FROM periods p WHERE p.board_id = 'main' AND p.key = to_char(v_month, 'YYYY-MM');
        IF NOT FOUND THEN
            RAISE EXCEPTION 'the final ranks of month % have no period', v_month;
        END IF;
        v_name := CASE WHEN v_version > 1 THEN format('board_final_ranks_own_%s_v%s', v_id, v_version)
            ELSE format('board_final_ranks_own_%s', v_id) END;
        EXECUTE format('ALTER TABLE final_ranks DETACH PARTITION %s', v_part);
        -- Dropping month drops its CHECK and the primary key (month, rank).
        EXECUTE format('ALTER TABLE %s
                ADD COLUMN bucket DATE NOT NULL DEFAULT DATE ''0001-01-01'',
                ADD COLUMN period_id INTEGER NOT NULL DEFAULT %s,
                ADD COLUMN subscore INTEGER,
                ADD COLUMN metadata JSONB,
                ADD COLUMN cohort_rank INTEGER,
                ADD COLUMN cohort_size INTEGER,
                ADD COLUMN next_league SMALLINT,
                DROP COLUMN month,
                ADD CHECK (bucket = DATE ''0001-01-01'' AND period_id = %s),
                ADD PRIMARY KEY (bucket, period_id, rank)', v_part, v_id, v_id);
        EXECUTE format('ALTER TABLE %s ALTER COLUMN bucket DROP DEFAULT, ALTER COLUMN period_id DROP DEFAULT', v_part);
        EXECUTE format('ALTER TABLE %s RENAME TO %I', v_part, v_name);
        EXECUTE format('ANALYZE %I', v_name);
        EXECUTE format('ALTER TABLE board_final_ranks_own ATTACH PARTITION %I FOR VALUES IN (%s)', v_name, v_id);
        UPDATE periods p SET final_bucket = DATE '0001-01-01' WHERE p.id = v_id;
    END LOOP;

    FOR v_id, v_version IN
        SELECT p.id, p.ranks_version FROM periods p
        WHERE p.final_bucket = DATE '0001-01-01' AND p.board_id <> 'main' AND p.ranks_version > 1
    LOOP
        EXECUTE format('ALTER TABLE %I RENAME TO %I',
            format('board_final_ranks_own_%s', v_id), format('board_final_ranks_own_%s_v%s', v_id, v_version));
    END LOOP;
END $$;

DROP TABLE final_ranks;
