CREATE TABLE db.users (id bigint NOT NULL, first_name string, last_name string, age int) USING iceberg;
INSERT INTO db.users VALUES (1, 'Ada', 'Lovelace', 36);
