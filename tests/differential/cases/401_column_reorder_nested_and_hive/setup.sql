CREATE TABLE db.people (id bigint NOT NULL, name string, address struct<street: string, city: string>) USING iceberg;
INSERT INTO db.people VALUES (1, 'Ada', named_struct('street', 'Main St', 'city', 'London'));
