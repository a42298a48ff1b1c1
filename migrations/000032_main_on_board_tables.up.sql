-- main's live rows join every other board's (issue 37: one set of tables).
-- Each month's scores (open and closed months alike) become rows of
-- board_scores for the month's period (migration 28), its score events rows
-- of board_score_events, and its counters are rebuilt as period_rank_counts;
-- scores, score_events (with their month partitions) and main's three
-- counter tables (migration 2) go. score_seq stays: board_scores' seq comes
-- from it too. No function, trigger or view names the dropped tables.
--
-- main is DESC, 0..10000, with no tie-break, so a row's sort key
-- (leaderboard.Board.SortKey) is (-score, 0) and it keeps no subscore; its
-- counters (rankLevelsOf) have the origin -10000, the levels 8 and 0 and the
-- tie cells, exactly what db.FillRankCounts writes for these periods: its
-- statement below, with levelShifts {24, 16, 8, 0} and subscoreShifts
-- {24, 16, 8, 0} (the subscore levels, on a board with a tie-break only)
-- written out.
--
-- What this costs on upgrade: one read of main's month tables to copy them,
-- one more to count the tie cells, and the indexes of what was copied into.
-- When main's rows outnumber those already in board_scores (the usual
-- case: main is the big board), its indexes and its foreign key to players
-- are dropped and made again after the copy, one sort each and one join,
-- instead of ten million inserts into an index at random places and ten
-- million row checks that also lock each player's row; the same for
-- board_score_events and main's events. Otherwise the rows go in in primary
-- key order with the indexes in place. The service is stopped meanwhile
-- (README, "Upgrading"); every lock is taken first.
SET LOCAL maintenance_work_mem = '2GB';
SET LOCAL work_mem = '512MB';

LOCK TABLE scores, score_events, score_counts, score_block_counts, score_hour_counts,
    board_scores, board_score_events, period_rank_counts IN ACCESS EXCLUSIVE MODE;

DO $$
DECLARE
    v_table TEXT;
    v_month DATE;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM boards b WHERE b.id = 'main' AND b.sort_order = 'DESC' AND b.min_score = 0
            AND b.max_score = 10000 AND b.tiebreak = 'NONE') THEN
        RAISE EXCEPTION 'the board main is not DESC, 0..10000, without a tie-break: its sort keys are not (-score, 0)';
    END IF;
    FOR v_table, v_month IN
        SELECT c.oid::regclass::text, substring(pg_get_expr(c.relpartbound, c.oid) FROM '''([0-9-]+)''')::date
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('scores'::regclass, 'score_events'::regclass)
    LOOP
        IF NOT EXISTS (SELECT 1 FROM periods p WHERE p.board_id = 'main' AND p.key = to_char(v_month, 'YYYY-MM')) THEN
            RAISE EXCEPTION 'partition % of month % has no period of main', v_table, v_month;
        END IF;
    END LOOP;
END $$;

CREATE TEMPORARY TABLE main_months ON COMMIT DROP AS
SELECT p.id, to_date(p.key, 'YYYY-MM') AS month FROM periods p WHERE p.board_id = 'main';
-- Without statistics the planner guessed thousands of months, joined them
-- to the partitions' primary keys and sorted the rows to disk.
ANALYZE main_months;

-- The estimates of the last ANALYZE (the seed and the close analyze what
-- they write; autovacuum the rest) are enough to choose.
CREATE TEMPORARY TABLE main_rebuilds ON COMMIT DROP AS
SELECT (SELECT COALESCE(sum(GREATEST(c.reltuples, 0)), 0) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'scores'::regclass)
           >= (SELECT GREATEST(reltuples, 0) FROM pg_class WHERE oid = 'board_scores'::regclass) AS scores,
       (SELECT COALESCE(sum(GREATEST(c.reltuples, 0)), 0) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'score_events'::regclass)
           >= (SELECT GREATEST(reltuples, 0) FROM pg_class WHERE oid = 'board_score_events'::regclass) AS events;

-- Without its indexes, board_scores takes the rows as they come; with them,
-- in primary key order, so that its pages are filled one after the other.
DO $$
BEGIN
    IF (SELECT scores FROM main_rebuilds) THEN
        ALTER TABLE board_scores DROP CONSTRAINT board_scores_pkey, DROP CONSTRAINT board_scores_player_id_fkey;
        DROP INDEX board_scores_rank_idx;
        INSERT INTO board_scores (period_id, player_id, score, subscore, sort_score, sort_subscore, reached_at, seq,
                                  metadata)
        SELECT m.id, s.player_id, s.score, NULL, -s.score::bigint, 0, s.reached_at, s.seq, NULL
        FROM scores s JOIN main_months m ON m.month = s.month;
        ALTER TABLE board_scores ADD CONSTRAINT board_scores_pkey PRIMARY KEY (period_id, player_id);
        CREATE INDEX board_scores_rank_idx ON board_scores (period_id, sort_score, sort_subscore, reached_at, seq)
            INCLUDE (player_id);
        ALTER TABLE board_scores
            ADD CONSTRAINT board_scores_player_id_fkey FOREIGN KEY (player_id) REFERENCES players (id);
    ELSE
        INSERT INTO board_scores (period_id, player_id, score, subscore, sort_score, sort_subscore, reached_at, seq,
                                  metadata)
        SELECT m.id, s.player_id, s.score, NULL, -s.score::bigint, 0, s.reached_at, s.seq, NULL
        FROM scores s JOIN main_months m ON m.month = s.month
        ORDER BY m.id, s.player_id;
    END IF;

    IF (SELECT events FROM main_rebuilds) THEN
        ALTER TABLE board_score_events DROP CONSTRAINT board_score_events_pkey;
        DROP INDEX board_score_events_period_idx;
        INSERT INTO board_score_events (board_id, event_id, period_id, player_id, mode, value, subscore, occurred_at,
                                        received_at, status, old_score, new_score)
        SELECT 'main', e.event_id, m.id, e.player_id, e.mode, e.value, NULL, e.occurred_at, e.received_at, e.status,
               e.old_score, e.new_score
        FROM score_events e JOIN main_months m ON m.month = e.month;
        ALTER TABLE board_score_events ADD CONSTRAINT board_score_events_pkey PRIMARY KEY (board_id, event_id);
        CREATE INDEX board_score_events_period_idx ON board_score_events (period_id);
    ELSE
        INSERT INTO board_score_events (board_id, event_id, period_id, player_id, mode, value, subscore, occurred_at,
                                        received_at, status, old_score, new_score)
        SELECT 'main', e.event_id, m.id, e.player_id, e.mode, e.value, NULL, e.occurred_at, e.received_at, e.status,
               e.old_score, e.new_score
        FROM score_events e JOIN main_months m ON m.month = e.month
        ORDER BY e.event_id;
    END IF;
END $$;

-- db.FillRankCounts' statement over main's periods, fed with the month
-- tables' rows summed per tie cell (period, sort key, hour) first, so that
-- its levels are worked out per cell rather than per row. The hour is
-- grouped on as the UTC timestamp of its start, floor(epoch / 3600) hours
-- exactly, a cheaper key than that numeric (20 % less). Summing twenty
-- million rows, one at a time (INSERT runs no parallel plan), is most of
-- this statement's 80 s; the counters' own levels are a few seconds.
INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
SELECT s.period_id, c.level, c.bucket, c.sub, sum(s.players)
FROM (SELECT m.id AS period_id, -s.score::bigint AS sort_score, 0::bigint AS sort_subscore,
             date_trunc('hour', s.reached_at AT TIME ZONE 'UTC') AS hour_start, count(*) AS players
      FROM scores s JOIN main_months m ON m.month = s.month
      GROUP BY 1, 2, 3, 4) AS s
CROSS JOIN LATERAL (SELECT floor(extract(EPOCH FROM s.hour_start) / 3600)) AS h(hour)
JOIN periods p ON p.id = s.period_id
JOIN boards b ON b.id = p.board_id
CROSS JOIN LATERAL (SELECT CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END)
    AS o(origin)
CROSS JOIN LATERAL (
    SELECT l.shift::smallint, (s.sort_score - o.origin) >> l.shift, 0::bigint
    FROM unnest(ARRAY[24, 16, 8, 0]) AS l(shift)
    WHERE l.shift = 0 OR (b.max_score::bigint - b.min_score) >> l.shift > 0
    UNION ALL
    SELECT -1::smallint, s.sort_score - o.origin,
        ((CASE WHEN s.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE s.sort_subscore + 2147483648 END) << 27
            | (h.hour::bigint + 33554432))
    UNION ALL
    SELECT (-1 - l.i)::smallint, s.sort_score - o.origin,
        (CASE WHEN s.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE s.sort_subscore + 2147483648 END) >> l.shift
    FROM unnest(ARRAY[24, 16, 8, 0]) WITH ORDINALITY AS l(shift, i)
    WHERE b.tiebreak <> 'NONE'
) AS c(level, bucket, sub)
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4;

DROP TABLE scores, score_events, score_counts, score_block_counts, score_hour_counts;

ANALYZE board_scores, board_score_events, period_rank_counts;
