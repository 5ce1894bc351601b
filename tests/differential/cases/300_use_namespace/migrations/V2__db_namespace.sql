-- USE lasts for the session: this file starts in namespace db
ALTER TABLE events RENAME COLUMN kind TO event_kind;
ALTER TABLE events ALTER COLUMN event_kind COMMENT 'click or view';
ALTER TABLE events DROP COLUMN note;
USE NAMESPACE other;
ALTER TABLE events ADD COLUMN body string;
ALTER TABLE events DROP COLUMN event_kind;
USE local.db;
ALTER TABLE events ADD COLUMN body string;
USE DATABASE other;
INSERT INTO events VALUES (1, 'n', 2, 'b');
DROP TABLE events PURGE;
