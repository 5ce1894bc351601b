ALTER TABLE db.accounts ADD COLUMN tenant_id bigint NOT NULL;
ALTER TABLE db.accounts ADD COLUMNS (phone string, tenant_id bigint NOT NULL);
ALTER TABLE db.accounts ADD COLUMN profile.level int NOT NULL;
ALTER TABLE db.accounts ADD COLUMN phone string;
-- even a brand-new, empty table cannot get a required column
CREATE TABLE db.empty_t (id bigint) USING iceberg;
ALTER TABLE db.empty_t ADD COLUMN must bigint NOT NULL;
ALTER TABLE db.empty_t ADD COLUMN opt bigint;
