CREATE TABLE db.profiles (
  id   bigint NOT NULL,
  dims struct<w: int, h: int>,
  tags array<string>,
  meta map<string, string>
) USING iceberg;
INSERT INTO db.profiles VALUES (1, named_struct('w', 1, 'h', 2), array('a'), map('k', 'v'));
