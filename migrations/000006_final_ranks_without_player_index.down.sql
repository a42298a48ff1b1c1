CREATE INDEX final_ranks_player_idx ON final_ranks (player_id);
