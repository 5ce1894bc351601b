-- v1 whose current spec is only void(sale_day): accepted, inserts and time travel keep working
ALTER TABLE db.sales DROP COLUMN sale_day;
