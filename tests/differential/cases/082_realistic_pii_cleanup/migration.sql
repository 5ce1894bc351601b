-- GDPR: remove what we must not keep
ALTER TABLE db.users DROP COLUMN ssn;
ALTER TABLE db.users DROP COLUMN profile.phone;
UPDATE db.users SET email = NULL WHERE user_id = 2;
-- keep only the birth year
ALTER TABLE db.users ADD COLUMN birth_year int;
UPDATE db.users SET birth_year = year(birth_date);
ALTER TABLE db.users DROP COLUMN birth_date;
ALTER TABLE db.users RENAME COLUMN profile.nickname TO display_name;
