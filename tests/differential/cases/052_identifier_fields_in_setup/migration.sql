ALTER TABLE db.accounts DROP COLUMN account_id;
ALTER TABLE db.accounts ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE db.accounts ALTER COLUMN account_id TYPE bigint;
ALTER TABLE db.accounts ALTER COLUMN email DROP NOT NULL;
ALTER TABLE db.accounts DROP IDENTIFIER FIELDS account_id;
ALTER TABLE db.accounts ALTER COLUMN account_id DROP NOT NULL;
