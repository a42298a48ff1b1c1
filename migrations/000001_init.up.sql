-- Players are known by the game's own id; the display name follows the latest event.
-- Ids are opaque: they compare byte by byte (COLLATE "C"), which also makes
-- the sorts and index builds of the close job and of seeding several times
-- faster than a language collation.
CREATE TABLE players (
    id         TEXT COLLATE "C" PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 64),
    name       TEXT CHECK (char_length(name) <= 64),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per month of the event. A month opens with its first score event and
-- moves OPEN -> CLOSING -> CLOSED, never back.
CREATE TABLE months (
    month        DATE PRIMARY KEY CHECK (extract(DAY FROM month) = 1),
    status       TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSING', 'CLOSED')),
    opened_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    ends_at      TIMESTAMPTZ NOT NULL,
    closed_at    TIMESTAMPTZ,
    participants INTEGER,
    CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL AND participants IS NOT NULL))
);

-- Every score change gets the next value: it breaks exact ties of reached_at by
-- order of arrival, so the ranking is total and deterministic.
CREATE SEQUENCE score_seq AS BIGINT;

-- Each player's live total in a month, one partition per month (created when
-- the month opens). The ranking order is (score DESC, reached_at, seq).
CREATE TABLE scores (
    month      DATE NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL REFERENCES players (id),
    score      INTEGER NOT NULL CHECK (score BETWEEN 0 AND 10000),
    reached_at TIMESTAMPTZ NOT NULL,
    seq        BIGINT NOT NULL,
    PRIMARY KEY (month, player_id)
) PARTITION BY LIST (month);

CREATE INDEX scores_rank_idx ON scores (score DESC, reached_at ASC, seq ASC) INCLUDE (player_id);

-- The frozen standings of closed months, one partition per month, built by the
-- close job with ROW_NUMBER() and attached whole.
CREATE TABLE final_ranks (
    month      DATE NOT NULL,
    rank       INTEGER NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL,
    score      INTEGER NOT NULL,
    reached_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (month, rank)
) PARTITION BY LIST (month);

CREATE UNIQUE INDEX final_ranks_player_idx ON final_ranks (month, player_id);

-- Every accepted score event: the idempotency key and an audit of what it changed.
-- Rejected events are not kept, so a corrected retry can still apply.
CREATE TABLE score_events (
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

CREATE INDEX score_events_player_idx ON score_events (month, player_id);
