ALTER TABLE db.accounts DROP COLUMN legacy_tag;
MERGE INTO db.accounts t USING (SELECT 1 AS account_id, 50 AS delta, 'x' AS tag) s ON t.account_id = s.account_id
  WHEN MATCHED THEN UPDATE SET t.legacy_tag = s.tag;
MERGE INTO db.accounts t USING (SELECT 1 AS account_id, 50 AS delta) s ON t.account_id = s.account_id
  WHEN MATCHED THEN UPDATE SET t.balance = t.balance + s.delt;
MERGE INTO db.accounts t USING (SELECT 1 AS account_id, 50 AS delta) s ON t.account_no = s.account_id
  WHEN MATCHED THEN DELETE;
MERGE INTO db.accounts t USING (SELECT 1 AS account_id, 50 AS delta) s ON t.account_id = s.account_id
  WHEN MATCHED AND t.legacy_tag = 'old' THEN DELETE;
MERGE INTO db.accounts t USING (SELECT 3 AS account_id, 'cy' AS owner_name) s ON t.account_id = s.account_id
  WHEN NOT MATCHED THEN INSERT (account_id, owner_name, legacy_tag) VALUES (s.account_id, s.owner_name, 'n');
MERGE INTO db.accounts t USING (SELECT 3 AS account_id, 'cy' AS owner_name) s ON t.account_id = s.account_id
  WHEN NOT MATCHED THEN INSERT *;
MERGE INTO db.accounts t USING (SELECT 3 AS account_id, 7 AS balance, 'cy' AS owner_name) s ON t.account_id = s.account_id
  WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
MERGE INTO db.accounts AS t USING (SELECT 2 AS account_id, 5 AS delta) AS s ON T.ACCOUNT_ID = s.account_id
  WHEN MATCHED AND s.delta > 0 THEN UPDATE SET balance = t.balance + s.delta
  WHEN NOT MATCHED THEN INSERT (account_id, balance, owner_name) VALUES (s.account_id, s.delta, 'new');
