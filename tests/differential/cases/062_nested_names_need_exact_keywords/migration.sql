-- `element`, `key` and `value` are matched case-sensitively even with caseSensitive=false
ALTER TABLE db.events DROP COLUMN ITEMS.ELEMENT.QTY;
ALTER TABLE db.events ALTER COLUMN props.VALUE.v TYPE bigint;
ALTER TABLE db.events ADD COLUMN items.Element.price double;
ALTER TABLE db.events ADD COLUMN items.element.price double;
