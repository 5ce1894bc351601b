ALTER TABLE db.events ADD COLUMN attrs.geo struct<lat: double, lon: double> COMMENT 'location';
ALTER TABLE db.events ADD COLUMN attrs.geo.alt double;
ALTER TABLE db.events ADD COLUMN items.element.tags array<string>;
ALTER TABLE db.events ADD COLUMN props.value.extra map<string, int>;
ALTER TABLE db.events ADD COLUMN tags.element string;
ALTER TABLE db.events ADD COLUMN items.element string;
ALTER TABLE db.events ADD COLUMN props.key.x int;
ALTER TABLE db.events ADD COLUMN payload.x int;
ALTER TABLE db.events ADD COLUMNS (matrix array<array<int>>, lookup map<string, array<struct<k: int>>>);
