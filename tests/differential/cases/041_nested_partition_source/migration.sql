ALTER TABLE db.devices DROP COLUMN info.vendor;
ALTER TABLE db.devices DROP COLUMN info;
ALTER TABLE db.devices DROP COLUMN info.model;
ALTER TABLE db.devices RENAME COLUMN info.vendor TO maker;
