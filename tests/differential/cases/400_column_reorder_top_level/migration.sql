ALTER TABLE db.users ALTER COLUMN last_name FIRST;
ALTER TABLE db.users ALTER COLUMN age AFTER last_name;
ALTER TABLE db.users ADD COLUMN middle_name string AFTER first_name;
ALTER TABLE db.users ADD COLUMN email string;
