-- The help of an INSERT ... SELECT whose values land by position in columns that cannot take them
-- (case 630): the same statement with a column list naming the columns its values are named as,
-- which Spark writes by those names. Each is one of icelint's helps, pasted as printed.
INSERT INTO db.t (id, dt, ts, v) SELECT id, dt, ts, v FROM db.t;
INSERT INTO TABLE db.t (id, dt, ts, v) SELECT ID, Dt, ts, v FROM db.t;
INSERT OVERWRITE db.t (id, ts, v, dt) SELECT id, ts AS ts, v + 1 AS v, dt FROM db.t;
INSERT INTO db.w (k, t, a, s) SELECT v AS k, dt AS t, array(id) AS a, named_struct('x', id, 'y', dt) AS s FROM db.t;
