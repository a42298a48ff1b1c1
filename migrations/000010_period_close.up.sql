-- The close of the periods of every board but main (main keeps its months,
-- final_ranks and close job).
--
-- board_final_ranks holds the final ranks of every closed period of every
-- board, partitioned by LIST on bucket, the first day of the (UTC) month the
-- period ends in (a NONE board's period: the month it closes in). Partitions
-- grow with months, never with boards or periods: a studio with 10,000 daily
-- boards closes 3.65 million periods a year, and a partition, table or index
-- each would exhaust PostgreSQL's catalogue and planning time. A partition
-- per month keeps the customer's design card (final ranks in a partitioned
-- table) and lets retention drop a month of closed periods as one relation.
-- The close makes a month's partition when it is missing (CREATE TABLE IF NOT
-- EXISTS ... PARTITION OF, under an advisory lock, in a short transaction of
-- its own, as openMonth makes the months' partitions); none is made here.
-- The key leads with the bucket, then the period's id, so that a period's
-- ranks are one range of one partition's index.
CREATE TABLE board_final_ranks (
    bucket     DATE NOT NULL,
    period_id  INTEGER NOT NULL,
    rank       INTEGER NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL,
    score      INTEGER NOT NULL,
    subscore   INTEGER,
    reached_at TIMESTAMPTZ NOT NULL,
    metadata   JSONB,
    PRIMARY KEY (bucket, period_id, rank)
) PARTITION BY LIST (bucket);

-- Where a closed period's final ranks are, so that a read finds its
-- partition without recomputing the month from the board's rules.
ALTER TABLE periods ADD COLUMN final_bucket DATE;

-- The periods not yet CLOSED (about one per board), which the scheduler
-- looks through for those due, without reading the closed ones.
CREATE INDEX periods_due_idx ON periods (ends_at) WHERE status <> 'CLOSED';

-- Settlement messages of periods: period.closed and period.corrected, and
-- month.closed / month.corrected of MONTH boards other than main. Main's rows
-- keep their month and get no board or period; every other message has a
-- board and period and no month (month refers to main's months).
ALTER TABLE outbox
    ALTER COLUMN month DROP NOT NULL,
    ADD COLUMN board_id  TEXT COLLATE "C",
    ADD COLUMN period_id INTEGER,
    DROP CONSTRAINT outbox_type_check,
    ADD CONSTRAINT outbox_type_check
        CHECK (type IN ('month.closed', 'month.corrected', 'period.closed', 'period.corrected')),
    ADD CONSTRAINT outbox_period_fkey FOREIGN KEY (board_id, period_id)
        REFERENCES periods (board_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT outbox_month_or_period_check
        CHECK ((month IS NULL) = (period_id IS NOT NULL AND board_id IS NOT NULL));

-- A period's newest message (its settlement), and its older undelivered ones
-- that delivery sends first.
CREATE INDEX outbox_period_idx ON outbox (period_id, created_at) WHERE period_id IS NOT NULL;

-- Corrections of periods: clearPeriod records one with no player (it removes
-- every score of the period); a score of a board other than main may lie
-- outside main's 0..10000, so that bound holds for main's months only.
ALTER TABLE corrections
    ALTER COLUMN month DROP NOT NULL,
    ALTER COLUMN player_id DROP NOT NULL,
    ADD COLUMN board_id  TEXT COLLATE "C",
    ADD COLUMN period_id INTEGER,
    DROP CONSTRAINT corrections_score_after_check,
    ADD CONSTRAINT corrections_score_after_check CHECK (month IS NULL OR score_after BETWEEN 0 AND 10000),
    ADD CONSTRAINT corrections_period_fkey FOREIGN KEY (board_id, period_id)
        REFERENCES periods (board_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT corrections_month_or_period_check
        CHECK ((month IS NULL) = (period_id IS NOT NULL AND board_id IS NOT NULL)),
    ADD CONSTRAINT corrections_player_check CHECK (month IS NULL OR player_id IS NOT NULL);

CREATE INDEX corrections_period_idx ON corrections (period_id, id) WHERE period_id IS NOT NULL;
