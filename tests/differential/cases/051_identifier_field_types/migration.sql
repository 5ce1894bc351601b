ALTER TABLE db.keys SET IDENTIFIER FIELDS k_float;
ALTER TABLE db.keys SET IDENTIFIER FIELDS list_col;
ALTER TABLE db.keys SET IDENTIFIER FIELDS opt_nested.inner_id;
ALTER TABLE db.keys SET IDENTIFIER FIELDS nested.inner_id;
ALTER TABLE db.keys SET IDENTIFIER FIELDS k_int, k_str, k_date;
-- promoting an identifier field is fine
ALTER TABLE db.keys ALTER COLUMN k_int TYPE bigint;
ALTER TABLE db.keys RENAME COLUMN k_str TO k_name;
ALTER TABLE db.keys DROP COLUMN k_date;
