DROP TABLE board_player_leagues;
DROP TABLE cohort_members;
DROP TABLE period_cohort_fill;
ALTER TABLE boards DROP COLUMN leagues, DROP COLUMN cohort_size;
