-- Settlement delivery on time: indexes that keep the claim of due messages
-- fast whatever the planner's statistics say, and an announcement of every
-- recorded message that wakes the deliverers of every instance.
--
-- The claim sends only the oldest undelivered message of each month (main's)
-- and each period (another board's), so that a *.corrected never goes before
-- its *.closed. It asks, of each due message, whether its month or period has
-- an older undelivered one. Right after a storm of closes the statistics of
-- outbox still say "nothing pending" (they were taken when everything was
-- delivered), and the planner answered that question by reading every
-- pending message through outbox_pending_idx once per candidate: 1.2 to 2.2 s
-- a claim with 2,000 pending, until autoanalyze. Here the question is one
-- probe of an index that holds only the pending messages of that month or
-- period, (key, created_at, id) in the order the claim compares them, which
-- any plan of the claim takes.
CREATE INDEX outbox_month_pending_idx ON outbox (month, created_at, id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_period_pending_idx ON outbox (period_id, created_at, id) WHERE delivered_at IS NULL;

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
