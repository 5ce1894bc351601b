CREATE TABLE db.web (
  id            bigint NOT NULL,
  `utm.source`  string,
  `page title`  string
) USING iceberg;
INSERT INTO db.web VALUES (1, 'google', 'Home'), (2, 'bing', 'About');
