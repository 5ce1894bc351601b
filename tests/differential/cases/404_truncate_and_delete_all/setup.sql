CREATE TABLE db.events (id bigint NOT NULL, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a'), (2, 'b');
CREATE TABLE db.logs (id bigint NOT NULL, line string) USING iceberg;
INSERT INTO db.logs VALUES (1, 'x'), (2, 'y');
