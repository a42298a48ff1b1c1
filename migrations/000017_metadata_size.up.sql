-- Metadata is checked and normalized in Go before it is stored
-- (leaderboard.NormalizeMetadata): a JSON object of at most 1,024 bytes in its
-- compact text, numbers of at most 32 characters written out. PostgreSQL's own
-- text of a jsonb adds a space after each ':' and ',', so 2,048 bytes bound
-- that text whatever the object's shape, and the table refuses more.
--
-- Before that check, a number such as 1e131071 (8 bytes sent) was stored and
-- answered as 131,072 digits. Metadata whose stored text is past the bound
-- can only have come that way: it is dropped from the live and the final
-- rows (ranks, scores and digests are untouched). NOT VALID: the rows were
-- just made to fit, and a second scan under the table's lock would check
-- nothing more.
UPDATE board_scores SET metadata = NULL WHERE octet_length(metadata::text) > 2048;
UPDATE board_final_ranks SET metadata = NULL WHERE octet_length(metadata::text) > 2048;
ALTER TABLE board_scores ADD CONSTRAINT board_scores_metadata_size
    CHECK (octet_length(metadata::text) <= 2048) NOT VALID;
