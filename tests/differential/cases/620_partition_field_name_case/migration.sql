-- Partition commands name partition fields and columns case-sensitively, whatever
-- spark.sql.caseSensitive says: each of these three fails (ICE003). ICE003's fix respells
-- them; tests/differential/test_fix_differential.py runs the fixed statements in Spark.
ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;
ALTER TABLE db.logs DROP PARTITION FIELD bucket(4, ID);
ALTER TABLE db.logs REPLACE PARTITION FIELD level WITH hours(logged_at);
