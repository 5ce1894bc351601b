-- REPLACE TABLE ... AS SELECT without PARTITIONED BY: the old spec stays, an unpartitioned one becomes the default
CREATE TABLE db.events_stage USING iceberg AS SELECT event_id, kind, payload FROM db.events;
REPLACE TABLE db.events USING iceberg AS SELECT event_id, CAST(event_id AS string) AS event_key, kind FROM db.events_stage;
CREATE OR REPLACE TABLE db.events USING iceberg PARTITIONED BY (bucket(4, event_id))
AS SELECT event_id, kind, payload FROM db.events_stage;
ALTER TABLE db.events DROP COLUMN event_key;
ALTER TABLE db.events ALTER COLUMN event_id TYPE int;
