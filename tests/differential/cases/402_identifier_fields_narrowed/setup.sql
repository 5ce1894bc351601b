CREATE TABLE db.accounts (id bigint NOT NULL, region string NOT NULL, balance bigint) USING iceberg;
ALTER TABLE db.accounts SET IDENTIFIER FIELDS id, region;
INSERT INTO db.accounts VALUES (1, 'EU', 100);
