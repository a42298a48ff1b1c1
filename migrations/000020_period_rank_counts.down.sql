DROP TABLE period_rank_counts;
