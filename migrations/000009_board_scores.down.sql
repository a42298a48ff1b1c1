DROP TABLE board_score_events;
DROP TABLE board_scores;
