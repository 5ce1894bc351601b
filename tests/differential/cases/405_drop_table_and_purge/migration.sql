DROP TABLE db.staging;
DROP TABLE db.archive PURGE;
DROP TABLE IF EXISTS db.never_created;
