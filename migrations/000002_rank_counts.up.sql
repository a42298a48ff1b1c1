-- Players per block of 100 scores, per score, and per score and hour of
-- reached_at, of each month's live table. They make a live rank a sum over at
-- most about 100 + 100 + 744 small rows plus a range scan inside one hour of one
-- score, instead of a count over every better row. db.SubmitScores keeps them
-- in step in its transaction. See db/counts.go.
CREATE TABLE score_block_counts (
    month   DATE NOT NULL,
    block   INTEGER NOT NULL, -- score / 100
    players INTEGER NOT NULL, -- no CHECK: an upsert checks its negative delta before it adds it
    PRIMARY KEY (month, block)
) WITH (fillfactor = 50); -- room for HOT updates: a counter's versions stay on its page

CREATE TABLE score_counts (
    month   DATE NOT NULL,
    score   INTEGER NOT NULL,
    players INTEGER NOT NULL, -- no CHECK: an upsert checks its negative delta before it adds it
    PRIMARY KEY (month, score)
) WITH (fillfactor = 50);

CREATE TABLE score_hour_counts (
    month   DATE NOT NULL,
    score   INTEGER NOT NULL,
    hour    INTEGER NOT NULL, -- hours since the Unix epoch, floor(epoch(reached_at) / 3600)
    players INTEGER NOT NULL, -- no CHECK: an upsert checks its negative delta before it adds it
    PRIMARY KEY (month, score, hour)
) WITH (fillfactor = 50);

INSERT INTO score_block_counts (month, block, players)
SELECT month, score / 100, count(*) FROM scores GROUP BY 1, 2 ORDER BY 1, 2;

INSERT INTO score_counts (month, score, players)
SELECT month, score, count(*) FROM scores GROUP BY 1, 2 ORDER BY 1, 2;

INSERT INTO score_hour_counts (month, score, hour, players)
SELECT month, score, floor(extract(EPOCH FROM reached_at) / 3600)::int, count(*)
FROM scores GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
