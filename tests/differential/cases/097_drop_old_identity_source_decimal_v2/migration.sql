-- code (decimal(9,2)) only feeds partition spec 0, which is no longer current: accepted, but time travel to
-- the snapshots written under spec 0 then fails (ClassCastException), as with a string source
ALTER TABLE db.sales DROP COLUMN code;
