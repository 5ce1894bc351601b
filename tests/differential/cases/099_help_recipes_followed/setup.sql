CREATE TABLE db.clicks (id bigint, region string, n int) USING iceberg PARTITIONED BY (region);
INSERT INTO db.clicks VALUES (1, 'EU', 1), (2, 'US', 2);

CREATE TABLE db.tasks (id bigint, priority int, due date, title string) USING iceberg;
INSERT INTO db.tasks VALUES (1, 2, DATE '2024-01-01', 'a'), (2, 1, DATE '2024-01-02', 'b');
ALTER TABLE db.tasks WRITE ORDERED BY priority DESC, due;

CREATE TABLE db.accounts (account_id bigint NOT NULL, legacy_key string NOT NULL, email string) USING iceberg;
INSERT INTO db.accounts VALUES (1, 'k1', 'a@x'), (2, 'k2', 'b@x');
ALTER TABLE db.accounts SET IDENTIFIER FIELDS account_id, legacy_key;
