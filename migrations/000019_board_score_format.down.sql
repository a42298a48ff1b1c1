ALTER TABLE boards DROP COLUMN score_format;
