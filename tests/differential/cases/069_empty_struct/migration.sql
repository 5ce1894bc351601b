-- dropping the last field of a struct leaves struct<>: reads work, writes fail
ALTER TABLE db.metrics DROP COLUMN metrics.cpu;
ALTER TABLE db.metrics ADD COLUMN note string;
ALTER TABLE db.metrics ADD COLUMN metrics.mem double;
