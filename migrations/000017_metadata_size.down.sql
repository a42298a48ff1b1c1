-- The size check goes; metadata dropped by the up migration stays dropped.
ALTER TABLE board_scores DROP CONSTRAINT board_scores_metadata_size;
