DROP TABLE IF EXISTS score_hour_counts;
DROP TABLE IF EXISTS score_counts;
DROP TABLE IF EXISTS score_block_counts;
