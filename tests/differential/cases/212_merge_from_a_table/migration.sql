ALTER TABLE db.stock RENAME COLUMN location TO warehouse;
MERGE INTO db.stock t USING db.stock_updates u ON t.sku = u.sku
  WHEN MATCHED THEN UPDATE SET t.qty = u.qty, t.location = 'w9';
MERGE INTO db.stock t USING db.stock_updates u ON t.sku = u.sku AND t.location = 'w1'
  WHEN MATCHED THEN DELETE;
MERGE INTO db.stock t USING db.stock_updates u ON t.sku = u.sku
  WHEN MATCHED THEN UPDATE SET t.qty = t.qty + u.qty
  WHEN NOT MATCHED THEN INSERT (sku, qty, warehouse) VALUES (u.sku, u.qty, 'w1')
  WHEN NOT MATCHED BY SOURCE AND t.warehouse = 'w2' THEN DELETE;
MERGE INTO db.stock t USING db.stock_updates u ON t.sku = u.sku
  WHEN NOT MATCHED BY SOURCE AND t.location = 'w2' THEN DELETE;
