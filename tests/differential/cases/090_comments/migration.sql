COMMENT ON TABLE db.events IS 'click stream';
ALTER TABLE db.events ALTER COLUMN payload COMMENT 'raw payload';
ALTER TABLE db.events ALTER COLUMN attrs.source COMMENT 'where it came from';
ALTER TABLE db.events ALTER COLUMN items.element.qty COMMENT 'units';
ALTER TABLE db.events ALTER COLUMN payload COMMENT '';
COMMENT ON TABLE db.events IS NULL;
ALTER TABLE db.events ALTER COLUMN props.value COMMENT 'the value struct';
