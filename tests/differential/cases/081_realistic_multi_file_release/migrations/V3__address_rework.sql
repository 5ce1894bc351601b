-- zip codes become structured: drop and re-add (this hides every stored zip)
ALTER TABLE db.customers DROP COLUMN address.zip;
ALTER TABLE db.customers ADD COLUMN address.zip string;
