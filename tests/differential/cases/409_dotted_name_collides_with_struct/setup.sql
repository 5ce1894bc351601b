CREATE TABLE db.visits (id bigint NOT NULL, `utm.source` string, ctx struct<ua: string>) USING iceberg;
INSERT INTO db.visits VALUES (1, 'newsletter', named_struct('ua', 'firefox'));
