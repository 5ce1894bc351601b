ALTER TABLE db.orders ALTER COLUMN created_at AFTER order_id;
-- written for the old column order
INSERT INTO db.orders VALUES (3, 12, 'NEW', 5.00, TIMESTAMP '2024-06-03 10:00:00');
INSERT INTO db.orders VALUES (4, TIMESTAMP '2024-06-04 10:00:00', 13, 'NEW', 6.00);
