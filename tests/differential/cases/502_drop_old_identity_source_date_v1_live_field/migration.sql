-- v1: the current spec keeps void(sale_day) next to the live months(sold_at): accepted, then every
-- later INSERT fails (Cannot build accessor for field: null); time travel works for a date source
ALTER TABLE db.sales DROP COLUMN sale_day;
