-- release 1: payload is no longer needed
ALTER TABLE db.events DROP COLUMN payload;
