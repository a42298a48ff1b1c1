-- The events' second index keyed by period and player again, as migration 9
-- made it.
DROP INDEX board_score_events_period_idx;
CREATE INDEX board_score_events_period_idx ON board_score_events (period_id, player_id);
