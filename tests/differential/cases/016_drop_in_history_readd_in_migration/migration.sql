-- kind was dropped last quarter; its values still sit in old data files
ALTER TABLE db.events ADD COLUMN kind string;
