ALTER TABLE db.events DROP COLUMN attrs.source;
ALTER TABLE db.events ADD COLUMN attrs.medium string;
ALTER TABLE db.events ADD COLUMN attrs.source string AFTER medium;
