ALTER TABLE db.events DROP COLUMN kind;
ALTER TABLE db.events ADD COLUMN kind string;
ALTER TABLE db.events DROP COLUMN attrs.score;
ALTER TABLE db.events ADD COLUMN attrs.score int;
