-- A struct that names a field twice: CREATE TABLE fails in Spark's analyzer whatever the case
-- (case 621), but ALTER TABLE leaves the check to Iceberg, which compares names exactly.
ALTER TABLE db.nested ADD COLUMN s1 struct<x: int, X: int>;
ALTER TABLE db.nested ADD COLUMN a1 array<struct<x: int, X: int>>;
ALTER TABLE db.nested ADD COLUMN m1 map<string, struct<b: int, B: int>>;
ALTER TABLE db.nested ADD COLUMN s2 struct<x: int, x: int>;
ALTER TABLE db.nested ADD COLUMN a2 array<struct<x: int, x: int>>;
ALTER TABLE db.nested ADD COLUMN m2 map<string, struct<b: int, b: int>>;
ALTER TABLE db.nested ADD COLUMNS (q struct<x: int, X: int>, r int);
ALTER TABLE db.nested ADD COLUMNS (p int, P int);
INSERT INTO db.nested (id) VALUES (2);
ALTER TABLE db.nested REPLACE COLUMNS (id bigint, t struct<x: int, x: int>);
ALTER TABLE db.nested REPLACE COLUMNS (id bigint, s struct<y: int, Y: int>);
