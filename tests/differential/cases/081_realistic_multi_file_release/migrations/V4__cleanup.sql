ALTER TABLE db.customers DROP COLUMN phone;
ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
