ALTER TABLE db.customers RENAME COLUMN address.zip TO postal_code;
MERGE INTO db.customers t USING (SELECT 1 AS id, '0151' AS zip) s ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET t.address.zip = s.zip;
MERGE INTO db.customers t USING (SELECT 1 AS id, '0151' AS zip) s ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET t.address.postal_code = s.zip;
MERGE INTO db.customers t USING (SELECT 'Oslo' AS city) s ON t.address.town = s.city
  WHEN MATCHED THEN DELETE;
MERGE INTO db.customers t USING (SELECT 'Oslo' AS city) s ON t.address.city = s.city
  WHEN MATCHED AND t.address.zip = '0150' THEN DELETE;
MERGE INTO db.customers t USING (SELECT 'Bergen' AS city) s ON t.address.City = s.city
  WHEN MATCHED THEN UPDATE SET t.name = upper(t.name);
MERGE INTO db.customers t USING (SELECT 3 AS id, 'cy' AS name) s ON t.id = s.id
  WHEN NOT MATCHED THEN INSERT (id, name, address) VALUES (s.id, s.name, named_struct('city', 'Rome', 'postal_code', '00100'));
