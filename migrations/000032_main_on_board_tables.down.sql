-- main's live rows go back to their month tables as migration 31 left them:
-- scores and score_events partitioned by month, a partition of each for
-- every period of main (as openMonth made them when the month opened), and
-- the counters of migration 2, counted from the rows. main's rows leave
-- board_scores, board_score_events and period_rank_counts. The month
-- tables are filled before their keys, indexes and foreign key are made,
-- one sort or join each rather than a check per row.
SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL work_mem = '256MB';

LOCK TABLE board_scores, board_score_events, period_rank_counts IN ACCESS EXCLUSIVE MODE;

CREATE TABLE score_events (
    event_id    TEXT COLLATE "C" NOT NULL,
    month       DATE NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    mode        TEXT NOT NULL CONSTRAINT score_events_mode_check1 CHECK (mode IN ('ADD', 'SET', 'BEST')),
    value       INTEGER NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    status      TEXT NOT NULL CONSTRAINT score_events_status_check1 CHECK (status IN ('APPLIED', 'UNCHANGED')),
    old_score   INTEGER,
    new_score   INTEGER NOT NULL
) PARTITION BY LIST (month);

CREATE TABLE scores (
    month      DATE NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL,
    score      INTEGER NOT NULL CONSTRAINT scores_score_check CHECK (score BETWEEN 0 AND 10000),
    reached_at TIMESTAMPTZ NOT NULL,
    seq        BIGINT NOT NULL
) PARTITION BY LIST (month);

DO $$
DECLARE
    v_month DATE;
BEGIN
    FOR v_month IN SELECT to_date(p.key, 'YYYY-MM') FROM periods p WHERE p.board_id = 'main' ORDER BY 1 LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF score_events FOR VALUES IN (%L)',
            'score_events_' || to_char(v_month, 'YYYY_MM'), v_month);
        EXECUTE format('CREATE TABLE %I PARTITION OF scores FOR VALUES IN (%L)',
            'scores_' || to_char(v_month, 'YYYY_MM'), v_month);
    END LOOP;
END $$;

INSERT INTO scores (month, player_id, score, reached_at, seq)
SELECT to_date(p.key, 'YYYY-MM'), s.player_id, s.score, s.reached_at, s.seq
FROM board_scores s JOIN periods p ON p.id = s.period_id
WHERE p.board_id = 'main';

INSERT INTO score_events (event_id, month, player_id, mode, value, occurred_at, received_at, status, old_score,
                          new_score)
SELECT e.event_id, to_date(p.key, 'YYYY-MM'), e.player_id, e.mode, e.value, e.occurred_at, e.received_at, e.status,
       e.old_score, e.new_score
FROM board_score_events e JOIN periods p ON p.id = e.period_id
WHERE e.board_id = 'main' AND p.board_id = 'main';

ALTER TABLE scores ADD CONSTRAINT scores_pkey PRIMARY KEY (month, player_id);
CREATE INDEX scores_rank_idx ON scores (score DESC, reached_at ASC, seq ASC) INCLUDE (player_id);
ALTER TABLE scores ADD CONSTRAINT scores_player_id_fkey FOREIGN KEY (player_id) REFERENCES players (id);
ALTER TABLE score_events ADD CONSTRAINT score_events_pkey PRIMARY KEY (event_id, month);

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

INSERT INTO score_hour_counts (month, score, hour, players)
SELECT month, score, floor(extract(EPOCH FROM reached_at) / 3600)::int, count(*)
FROM scores GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;

INSERT INTO score_counts (month, score, players)
SELECT month, score, sum(players) FROM score_hour_counts GROUP BY 1, 2 ORDER BY 1, 2;

INSERT INTO score_block_counts (month, block, players)
SELECT month, score / 100, sum(players) FROM score_counts GROUP BY 1, 2 ORDER BY 1, 2;

DELETE FROM board_scores s USING periods p WHERE p.id = s.period_id AND p.board_id = 'main';
DELETE FROM board_score_events WHERE board_id = 'main';
DELETE FROM period_rank_counts c USING periods p WHERE p.id = c.period_id AND p.board_id = 'main';

ANALYZE scores, score_events, score_block_counts, score_counts, score_hour_counts;
