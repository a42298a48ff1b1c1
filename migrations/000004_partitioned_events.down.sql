-- Back to one event table, event ids unique across months again (this fails
-- if one id was used in two months, which the partitioned table allows).
CREATE TABLE score_events_unpartitioned (
    event_id    TEXT COLLATE "C" PRIMARY KEY,
    month       DATE NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('ADD', 'SET', 'BEST')),
    value       INTEGER NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('APPLIED', 'UNCHANGED')),
    old_score   INTEGER,
    new_score   INTEGER NOT NULL
);
INSERT INTO score_events_unpartitioned SELECT * FROM score_events;
DROP TABLE score_events;
ALTER TABLE score_events_unpartitioned RENAME TO score_events;
ALTER INDEX score_events_unpartitioned_pkey RENAME TO score_events_pkey;
CREATE INDEX score_events_player_idx ON score_events (month, player_id);
