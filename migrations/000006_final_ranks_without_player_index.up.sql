-- A closed month's final ranks are no longer found by player through an
-- index: the close built it in 8 to 25 s at ten million players, a third of
-- the whole close. A closed month's scores and rank counters stay as its
-- final ranks were built from them, so a player's final rank is read as
-- their live rank, and the final ranks by their primary key (month, rank).
DROP INDEX final_ranks_player_idx;
