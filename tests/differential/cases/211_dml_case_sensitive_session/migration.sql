UPDATE db.customers SET email = lower(email) WHERE TIER = 'gold';
SET spark.sql.caseSensitive = true;
UPDATE db.customers SET email = lower(Email) WHERE tier = 'gold';
DELETE FROM db.customers WHERE Tier = 'bronze';
INSERT INTO db.customers (customer_id, email, tier) VALUES (3, 'c@example.com', 'gold');
UPDATE db.customers SET Email = lower(Email) WHERE tier = 'gold';
SET spark.sql.caseSensitive = false;
DELETE FROM db.customers WHERE Tier = 'bronze';
