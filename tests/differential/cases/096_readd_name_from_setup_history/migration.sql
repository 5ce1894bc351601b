-- `kind` was renamed to `category` last quarter; now category goes and kind comes back
ALTER TABLE db.events DROP COLUMN category;
ALTER TABLE db.events ADD COLUMN kind string;
