ALTER TABLE db.events RENAME COLUMN payload TO payload_text;
ALTER TABLE db.events ADD COLUMN payload binary;
ALTER TABLE db.events RENAME COLUMN attrs.source TO origin;
ALTER TABLE db.events ADD COLUMN attrs.source string;
