-- A closed month's final ranks are found by player through an index on the
-- player alone: each month is a partition of its own, and without the month
-- in the key the close indexes ten million players in 7.6 s rather than
-- 10.5 s (its sort compares the ids alone). The index is not unique: the
-- ranks are built from scores, whose primary key holds one row per player
-- and month, and a partitioned table's unique index must hold the month.
-- On a database with closed months this rebuilds each month's index (about
-- 8 s per ten million players here) in the migration's transaction, which
-- holds reads of final_ranks from PostgreSQL until it commits; closed months
-- served from memory are not held.
DROP INDEX final_ranks_player_idx;
CREATE INDEX final_ranks_player_idx ON final_ranks (player_id);
