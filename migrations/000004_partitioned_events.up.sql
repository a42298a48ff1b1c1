-- The event log is partitioned by month, like scores and final_ranks, so that
-- retention drops a month's events by detaching and dropping a partition
-- instead of deleting them row by row. A partitioned table's primary key must
-- hold the partition key: event ids are unique within a month, and the
-- submit path looks an id up across every month before it writes (a retry
-- carries its first attempt's occurredAt, so it lands in the same month).
ALTER TABLE score_events RENAME TO score_events_unpartitioned;
ALTER INDEX score_events_pkey RENAME TO score_events_unpartitioned_pkey;
DROP INDEX score_events_player_idx;

CREATE TABLE score_events (
    event_id    TEXT COLLATE "C" NOT NULL,
    month       DATE NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('ADD', 'SET', 'BEST')),
    value       INTEGER NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('APPLIED', 'UNCHANGED')),
    old_score   INTEGER,
    new_score   INTEGER NOT NULL,
    PRIMARY KEY (event_id, month)
) PARTITION BY LIST (month);

-- No index by player: no code reads one, and each index costs every event a
-- write. An audit of one player scans the months it asks for.

-- One partition per month that has a row or an event, as the service makes
-- them when a month opens (score_events_YYYY_MM).
DO $$
DECLARE
    m DATE;
BEGIN
    FOR m IN SELECT month FROM months UNION SELECT DISTINCT month FROM score_events_unpartitioned LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF score_events FOR VALUES IN (%L)',
            'score_events_' || to_char(m, 'YYYY_MM'), m);
    END LOOP;
END $$;

INSERT INTO score_events SELECT * FROM score_events_unpartitioned;
DROP TABLE score_events_unpartitioned;
