ALTER TABLE db.events ADD COLUMN note string;
CREATE VIEW db.recent_events AS SELECT * FROM db.events;
