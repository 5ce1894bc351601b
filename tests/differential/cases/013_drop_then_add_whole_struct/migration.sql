ALTER TABLE db.events DROP COLUMN attrs;
ALTER TABLE db.events ADD COLUMN attrs struct<source: string, score: int>;
