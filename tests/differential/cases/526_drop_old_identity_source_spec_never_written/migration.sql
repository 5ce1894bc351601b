-- region (string) only feeds partition spec 0, which never held a file: accepted, and every read,
-- write and time travel to each snapshot works (the values of region are dropped: a warning)
ALTER TABLE db.sales DROP COLUMN region;
