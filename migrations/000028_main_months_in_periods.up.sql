-- main's months become periods of the board main, rows of periods like
-- every other board's (issue 37: one set of tables). A month's period has
-- the key 'YYYY-MM' and an id, and what named a month of main by its date
-- beside a board's period names it by (board_id, period_id) now:
-- settlement messages, corrections, claims and removed players. months
-- goes. main's scores, score events, counters and final ranks stay in
-- their month partitions, named by the month's date, for now.
--
-- starts_at of a month's period is where it starts in the service's zone
-- (LEADERBOARD_TIMEZONE), as openMonth now writes it. Here it is the month's
-- end less its days: an hour off for a month that changes the clock in
-- that zone, which nothing reads (the service places main's months by
-- their key, in its zone). The upgrade touches a row per month and per
-- message, correction, claim and removal of main, never a score.
INSERT INTO periods (board_id, key, status, starts_at, ends_at, created_at, closed_at, participants, digest,
                     ranks_version)
SELECT 'main', to_char(month, 'YYYY-MM'), status, ends_at - ((month + interval '1 month') - month)::interval,
       ends_at, opened_at, closed_at, participants, digest, ranks_version
FROM months ORDER BY month;

-- Settlement messages: a message's stream (the messages delivered one at a
-- time, in order) is its period.
DROP INDEX outbox_stream_pending_idx;
ALTER TABLE outbox DROP COLUMN stream, DROP CONSTRAINT outbox_month_or_period_check;
UPDATE outbox o SET board_id = 'main', period_id = p.id FROM periods p
WHERE o.month IS NOT NULL AND p.board_id = 'main' AND p.key = to_char(o.month, 'YYYY-MM');
ALTER TABLE outbox
    DROP COLUMN month,
    ALTER COLUMN board_id SET NOT NULL,
    ALTER COLUMN period_id SET NOT NULL;
DROP INDEX outbox_period_idx;
CREATE INDEX outbox_period_idx ON outbox (period_id, created_at);
CREATE INDEX outbox_period_pending_idx ON outbox (period_id, created_at, id) WHERE delivered_at IS NULL;

-- Corrections: main's scores stay in 0..10000, and a correction of main
-- names its player until an erasure clears it.
ALTER TABLE corrections
    DROP CONSTRAINT corrections_month_or_period_check,
    DROP CONSTRAINT corrections_score_after_check,
    DROP CONSTRAINT corrections_player_check;
UPDATE corrections c SET board_id = 'main', period_id = p.id FROM periods p
WHERE c.month IS NOT NULL AND p.board_id = 'main' AND p.key = to_char(c.month, 'YYYY-MM');
ALTER TABLE corrections
    DROP COLUMN month,
    ALTER COLUMN board_id SET NOT NULL,
    ALTER COLUMN period_id SET NOT NULL,
    ADD CONSTRAINT corrections_score_after_check CHECK (board_id <> 'main' OR score_after BETWEEN 0 AND 10000),
    ADD CONSTRAINT corrections_player_check CHECK (board_id <> 'main' OR player_id IS NOT NULL OR erasure_id IS NOT NULL);
DROP INDEX corrections_period_idx;
CREATE INDEX corrections_period_idx ON corrections (period_id, id);

-- Claims: every claim names its period by id; the trigger of migration 16
-- deletes a period's claims with it.
ALTER TABLE claims DROP CONSTRAINT claims_check, DROP CONSTRAINT claims_check1;
UPDATE claims c SET period_id = p.id FROM periods p
WHERE c.month IS NOT NULL AND p.board_id = 'main' AND p.key = to_char(c.month, 'YYYY-MM');
ALTER TABLE claims
    DROP COLUMN month,
    ALTER COLUMN period_id SET NOT NULL;
DROP INDEX claims_period_idx;
CREATE INDEX claims_period_idx ON claims (period_id);

-- Players a correction removed from a month of main join those of every
-- other period.
INSERT INTO board_removed_players (period_id, player_id)
SELECT p.id, r.player_id FROM removed_players r
JOIN periods p ON p.board_id = 'main' AND p.key = to_char(r.month, 'YYYY-MM');
DROP TABLE removed_players;

DROP TABLE months;
