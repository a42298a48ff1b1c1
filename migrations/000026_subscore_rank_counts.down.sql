-- The subscore levels go; a rank sums every tie cell of its score again.
DELETE FROM period_rank_counts WHERE level < -1;
