-- CREATE TABLE ... LIKE: Spark runs it in its built-in session catalog, where `db` does not exist
-- ([SCHEMA_NOT_FOUND]); Iceberg's documentation: not supported. ICE005's help writes the table out.
CREATE TABLE db.l LIKE db.t;
CREATE TABLE IF NOT EXISTS db.l2 LIKE db.t USING iceberg;
CREATE TABLE db.l (id bigint NOT NULL COMMENT 'the id', ts timestamp, s struct<a: int>, dt string) USING iceberg PARTITIONED BY (days(ts), bucket(4, id), dt);
INSERT INTO db.l VALUES (2, TIMESTAMP '2024-01-02 10:00:00', named_struct('a', 2), 'y');
