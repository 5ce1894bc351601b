ALTER TABLE db.events ALTER COLUMN kind FIRST;
ALTER TABLE db.events ALTER COLUMN payload AFTER props;
ALTER TABLE db.events ALTER COLUMN attrs.score FIRST;
ALTER TABLE db.events ALTER COLUMN attrs.source AFTER score;
ALTER TABLE db.events ALTER COLUMN items.element.qty FIRST;
ALTER TABLE db.events ALTER COLUMN props.value.w AFTER v;
-- moves across structs and onto missing fields are rejected
ALTER TABLE db.events ALTER COLUMN attrs.score AFTER kind;
ALTER TABLE db.events ALTER COLUMN kind AFTER nope;
ALTER TABLE db.events ALTER COLUMN kind AFTER kind;
ALTER TABLE db.events ALTER COLUMN event_id AFTER payload;
