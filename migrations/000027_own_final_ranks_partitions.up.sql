-- A large period's final ranks in a partition of its own.
--
-- A close appends a period's ranks to the partition of its month
-- (migration 10), which keeps board_final_ranks' two indexes row by row; at
-- a million players that upkeep was three quarters of the close, where
-- main's month builds a fresh table and its key after the rows, then
-- attaches it (docs/PERFORMANCE.md, "a large period's close, phase by
-- phase"). A period closed on its own with at least
-- LEADERBOARD_OWN_PARTITION_PLAYERS players (default 100,000) now does the
-- same: its ranks go to board_final_ranks_own_<period id>, made, filled,
-- indexed and attached in the close's transaction, here, under the bucket
-- DATE '0001-01-01', which no month has. Relations then grow with the
-- periods of that size, never with boards or small periods: a studio's ten
-- thousand daily boards of a hundred players each still add none.
--
-- Every read already names a period's ranks by (final_bucket, period_id),
-- so it finds them in either place; retention drops such a period's
-- partition whole instead of deleting its rows in batches.
CREATE TABLE board_final_ranks_own PARTITION OF board_final_ranks
    FOR VALUES IN (DATE '0001-01-01') PARTITION BY LIST (period_id);
