-- region (string) only feeds partition spec 0: accepted, then time travel to the snapshots written
-- under spec 0 fails with a ClassCastException (String vs UTF8String)
ALTER TABLE db.sales DROP COLUMN region;
