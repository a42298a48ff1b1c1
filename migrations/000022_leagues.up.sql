-- Leagues: cohorts of a board's period, filled in arrival order, and the
-- league each player plays next on a board (issue 38).
--
-- A board with cohort_size puts every player into a cohort of at most that
-- many at their first applied event of a period. leagues is the board's
-- leagues, lowest first, as [{"name", "promote", "demote"}]; empty for a
-- board whose cohorts have no leagues (and for every board without cohorts).
ALTER TABLE boards
    ADD COLUMN cohort_size INTEGER CHECK (cohort_size BETWEEN 2 AND 1000),
    ADD COLUMN leagues     JSONB NOT NULL DEFAULT '[]';

-- The cohort of each (period, league) that takes new players: its number and
-- how many it holds. A batch that places new players of a league locks this
-- row (INSERT ... ON CONFLICT DO UPDATE), so that batches of every instance
-- fill a league's cohorts one after the other and none exceeds the board's
-- cohort_size. Keyed by the period first, as every table of a period's rows.
CREATE TABLE period_cohort_fill (
    period_id INTEGER NOT NULL,
    league    SMALLINT NOT NULL,
    cohort    INTEGER NOT NULL,
    size      INTEGER NOT NULL,
    PRIMARY KEY (period_id, league)
);

-- Each player's cohort in a period: league is the index of the board's
-- league (0 the lowest; 0 on a board without leagues), cohort its number in
-- the league. cohort_rank and next_league are set by the period's close.
-- The primary key makes one cohort per player and period; the second index
-- reads a cohort's members as one small range.
CREATE TABLE cohort_members (
    period_id   INTEGER NOT NULL,
    player_id   TEXT COLLATE "C" NOT NULL,
    league      SMALLINT NOT NULL,
    cohort      INTEGER NOT NULL,
    cohort_rank INTEGER,
    cohort_size INTEGER,
    next_league SMALLINT,
    PRIMARY KEY (period_id, player_id)
);

CREATE INDEX cohort_members_cohort_idx ON cohort_members (period_id, league, cohort) INCLUDE (player_id);

-- The league a player plays next on a board, as the close of the newest
-- period they were ranked in decided it (decided_at: that period's start).
-- A player without a row starts in the lowest league.
CREATE TABLE board_player_leagues (
    board_id   TEXT COLLATE "C" NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    player_id  TEXT COLLATE "C" NOT NULL,
    league     SMALLINT NOT NULL,
    decided_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (board_id, player_id)
);
