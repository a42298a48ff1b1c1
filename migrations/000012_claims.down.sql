DROP INDEX periods_id_idx;
DROP INDEX board_final_ranks_player_idx;
DROP TABLE claims;
