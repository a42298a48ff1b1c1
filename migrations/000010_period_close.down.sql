-- Periods' messages and corrections go with the columns that name them.
DROP INDEX corrections_period_idx;
DELETE FROM corrections WHERE month IS NULL;
ALTER TABLE corrections
    DROP CONSTRAINT corrections_player_check,
    DROP CONSTRAINT corrections_month_or_period_check,
    DROP CONSTRAINT corrections_period_fkey,
    DROP CONSTRAINT corrections_score_after_check,
    ADD CONSTRAINT corrections_score_after_check CHECK (score_after BETWEEN 0 AND 10000),
    DROP COLUMN period_id,
    DROP COLUMN board_id,
    ALTER COLUMN player_id SET NOT NULL,
    ALTER COLUMN month SET NOT NULL;

DROP INDEX outbox_period_idx;
DELETE FROM outbox WHERE month IS NULL;
ALTER TABLE outbox
    DROP CONSTRAINT outbox_month_or_period_check,
    DROP CONSTRAINT outbox_period_fkey,
    DROP CONSTRAINT outbox_type_check,
    ADD CONSTRAINT outbox_type_check CHECK (type IN ('month.closed', 'month.corrected')),
    DROP COLUMN period_id,
    DROP COLUMN board_id,
    ALTER COLUMN month SET NOT NULL;

DROP INDEX periods_due_idx;
ALTER TABLE periods DROP COLUMN final_bucket;
DROP TABLE board_final_ranks;
