-- The purges still queued finish here, in one transaction, as retention
-- deleted a period's rows before migration 21.
DELETE FROM board_scores s USING period_purges q WHERE s.period_id = q.period_id;
DELETE FROM board_score_events e USING period_purges q WHERE e.period_id = q.period_id;
DELETE FROM board_removed_players r USING period_purges q WHERE r.period_id = q.period_id;
DELETE FROM period_rank_counts c USING period_purges q WHERE c.period_id = q.period_id;
DELETE FROM board_final_ranks f USING period_purges q WHERE f.bucket = q.final_bucket AND f.period_id = q.period_id;
DROP TABLE period_purges;
