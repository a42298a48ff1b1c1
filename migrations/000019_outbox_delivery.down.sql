DROP TRIGGER outbox_announce ON outbox;
DROP FUNCTION announce_outbox();
DROP INDEX outbox_period_pending_idx;
DROP INDEX outbox_month_pending_idx;
