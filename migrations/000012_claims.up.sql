-- Rewards: a claim marks one player's final standing in one closed period as
-- rewarded, exactly once, and keeps the standing as it was claimed.
--
-- Keyed by (board_id, period_key, player_id): the one key that names a
-- period of every board, main's months ('2026-11') as much as the periods of
-- the others, which is what claimReward receives. The primary key is the
-- claim's uniqueness: INSERT ... ON CONFLICT DO NOTHING lets exactly one of
-- any number of callers on any number of instances win, and every other
-- reads the winner. It leads with the board, as periods do, so that the
-- table can be distributed with them, and a period's claims are one range
-- of it (the export's join, unclaimedRewards' anti-join: a probe each).
--
-- A claim goes with its period: main's by month (its months' retention
-- deletes the month's row), the others' by the period's id (retention or an
-- admin deletes the period's row), each through a foreign key with its own
-- small partial index for the cascade, so that no path that drops a period
-- can leave a claim behind, and a claim of a dropped period answers GONE.
CREATE TABLE claims (
    board_id     TEXT COLLATE "C" NOT NULL,
    period_key   TEXT COLLATE "C" NOT NULL,
    player_id    TEXT COLLATE "C" NOT NULL,
    -- The game's own grant id: the first one wins, and its retries answer
    -- CLAIMED; any other answers ALREADY_CLAIMED naming it.
    claim_id     TEXT NOT NULL CHECK (char_length(claim_id) BETWEEN 1 AND 128),
    claimed_at   TIMESTAMPTZ NOT NULL,
    -- The standing as claimed: a later correction of the period keeps the
    -- claim and tells the reward system what changed (changedClaims).
    rank         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    subscore     INTEGER,
    tier         TEXT,
    participants INTEGER NOT NULL,
    reached_at   TIMESTAMPTZ NOT NULL,
    month        DATE REFERENCES months (month) ON DELETE CASCADE,
    period_id    INTEGER,
    PRIMARY KEY (board_id, period_key, player_id),
    FOREIGN KEY (board_id, period_id) REFERENCES periods (board_id, id) ON DELETE CASCADE,
    CHECK ((board_id = 'main') = (month IS NOT NULL)),
    CHECK ((month IS NULL) = (period_id IS NOT NULL))
);

CREATE INDEX claims_month_idx ON claims (month) WHERE month IS NOT NULL;
CREATE INDEX claims_period_idx ON claims (period_id) WHERE period_id IS NOT NULL;

-- A player's final standings in the closed periods of every board but main,
-- for unclaimedRewards (a player with standings in a thousand periods reads
-- a thousand index entries, not the periods' millions of rows) and for
-- claimReward (the player's row in one period: the bucket picks the
-- partition, the index the row). Made on the parent, so every partition has
-- it; a close now writes each rank to this index beside its primary key.
-- Periods of boards other than main are mostly small; a million-player
-- period's close writes a million entries more.
--
-- main's final_ranks get no such index (see migration 6: it cost the close
-- of ten million players seconds): a player's standing in a closed month is
-- their row in the month's scores, found by its primary key (month,
-- player_id), with their rank read as a live rank is; there is one month a
-- month, and retention keeps a few, so a player's closed months are a probe
-- each.
CREATE INDEX board_final_ranks_player_idx ON board_final_ranks (player_id, period_id);

-- A period by its id alone: board_final_ranks name their period by its id,
-- and unclaimedRewards finds each standing's period, board and key from it.
CREATE INDEX periods_id_idx ON periods (id);
