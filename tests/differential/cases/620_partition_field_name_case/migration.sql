-- Partition commands name partition fields and columns case-sensitively, whatever
-- spark.sql.caseSensitive says: each of these three fails (ICE003)...
ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;
ALTER TABLE db.logs DROP PARTITION FIELD bucket(4, ID);
ALTER TABLE db.logs REPLACE PARTITION FIELD level WITH hours(logged_at);
-- ...and the same statements as ICE003's fix respells them are accepted.
ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;
ALTER TABLE db.logs DROP PARTITION FIELD bucket(4, id);
ALTER TABLE db.logs REPLACE PARTITION FIELD Level WITH hours(logged_at);
