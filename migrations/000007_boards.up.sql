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
