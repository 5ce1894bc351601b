CREATE TABLE db.currencies (id bigint NOT NULL, iso char(3), label varchar(40)) USING iceberg;
INSERT INTO db.currencies VALUES (1, 'EURO', 'a label');
ALTER TABLE db.codes ADD COLUMNS (flag char(1), note string);
