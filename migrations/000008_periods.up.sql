-- The periods of every board but main, one row each, keyed by the board and
-- the period's key ('2026-11-25', '2026-W48', '2026-11', 'all' or a season's
-- key). A calendar period gets its row with its first event; a season gets
-- it from createSeason. id is the compact key that rows of a period (scores,
-- final ranks, counters) carry. The months of main stay in months.
CREATE TABLE periods (
    board_id      TEXT COLLATE "C" NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    key           TEXT COLLATE "C" NOT NULL CHECK (key ~ '^[A-Za-z0-9_.-]{1,64}$'),
    id            INTEGER GENERATED ALWAYS AS IDENTITY,
    status        TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSING', 'CLOSED')),
    starts_at     TIMESTAMPTZ NOT NULL,
    ends_at       TIMESTAMPTZ CHECK (ends_at > starts_at),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    closed_at     TIMESTAMPTZ,
    participants  INTEGER,
    digest        TEXT,
    ranks_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (board_id, key),
    -- Unique with the board's id, so that the table can be distributed by it.
    UNIQUE (board_id, id),
    CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL AND participants IS NOT NULL))
);

-- A board's periods newest first, and the season that holds an instant.
CREATE INDEX periods_board_start_idx ON periods (board_id, starts_at DESC);
