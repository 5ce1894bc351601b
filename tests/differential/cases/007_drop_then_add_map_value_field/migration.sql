ALTER TABLE db.events DROP COLUMN props.value.w;
ALTER TABLE db.events ADD COLUMN props.value.w string;
ALTER TABLE db.events ADD COLUMN props.value.z int;
