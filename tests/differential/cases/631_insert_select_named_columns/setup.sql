CREATE TABLE db.t (id bigint, dt string, v int, ts timestamp) USING iceberg PARTITIONED BY (dt);
INSERT INTO db.t VALUES (1, '2024-01-01', 5, TIMESTAMP '2024-01-01 00:00:00');
CREATE TABLE db.u (id bigint, n string, d date, b boolean, s struct<x: int, y: string>, a array<int>) USING iceberg;
INSERT INTO db.u VALUES (2, '7', DATE '2024-01-02', true, named_struct('x', 1, 'y', 'a'), array(1, 2));
CREATE TABLE db.w (s struct<x: bigint, y: string>, a array<bigint>, t string, k int) USING iceberg;
INSERT INTO db.w VALUES (named_struct('x', 1, 'y', 'a'), array(1), 't', 1);
