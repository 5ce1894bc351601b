-- a bucket source of an old spec: dropping it is accepted and reads keep working
ALTER TABLE db.users DROP COLUMN email;
