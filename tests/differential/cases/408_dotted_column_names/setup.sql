CREATE TABLE db.visits (id bigint NOT NULL, page string, ctx struct<ua: string>) USING iceberg;
INSERT INTO db.visits VALUES (1, '/home', named_struct('ua', 'firefox'));
