-- The month lifecycle: the close's digest and the version of the final ranks,
-- the settlement outbox, corrections with their audit trail, and players
-- removed from a month.

-- digest: sha256 (hex) of the final standings, one line "rank,playerId,score\n"
-- per rank. ranks_version counts the builds of the final ranks (1 at the close,
-- one more per correction), so that instances can tell a stale copy in memory.
ALTER TABLE months
    ADD COLUMN digest        TEXT,
    ADD COLUMN ranks_version INTEGER NOT NULL DEFAULT 0;

-- Messages to the studio's reward system, written in the transaction of the
-- change they announce and delivered at least once, oldest first per month.
-- body holds the exact bytes that are sent and signed.
CREATE TABLE outbox (
    id              TEXT PRIMARY KEY,
    type            TEXT NOT NULL CHECK (type IN ('month.closed', 'month.corrected')),
    month           DATE NOT NULL REFERENCES months (month) ON DELETE CASCADE,
    body            TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    delivered_at    TIMESTAMPTZ,
    last_error      TEXT
);

CREATE INDEX outbox_pending_idx ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
CREATE INDEX outbox_month_idx ON outbox (month, created_at);

-- Every correction an admin made, with its reason: the audit trail.
-- score_before / score_after are null when the player had no score / was removed.
CREATE TABLE corrections (
    id           BIGSERIAL PRIMARY KEY,
    month        DATE NOT NULL REFERENCES months (month) ON DELETE CASCADE,
    player_id    TEXT COLLATE "C" NOT NULL,
    score_before INTEGER,
    score_after  INTEGER CHECK (score_after BETWEEN 0 AND 10000),
    reason       TEXT NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    at           TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX corrections_month_idx ON corrections (month, id);

-- Players an admin removed from a month: their later events for it are refused.
CREATE TABLE removed_players (
    month     DATE NOT NULL REFERENCES months (month) ON DELETE CASCADE,
    player_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (month, player_id)
);
