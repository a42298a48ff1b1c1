-- The live scores of every board but main (main keeps scores, partitioned by
-- month), and the events that made them, in two shared tables keyed by the
-- period's compact id. No table, partition or index is made per board or per
-- period: a studio with 10,000 daily boards opens 3.65 million periods a
-- year, and a relation each would grow PostgreSQL's catalogue and planning
-- time without bound. Every key leads with the period's (or the board's) id,
-- so that the tables can be distributed by it.
CREATE TABLE board_scores (
    period_id     INTEGER NOT NULL,
    player_id     TEXT COLLATE "C" NOT NULL REFERENCES players (id),
    score         INTEGER NOT NULL,
    subscore      INTEGER,
    -- The row's place in its board's order as Board.SortKey gives it: two
    -- numbers that rank ascending whatever the order and the tie-break, so
    -- that every board reads its ranks, windows and pages as row-value range
    -- scans of one index, ties broken by reached_at, then seq (score_seq).
    sort_score    BIGINT NOT NULL,
    sort_subscore BIGINT NOT NULL,
    reached_at    TIMESTAMPTZ NOT NULL,
    seq           BIGINT NOT NULL,
    -- The newest changing event's metadata, a JSON object of at most 1 KB.
    metadata      JSONB,
    PRIMARY KEY (period_id, player_id)
);

CREATE INDEX board_scores_rank_idx ON board_scores (period_id, sort_score, sort_subscore, reached_at, seq)
    INCLUDE (player_id);

-- Every accepted event of a board but main: the idempotency key, one event
-- per event id and board, and an audit of what it changed. Rejected events
-- are not kept, so that a corrected retry can still apply.
CREATE TABLE board_score_events (
    board_id    TEXT COLLATE "C" NOT NULL,
    event_id    TEXT COLLATE "C" NOT NULL,
    period_id   INTEGER NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('ADD', 'SET', 'BEST')),
    value       INTEGER NOT NULL,
    subscore    INTEGER,
    occurred_at TIMESTAMPTZ NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('APPLIED', 'UNCHANGED')),
    old_score   INTEGER,
    new_score   INTEGER NOT NULL,
    PRIMARY KEY (board_id, event_id)
);

-- A period's events, player by player: for corrections and retention.
CREATE INDEX board_score_events_period_idx ON board_score_events (period_id, player_id);
