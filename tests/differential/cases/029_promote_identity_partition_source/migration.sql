-- accepted, but time travel to the first snapshot breaks afterwards
ALTER TABLE db.readings ALTER COLUMN sensor_id TYPE bigint;
