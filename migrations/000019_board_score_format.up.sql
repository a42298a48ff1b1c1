-- How clients show a board's scores (issue 36): NUMBER, a plain integer, or
-- DURATION_MS, milliseconds shown as m:ss.mmm. Part of the board's rules; it
-- has no effect on ranking. Boards made before it read NUMBER.
ALTER TABLE boards ADD COLUMN score_format TEXT NOT NULL DEFAULT 'NUMBER'
    CHECK (score_format IN ('NUMBER', 'DURATION_MS'));
