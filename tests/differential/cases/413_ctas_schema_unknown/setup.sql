CREATE TABLE db.events (id bigint NOT NULL, kind string) USING iceberg;
INSERT INTO db.events VALUES (1, 'click'), (2, 'view');
