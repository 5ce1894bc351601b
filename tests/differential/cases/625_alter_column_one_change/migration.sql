-- Iceberg's documentation shows `ALTER COLUMN measurement TYPE double COMMENT '...'`: Spark 3.5
-- takes one change per ALTER COLUMN and fails to parse it (ICE006, whose help writes one statement
-- per change: run below, as pasted).
ALTER TABLE db.sample ALTER COLUMN measurement TYPE double COMMENT 'unit is bytes per second';
ALTER TABLE db.sample
  ALTER COLUMN d TYPE decimal(12,2) /* wider */ COMMENT 'its' FIRST;
ALTER TABLE db.sample CHANGE COLUMN `id` DROP NOT NULL AFTER note;
ALTER TABLE db.sample ALTER COLUMN measurement TYPE double; ALTER TABLE db.sample ALTER COLUMN measurement COMMENT 'unit is bytes per second';
ALTER TABLE db.sample ALTER COLUMN d TYPE decimal(12,2); ALTER TABLE db.sample ALTER COLUMN d COMMENT 'its'; ALTER TABLE db.sample ALTER COLUMN d FIRST;
ALTER TABLE db.sample CHANGE COLUMN `id` DROP NOT NULL; ALTER TABLE db.sample CHANGE COLUMN `id` AFTER note;
INSERT INTO db.sample VALUES (2.5, 2.0, 'b', 2);
