-- INSERT ... SELECT is written by position under Spark's ANSI store assignment: numbers into
-- numbers, anything flat into strings, dates and timestamps into one another; a string into a
-- number, a timestamp into an int, a number into a timestamp fail before a row is read
-- ([INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST]). icelint: ICE005 where it knows the types.
INSERT OVERWRITE db.t PARTITION (dt) SELECT id, v, ts, dt FROM db.t;
INSERT INTO db.t SELECT id, dt, ts, v FROM db.t;
INSERT INTO db.t PARTITION (dt='x') SELECT id, ts, v FROM db.t;
INSERT INTO db.t SELECT id, n, n, d FROM db.u;
INSERT INTO db.t (id, ts, v, dt) SELECT id, id, id, n FROM db.u;
INSERT INTO db.t SELECT id, n, id, d FROM db.u;
INSERT INTO db.t SELECT u.id, b, CAST(n AS int), TIMESTAMP '2024-01-03 00:00:00' FROM db.u u;
INSERT INTO db.t SELECT id, d, 3, n FROM db.u;
INSERT INTO db.w SELECT s, a, d, id FROM db.u;
INSERT INTO db.w SELECT a, s, n, id FROM db.u;
INSERT INTO db.w SELECT s, a, b, n FROM db.u;
INSERT INTO db.t SELECT id, dt, v, ts FROM db.t;
