ALTER TABLE db.people ALTER COLUMN address.city FIRST;
ALTER TABLE db.people ADD COLUMN address.zip string AFTER city;
ALTER TABLE db.people CHANGE COLUMN name name string FIRST;
ALTER TABLE db.people CHANGE COLUMN id id bigint AFTER name;
