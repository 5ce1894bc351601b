ALTER TABLE db.countries ADD COLUMN iso_code char(2);
ALTER TABLE db.countries ADD COLUMN region varchar(10);
ALTER TABLE db.countries ADD COLUMN meta struct<code: varchar(5), tags: array<char(3)>>;
INSERT INTO db.countries VALUES (2, 'Germany', 'DEU', 'Western Europe and more', named_struct('code', 'toolongcode', 'tags', array('abcd')));
ALTER TABLE db.countries ALTER COLUMN name TYPE varchar(20);
