-- Boards: independent leaderboards, each with rules fixed at creation and
-- periods that follow its own calendar. A board is a row, never a relation:
-- a studio may create tens of thousands of them.
--
-- The board 'main' is the monthly event every request without a board is
-- about. Its time zone and close grace are the service's own settings
-- (LEADERBOARD_TIMEZONE, LEADERBOARD_CLOSE_GRACE), which the service reads in
-- place of the row's time_zone and close_grace_seconds; it takes events of any
-- month, so it starts at the first instant PostgreSQL and Go both print.
CREATE TABLE boards (
    id                  TEXT COLLATE "C" PRIMARY KEY CHECK (id ~ '^[a-z0-9_.-]{1,64}$'),
    name                TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 128),
    reset               TEXT NOT NULL CHECK (reset IN ('NONE', 'DAY', 'WEEK', 'MONTH', 'SEASON')),
    sort_order          TEXT NOT NULL CHECK (sort_order IN ('DESC', 'ASC')),
    min_score           INTEGER NOT NULL,
    max_score           INTEGER NOT NULL,
    tiebreak            TEXT NOT NULL CHECK (tiebreak IN ('NONE', 'SUBSCORE_DESC', 'SUBSCORE_ASC')),
    time_zone           TEXT NOT NULL,
    close_grace_seconds INTEGER NOT NULL CHECK (close_grace_seconds >= 0),
    starts_at           TIMESTAMPTZ NOT NULL,
    ends_at             TIMESTAMPTZ CHECK (ends_at > starts_at),
    retain_periods      INTEGER CHECK (retain_periods >= 0),
    -- [{"name": "gold", "topPercent": 1}, ...], best first.
    tiers               JSONB NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tiers) = 'array'),
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (min_score <= max_score)
);

INSERT INTO boards (id, name, reset, sort_order, min_score, max_score, tiebreak, time_zone,
                    close_grace_seconds, starts_at, created_at)
VALUES ('main', 'Monthly event', 'MONTH', 'DESC', 0, 10000, 'NONE', 'UTC', 900,
        '0001-01-01 00:00:00+00', COALESCE((SELECT min(opened_at) FROM months), now()));

-- The periods of every board but main, one row each, keyed by the board and
-- the period's key ('2026-11-25', '2026-W48', '2026-11', 'all' or a season's
-- key). A calendar period gets its row with its first event; a season gets
-- it from createSeason. id is the compact key that rows of a period (scores,
-- final ranks, counters) carry. The months of main stay in months.
CREATE TABLE periods (
    board_id      TEXT COLLATE "C" NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    key           TEXT COLLATE "C" NOT NULL CHECK (key ~ '^[A-Za-z0-9_.-]{1,64}$'),
    id            INTEGER GENERATED ALWAYS AS IDENTITY UNIQUE,
    status        TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSING', 'CLOSED')),
    starts_at     TIMESTAMPTZ NOT NULL,
    ends_at       TIMESTAMPTZ CHECK (ends_at > starts_at),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    closed_at     TIMESTAMPTZ,
    participants  INTEGER,
    digest        TEXT,
    ranks_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (board_id, key),
    CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL AND participants IS NOT NULL))
);

-- A board's periods newest first, and the season that holds an instant.
CREATE INDEX periods_board_start_idx ON periods (board_id, starts_at DESC);
