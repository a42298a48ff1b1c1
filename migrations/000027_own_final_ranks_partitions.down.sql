-- The final ranks of periods in partitions of their own back in the
-- partition of their month (finalBucket in db/periodclose.go: the UTC month
-- of the period's last instant, or the month it closed in for a NONE
-- board's period or one without an end).
CREATE TEMPORARY TABLE own_buckets AS
SELECT p.id, date_trunc('month', CASE WHEN b.reset <> 'NONE' AND p.ends_at IS NOT NULL
        THEN p.ends_at - interval '1 microsecond' ELSE p.closed_at END AT TIME ZONE 'UTC')::date AS bucket
FROM periods p JOIN boards b ON b.id = p.board_id
WHERE p.final_bucket = DATE '0001-01-01';

DO $$
DECLARE
    b date;
BEGIN
    FOR b IN SELECT DISTINCT bucket FROM own_buckets LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF board_final_ranks FOR VALUES IN (%L)',
            'board_final_ranks_' || to_char(b, 'YYYY_MM'), b);
    END LOOP;
END $$;

ALTER TABLE board_final_ranks DETACH PARTITION board_final_ranks_own;

INSERT INTO board_final_ranks
SELECT o.bucket, f.period_id, f.rank, f.player_id, f.score, f.subscore, f.reached_at, f.metadata,
       f.cohort_rank, f.cohort_size, f.next_league
FROM board_final_ranks_own f JOIN own_buckets o ON o.id = f.period_id;

UPDATE periods p SET final_bucket = o.bucket FROM own_buckets o WHERE o.id = p.id;

-- A dropped period still being purged: its partition goes below, the rest
-- of its rows with the purge, which finds no final ranks to delete.
UPDATE period_purges SET final_bucket = NULL WHERE final_bucket = DATE '0001-01-01';

DROP TABLE board_final_ranks_own;
DROP TABLE own_buckets;
