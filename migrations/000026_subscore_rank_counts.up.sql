-- On a board with a tie-break, the subscores tied at one score are counted in
-- levels too (db/rankcounts.go): under each sort score, the players per
-- bucket of the subscore key at levels -2 to -5 (2^24, 2^16, 2^8 and single
-- keys), so that a live rank sums the tie cells of its own subscore only.
-- Before, it summed every tie cell of the score: 28,000 counter rows for a
-- player among many distinct subscores at one score (12 ms a read).
-- The key is db's subscoreKey: the sort subscore plus 2^31, the "no
-- subscore" key after every other. The levels are -1 - i for the i-th
-- shift of 24, 16, 8 and 0.
INSERT INTO period_rank_counts (period_id, level, bucket, sub, players)
SELECT s.period_id, (-1 - l.i)::smallint,
    s.sort_score - CASE b.sort_order WHEN 'DESC' THEN -b.max_score::bigint ELSE b.min_score::bigint END,
    (CASE WHEN s.sort_subscore = 9223372036854775807 THEN 4294967297 ELSE s.sort_subscore + 2147483648 END) >> l.shift,
    count(*)
FROM board_scores s
JOIN periods p ON p.id = s.period_id
JOIN boards b ON b.id = p.board_id
CROSS JOIN unnest(ARRAY[24, 16, 8, 0]) WITH ORDINALITY AS l(shift, i)
WHERE b.tiebreak <> 'NONE'
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4;
