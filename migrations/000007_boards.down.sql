DROP TABLE boards;
