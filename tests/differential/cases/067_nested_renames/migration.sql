ALTER TABLE db.events RENAME COLUMN attrs.score TO rating;
ALTER TABLE db.events RENAME COLUMN items.element.qty TO quantity;
ALTER TABLE db.events RENAME COLUMN props.value.v TO val;
ALTER TABLE db.events RENAME COLUMN props.key TO name;
ALTER TABLE db.events RENAME COLUMN items.element TO item;
ALTER TABLE db.events RENAME COLUMN attrs TO attributes;
ALTER TABLE db.events RENAME COLUMN attributes.source TO origin;
ALTER TABLE db.events RENAME COLUMN attributes.origin TO `origin.name`;
