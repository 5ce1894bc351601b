ALTER TABLE db.events DROP COLUMN items.element.qty;
ALTER TABLE db.events ADD COLUMN items.element.qty bigint;
