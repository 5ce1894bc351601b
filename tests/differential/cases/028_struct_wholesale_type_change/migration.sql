ALTER TABLE db.profiles ALTER COLUMN dims TYPE struct<w: bigint, h: bigint>;
ALTER TABLE db.profiles ALTER COLUMN dims TYPE struct<w: int, h: int, d: int>;
ALTER TABLE db.profiles ALTER COLUMN tags TYPE array<int>;
ALTER TABLE db.profiles ALTER COLUMN meta TYPE map<string, int>;
ALTER TABLE db.profiles ALTER COLUMN id TYPE struct<v: bigint>;
ALTER TABLE db.profiles ALTER COLUMN dims TYPE string;
ALTER TABLE db.profiles ALTER COLUMN dims.w TYPE bigint;
