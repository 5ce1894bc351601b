ALTER TABLE db.profiles RENAME COLUMN address.zip TO postal_code;
ALTER TABLE db.profiles RENAME COLUMN name TO full_name;
UPDATE db.profiles SET address.zip = '0000' WHERE id = 1;
UPDATE db.profiles SET address.postal_code = '0001' WHERE id = 1;
DELETE FROM db.profiles WHERE address.zip = '5003';
DELETE FROM db.profiles WHERE address.City = 'Nowhere';
UPDATE db.profiles SET name = 'Ann' WHERE id = 1;
UPDATE db.profiles SET full_name = upper(full_name) WHERE exists(tags, t -> t = 'a');
DELETE FROM db.profiles WHERE id IN (SELECT id FROM db.profiles WHERE full_name = 'nobody');
