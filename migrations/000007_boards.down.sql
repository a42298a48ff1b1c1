DROP TABLE periods;
DROP TABLE boards;
