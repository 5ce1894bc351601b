-- V10 sorts after V2 (natural order)
ALTER TABLE db.events ADD COLUMN props map<string, struct<v: int, w: string>>;
