-- Settlement delivery on time: a claim of due messages that stays fast
-- whatever the planner's statistics say, and an announcement of every
-- recorded message that wakes the deliverers of every instance.
--
-- The claim sends only the oldest undelivered message of each month (main's)
-- and each period (another board's), so that a *.corrected never goes before
-- its *.closed: of each due message it asks whether its month or period has
-- an older undelivered one. Right after a storm of closes the statistics of
-- outbox still said "nothing pending" (taken when everything was delivered),
-- so the planner believed the partial index outbox_pending_idx (WHERE
-- delivered_at IS NULL) empty and answered that question by reading all of
-- it once per candidate: 1.2 to 2.2 s a claim with 2,000 pending, until
-- autoanalyze. No index of the outbox is partial on delivered_at alone but
-- the two the question is for:
--
-- * a delivered message has no next attempt (next_attempt_at is null), so
--   the due messages are a range of the plain index outbox_due_idx, read in
--   the order of their attempts, which only the claim's outer scan can use;
-- * stream names the month or period a message is of, one column for both
--   kinds ('m' and main's month as days since 0001-01-01, or 'p' and the
--   period's id), and outbox_stream_pending_idx holds the pending messages
--   of each stream in the order the claim compares them: one probe answers
--   the question, and no other index has a condition of it.
ALTER TABLE outbox
    ALTER COLUMN next_attempt_at DROP NOT NULL,
    ADD COLUMN stream TEXT COLLATE "C" GENERATED ALWAYS AS
        (COALESCE('p' || period_id::text, 'm' || (month - DATE '0001-01-01')::text)) STORED;
UPDATE outbox SET next_attempt_at = NULL WHERE delivered_at IS NOT NULL;
ALTER TABLE outbox ADD CONSTRAINT outbox_next_attempt_check CHECK ((next_attempt_at IS NULL) = (delivered_at IS NOT NULL));
DROP INDEX outbox_pending_idx;
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at);
CREATE INDEX outbox_stream_pending_idx ON outbox (stream, created_at, id) WHERE delivered_at IS NULL;

-- Each statement that records messages announces them on the channel
-- leaderboard_outbox (db.outboxChannel) when its transaction commits; the
-- deliverers listen and look at once. The payload is empty: PostgreSQL sends
-- one notification per transaction however many statements of it recorded
-- messages, so a storm's group closes announce once each.
CREATE FUNCTION announce_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('leaderboard_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_announce AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION announce_outbox();
