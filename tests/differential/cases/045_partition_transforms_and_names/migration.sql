ALTER TABLE db.trips ADD PARTITION FIELD months(ended) AS ended_month;
ALTER TABLE db.trips ADD PARTITION FIELD days(day);
ALTER TABLE db.trips ADD PARTITION FIELD truncate(5, fare);
ALTER TABLE db.trips DROP PARTITION FIELD started_year;
ALTER TABLE db.trips DROP COLUMN started;
ALTER TABLE db.trips RENAME COLUMN city TO town;
ALTER TABLE db.trips DROP PARTITION FIELD truncate(3, town);
ALTER TABLE db.trips DROP COLUMN town;
