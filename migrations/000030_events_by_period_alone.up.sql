-- board_score_events' second index keyed every event by (period_id,
-- player_id): each accepted event went into a random leaf of a wide index,
-- and that write was about half of what the boards' submit path cost beyond
-- main's (docs/PERFORMANCE.md, "main's submit path against the boards'
-- path"). Keyed by the period alone, an event goes to the end of its
-- period's entries (a key's entries are ordered by their rows' places in
-- the table, and new rows are appended), one hot leaf a period, whose equal
-- keys deduplicate into posting lists: a few bytes an event.
--
-- Its readers keep what they need. The bounded purge of a dropped period
-- (db/periodretention.go) takes its batches from the period's range, as
-- before. The erasure of a player (db/erasuresteps.go) scans the events of
-- each period they played in and keeps theirs, as main's erasure scans its
-- month's partition of score_events.
--
-- What this costs on upgrade: one index built over the table's period ids
-- (an integer a row), the old one dropped.
DROP INDEX board_score_events_period_idx;
CREATE INDEX board_score_events_period_idx ON board_score_events (period_id);
