-- looks like a no-op plus one new column; Spark deletes and re-adds every column
ALTER TABLE db.profiles REPLACE COLUMNS (user_id bigint, name string, email string, phone string);
