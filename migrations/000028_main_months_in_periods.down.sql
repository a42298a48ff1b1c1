-- main's months back in months, and what names one by its date.
CREATE TABLE months (
    month         DATE PRIMARY KEY CHECK (EXTRACT(DAY FROM month) = 1),
    status        TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSING', 'CLOSED')),
    opened_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    ends_at       TIMESTAMPTZ NOT NULL,
    closed_at     TIMESTAMPTZ,
    participants  INTEGER,
    digest        TEXT,
    ranks_version INTEGER NOT NULL DEFAULT 0,
    CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL AND participants IS NOT NULL))
);
INSERT INTO months (month, status, opened_at, ends_at, closed_at, participants, digest, ranks_version)
SELECT to_date(key, 'YYYY-MM'), status, created_at, ends_at, closed_at, participants, digest, ranks_version
FROM periods WHERE board_id = 'main';

CREATE TABLE removed_players (
    month     DATE NOT NULL REFERENCES months (month) ON DELETE CASCADE,
    player_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (month, player_id)
);
INSERT INTO removed_players (month, player_id)
SELECT to_date(p.key, 'YYYY-MM'), r.player_id FROM board_removed_players r
JOIN periods p ON p.board_id = 'main' AND p.id = r.period_id;
DELETE FROM board_removed_players r USING periods p WHERE p.board_id = 'main' AND p.id = r.period_id;

DROP INDEX claims_period_idx;
ALTER TABLE claims
    ADD COLUMN month DATE REFERENCES months (month) ON DELETE CASCADE,
    ALTER COLUMN period_id DROP NOT NULL;
UPDATE claims c SET month = to_date(c.period_key, 'YYYY-MM'), period_id = NULL WHERE c.board_id = 'main';
ALTER TABLE claims
    ADD CONSTRAINT claims_check CHECK ((board_id = 'main') = (month IS NOT NULL)),
    ADD CONSTRAINT claims_check1 CHECK ((month IS NULL) = (period_id IS NOT NULL));
CREATE INDEX claims_month_idx ON claims (month) WHERE month IS NOT NULL;
CREATE INDEX claims_period_idx ON claims (period_id) WHERE period_id IS NOT NULL;

DROP INDEX corrections_period_idx;
ALTER TABLE corrections
    DROP CONSTRAINT corrections_score_after_check,
    DROP CONSTRAINT corrections_player_check,
    ADD COLUMN month DATE REFERENCES months (month) ON DELETE CASCADE,
    ALTER COLUMN board_id DROP NOT NULL,
    ALTER COLUMN period_id DROP NOT NULL;
UPDATE corrections c SET month = to_date(p.key, 'YYYY-MM'), board_id = NULL, period_id = NULL
FROM periods p WHERE c.board_id = 'main' AND p.board_id = 'main' AND p.id = c.period_id;
ALTER TABLE corrections
    ADD CONSTRAINT corrections_month_or_period_check CHECK ((month IS NULL) = (period_id IS NOT NULL AND board_id IS NOT NULL)),
    ADD CONSTRAINT corrections_score_after_check CHECK (month IS NULL OR score_after BETWEEN 0 AND 10000),
    ADD CONSTRAINT corrections_player_check CHECK (month IS NULL OR player_id IS NOT NULL OR erasure_id IS NOT NULL);
CREATE INDEX corrections_month_idx ON corrections (month, id);
CREATE INDEX corrections_period_idx ON corrections (period_id, id) WHERE period_id IS NOT NULL;

DROP INDEX outbox_period_pending_idx;
DROP INDEX outbox_period_idx;
ALTER TABLE outbox
    ADD COLUMN month DATE REFERENCES months (month) ON DELETE CASCADE,
    ALTER COLUMN board_id DROP NOT NULL,
    ALTER COLUMN period_id DROP NOT NULL;
UPDATE outbox o SET month = to_date(p.key, 'YYYY-MM'), board_id = NULL, period_id = NULL
FROM periods p WHERE o.board_id = 'main' AND p.board_id = 'main' AND p.id = o.period_id;
ALTER TABLE outbox
    ADD CONSTRAINT outbox_month_or_period_check CHECK ((month IS NULL) = (period_id IS NOT NULL AND board_id IS NOT NULL)),
    ADD COLUMN stream TEXT COLLATE "C" GENERATED ALWAYS AS
        (COALESCE('p' || period_id::text, 'm' || (month - DATE '0001-01-01')::text)) STORED;
CREATE INDEX outbox_month_idx ON outbox (month, created_at);
CREATE INDEX outbox_period_idx ON outbox (period_id, created_at) WHERE period_id IS NOT NULL;
CREATE INDEX outbox_stream_pending_idx ON outbox (stream, created_at, id) WHERE delivered_at IS NULL;

DELETE FROM periods WHERE board_id = 'main';
