-- v1 table, nested columns, new names
ALTER TABLE db.p1 REPLACE COLUMNS (id bigint, full_name string, s struct<a: int, b: int, c: int>);
-- identifier field: REPLACE COLUMNS deletes it
ALTER TABLE db.p2 REPLACE COLUMNS (id bigint NOT NULL, name string);
-- a sort order on name
ALTER TABLE db.p3 REPLACE COLUMNS (id bigint, name string);
ALTER TABLE db.p3 REPLACE COLUMNS (id bigint, id string);
