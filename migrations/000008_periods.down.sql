DROP TABLE periods;
