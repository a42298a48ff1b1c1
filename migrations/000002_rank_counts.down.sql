DROP TABLE IF EXISTS score_hour_counts;
DROP TABLE IF EXISTS score_counts;
