ALTER TABLE db.visits ADD COLUMN utm struct<source: string>;
ALTER TABLE db.visits ADD COLUMN `ctx.ua` string;
ALTER TABLE db.visits ADD COLUMN utm string;
CREATE TABLE db.both (id bigint, `a.b` string, a struct<b: string>) USING iceberg;
