-- CTAS and RTAS schemas Spark derives: names, types, nullability (every column optional), field ids
-- (top-level columns first, then nested fields), the partition spec; RTAS keeps the ids of the
-- columns it keeps by name. An illegal type change on such a column is then Spark's error.
CREATE TABLE db.copy USING iceberg PARTITIONED BY (bucket(8, id)) AS SELECT * FROM db.src;
CREATE TABLE db.lits USING iceberg AS SELECT 1 AS i, 10000000000 AS big, 'x' AS s, true AS b, 1.5 AS dec, 1.5D AS d,
  DATE '2024-01-02' AS dt, TIMESTAMP '2024-01-02 03:04:05' AS ts, X'01' AS bin, CAST(NULL AS string) AS ns,
  CAST(1 AS decimal(10, 2)) AS c, CAST('2024-01-01' AS date) AS cd, CAST(2 AS smallint) AS sm, 1Y AS ty, 7L AS l,
  CAST(1.5 AS float) AS f;
CREATE TABLE db.joined USING iceberg AS SELECT s.id, s.attrs, l.label, s.price AS amount, s.tags FROM db.src s JOIN db.lbl l ON s.id = l.id;
CREATE TABLE db.lj USING iceberg AS SELECT l.id AS lid, s.name FROM db.lbl l LEFT JOIN db.src s ON s.id = l.id;
REPLACE TABLE db.old USING iceberg AS SELECT name AS label, id, CAST(qty AS bigint) AS qty FROM db.src;
CREATE OR REPLACE TABLE db.lbl USING iceberg AS SELECT id, name AS label, qty FROM db.src;
ALTER TABLE db.lits ALTER COLUMN i TYPE bigint;
ALTER TABLE db.lits ALTER COLUMN big TYPE int;
ALTER TABLE db.lits ALTER COLUMN dec TYPE decimal(10, 1);
ALTER TABLE db.lits ALTER COLUMN c TYPE decimal(12, 2);
ALTER TABLE db.lits ALTER COLUMN f TYPE double;
ALTER TABLE db.lits ALTER COLUMN d TYPE float;
ALTER TABLE db.joined ALTER COLUMN amount TYPE decimal(9, 2);
ALTER TABLE db.joined ALTER COLUMN attrs.score TYPE bigint;
ALTER TABLE db.old ALTER COLUMN qty TYPE int;
ALTER TABLE db.copy ALTER COLUMN name TYPE int;
