ALTER TABLE db.empty ADD COLUMNS (s struct<a: int>, l array<int>, m map<string, int>);
INSERT INTO db.empty VALUES (1, named_struct('a', 1), array(1), map('k', 1));
ALTER TABLE db.events ADD COLUMN note string;
ALTER TABLE db.events ADD COLUMN tags array<string>;
INSERT INTO db.events VALUES (3, named_struct('source', 'api'), 'n', array('t'));
