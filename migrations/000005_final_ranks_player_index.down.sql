DROP INDEX final_ranks_player_idx;
CREATE UNIQUE INDEX final_ranks_player_idx ON final_ranks (month, player_id);
