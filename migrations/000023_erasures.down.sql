-- The corrections that keep no player but an erasure would read as a month's
-- broken row or a board's clear: they go with the erasures.
DELETE FROM corrections WHERE erasure_id IS NOT NULL AND player_id IS NULL;
ALTER TABLE corrections
    DROP CONSTRAINT corrections_player_check,
    ADD CONSTRAINT corrections_player_check CHECK (month IS NULL OR player_id IS NOT NULL),
    DROP COLUMN erasure_id;
DROP TABLE erasures;
