ALTER TABLE db.jobs SET TBLPROPERTIES ('commit.retry.num-retries' = '-1');
ALTER TABLE db.jobs SET TBLPROPERTIES ('commit.retry.max-wait-ms' = '1s');
-- every later commit fails reading the property, even the repair
INSERT INTO db.jobs VALUES (3, 'weekly');
ALTER TABLE db.jobs ADD COLUMN note string;
ALTER TABLE db.jobs SET TBLPROPERTIES ('commit.retry.max-wait-ms' = '1000');
ALTER TABLE db.jobs UNSET TBLPROPERTIES ('commit.retry.max-wait-ms');
