-- the later migration of ICE003's help: region (string) only feeds spec 0, which no snapshot holds a
-- file of any more: accepted, and reads, writes and time travel work (region's values are dropped)
ALTER TABLE db.sales DROP COLUMN region;
