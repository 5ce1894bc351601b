CREATE TABLE db.events (id bigint, attrs struct<source: string>) USING iceberg;
INSERT INTO db.events VALUES (1, named_struct('source', 'web')), (2, named_struct('source', 'app'));
CREATE TABLE db.empty (id bigint) USING iceberg;
