-- with Iceberg's SparkCatalog every table is an Iceberg table; USING picks its data file format
CREATE TABLE db.events_parquet (id bigint, payload string) USING parquet;
CREATE TABLE db.events_orc (id bigint, payload string) USING ORC PARTITIONED BY (id);
CREATE TABLE db.events_avro (id bigint, payload string) USING avro TBLPROPERTIES ('write.format.default' = 'parquet');
CREATE TABLE db.events_delta (id bigint, payload string) USING delta;
ALTER TABLE db.events_parquet ADD COLUMN kind string;
ALTER TABLE db.events_orc DROP COLUMN payload;
