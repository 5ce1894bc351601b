-- contact details
ALTER TABLE db.customers ADD COLUMN phone string;
ALTER TABLE db.customers ALTER COLUMN email COMMENT 'primary contact';
ALTER TABLE db.customers ADD COLUMN address.country string AFTER city;
