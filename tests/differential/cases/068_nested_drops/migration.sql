ALTER TABLE db.events DROP COLUMN items.element;
ALTER TABLE db.events DROP COLUMN props.key;
ALTER TABLE db.events DROP COLUMN props.value;
ALTER TABLE db.events DROP COLUMN items.element.name;
ALTER TABLE db.events DROP COLUMN props.value.v;
ALTER TABLE db.events DROP COLUMNS (attrs.source, kind);
