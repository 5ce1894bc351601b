ALTER TABLE db.metrics DROP COLUMNS (extra.a, extra.b);
ALTER TABLE db.metrics DROP COLUMN items.element.x;
