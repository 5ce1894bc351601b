-- legal: struct fields, list elements and map values can be promoted
ALTER TABLE db.nested ALTER COLUMN point.x TYPE bigint;
ALTER TABLE db.nested ALTER COLUMN point.y TYPE double;
ALTER TABLE db.nested ALTER COLUMN point.z TYPE decimal(9, 2);
ALTER TABLE db.nested ALTER COLUMN counts.element TYPE bigint;
ALTER TABLE db.nested ALTER COLUMN scores.value TYPE bigint;
ALTER TABLE db.nested ALTER COLUMN deep.inner.n TYPE bigint;
ALTER TABLE db.nested ALTER COLUMN deep.list.element.m TYPE bigint;
-- illegal
ALTER TABLE db.nested ALTER COLUMN by_id.key TYPE bigint;
ALTER TABLE db.nested ALTER COLUMN labels.element TYPE int;
ALTER TABLE db.nested ALTER COLUMN point.x TYPE int;
ALTER TABLE db.nested ALTER COLUMN scores.value TYPE string;
ALTER TABLE db.nested ALTER COLUMN point.z TYPE decimal(9, 3);
ALTER TABLE db.nested ALTER COLUMN by_id.value TYPE int;
