-- Periods of boards that retention dropped whose rows are still to be
-- deleted. A period's drop is decided in a short transaction that deletes
-- its row (with its claims, corrections and messages: from that commit it
-- answers as gone) and records its id here; its rows of board_scores,
-- board_score_events, board_removed_players, period_rank_counts and
-- board_final_ranks (in final_bucket's partition) are then deleted in
-- bounded batches, each a transaction of its own, and this row goes with the
-- last of them. A crash between batches leaves the row, and the next look of
-- retention finishes the purge. A period's id is an identity, never used
-- again, so nothing reads or writes those rows meanwhile.
CREATE TABLE period_purges (
    period_id    INTEGER PRIMARY KEY,
    final_bucket DATE,
    dropped_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
