-- Erasures: a player's right to be erased (erasePlayer). Each call keeps one
-- audit row: when, why, and a keyed hash (HMAC-SHA256 with
-- LEADERBOARD_ERASURE_KEY, hex) of the player's id, never the id. While an
-- erasure runs its row also holds the id, so that a run cut short (a crash,
-- a deadline) is finished by the next call for that player or by any
-- instance's scheduler; the id is cleared in the transaction that marks the
-- row DONE. Each period is erased in a transaction of its own, which adds
-- to periods and corrected_periods: the counts are the progress.
CREATE TABLE erasures (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_hash       TEXT NOT NULL CHECK (player_hash ~ '^[0-9a-f]{64}$'),
    reason            TEXT NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    status            TEXT NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'DONE')),
    player_id         TEXT COLLATE "C",
    periods           INTEGER NOT NULL DEFAULT 0,
    corrected_periods INTEGER NOT NULL DEFAULT 0,
    requested_at      TIMESTAMPTZ NOT NULL,
    erased_at         TIMESTAMPTZ,
    CHECK ((status = 'RUNNING') = (player_id IS NOT NULL)),
    CHECK ((status = 'DONE') = (erased_at IS NOT NULL))
);

CREATE INDEX erasures_running_idx ON erasures (player_hash) WHERE status = 'RUNNING';

-- A correction an erasure made, or one of the erased player's older ones,
-- names the erasure instead of the player.
ALTER TABLE corrections
    ADD COLUMN erasure_id BIGINT REFERENCES erasures (id),
    DROP CONSTRAINT corrections_player_check,
    ADD CONSTRAINT corrections_player_check CHECK (month IS NULL OR player_id IS NOT NULL OR erasure_id IS NOT NULL);
