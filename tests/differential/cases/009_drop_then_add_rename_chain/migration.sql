ALTER TABLE db.events RENAME COLUMN payload TO payload_old;
ALTER TABLE db.events RENAME COLUMN payload_old TO payload_legacy;
ALTER TABLE db.events DROP COLUMN payload_legacy;
ALTER TABLE db.events ADD COLUMN payload_legacy string;
ALTER TABLE db.events ADD COLUMN payload string;
