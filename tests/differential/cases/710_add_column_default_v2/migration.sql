-- Iceberg 1.10 rejects a column default set through Spark; Iceberg 1.9 accepts the statement and
-- adds the column without its default (no initial-default / write-default in the metadata).
ALTER TABLE db.t ADD COLUMN c int DEFAULT 5;
ALTER TABLE db.t ADD COLUMN note string;
