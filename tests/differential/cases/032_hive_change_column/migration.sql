ALTER TABLE db.metrics CHANGE COLUMN small small bigint;
ALTER TABLE db.metrics CHANGE COLUMN label label string COMMENT 'display label';
ALTER TABLE db.metrics CHANGE COLUMN flag flag boolean AFTER id;
ALTER TABLE db.metrics CHANGE COLUMN ts ts timestamp FIRST;
ALTER TABLE db.metrics CHANGE COLUMN score score_v2 double;
ALTER TABLE db.metrics CHANGE COLUMN ratio ratio float NOT NULL;
ALTER TABLE db.metrics CHANGE COLUMN big_total big_total int;
ALTER TABLE db.metrics CHANGE COLUMN price price decimal(11, 2) COMMENT 'wider';
ALTER TABLE db.metrics CHANGE missing missing int;
