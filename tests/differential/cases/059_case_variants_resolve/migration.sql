-- column names resolve case-insensitively by default (table names are paths in a Hadoop catalog: exact case)
ALTER TABLE db.events ALTER COLUMN PAYLOAD COMMENT 'upper-case reference';
ALTER TABLE db.events RENAME COLUMN Kind TO event_kind;
ALTER TABLE db.events ALTER COLUMN ATTRS.SCORE TYPE bigint;
ALTER TABLE db.events ADD COLUMN Attrs.Medium string;
ALTER TABLE db.events DROP COLUMN Items.element.Qty;
ALTER TABLE local.db.events ALTER COLUMN Event_Kind AFTER PAYLOAD;
ALTER TABLE db.events ALTER COLUMN PROPS.value.V TYPE bigint;
