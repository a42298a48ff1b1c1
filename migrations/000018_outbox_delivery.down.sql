DROP TRIGGER outbox_announce ON outbox;
DROP FUNCTION announce_outbox();
DROP INDEX outbox_stream_pending_idx;
DROP INDEX outbox_due_idx;
CREATE INDEX outbox_pending_idx ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
ALTER TABLE outbox DROP CONSTRAINT outbox_next_attempt_check;
UPDATE outbox SET next_attempt_at = delivered_at WHERE next_attempt_at IS NULL;
ALTER TABLE outbox ALTER COLUMN next_attempt_at SET NOT NULL, DROP COLUMN stream;
