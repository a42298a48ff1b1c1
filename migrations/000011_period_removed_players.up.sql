-- Players an admin removed from a period of a board other than main
-- (correctScore with no score): their later events for the period are
-- refused, as removed_players does for main's months. Keyed by the period's
-- id first, like board_scores, so that it can be distributed with it;
-- retention deletes a period's rows with the period.
CREATE TABLE board_removed_players (
    period_id INTEGER NOT NULL,
    player_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (period_id, player_id)
);
