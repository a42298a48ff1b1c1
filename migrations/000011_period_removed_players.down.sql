DROP TABLE board_removed_players;
